import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  DOCUMENT_TYPES,
  DocumentType,
  KYC_STATUSES,
  KycStatus,
  Page,
  Verification,
  VERIFICATION_ERROR_TYPES,
  VERIFICATION_STATUSES,
  VerificationError,
  VerificationErrorType,
  VerificationStatus,
} from '@paykit/contracts';

export class VerificationErrorDto implements VerificationError {
  @ApiProperty({ description: 'The resource the problem is about (the customer, a beneficial owner or a document)', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  resourceId!: string;
  @ApiProperty({ enum: VERIFICATION_ERROR_TYPES, example: 'MISSING_FIELD' }) type!: VerificationErrorType;
  @ApiPropertyOptional({
    description: 'For field problems: the field; `edd.<field>` names an enhanced due diligence field of the customer',
    example: 'edd.sourceOfWealthCategories',
  })
  field?: string;
  @ApiPropertyOptional({ enum: DOCUMENT_TYPES, isArray: true, description: 'For missing documents: the kinds that would do' }) acceptedDocumentTypes?: DocumentType[];
  @ApiProperty({ example: 'Enhanced due diligence needs sourceOfWealthCategories: PATCH the customer, then verify again' }) reason!: string;
}

export class VerificationResponseDto implements Verification {
  @ApiProperty({ example: 'Verification:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiProperty({ enum: VERIFICATION_STATUSES, example: 'IN_PROGRESS' }) verificationStatus!: VerificationStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: "POST only, individuals: the customer's KYC status after this verification", example: 'APPROVED' })
  kycStatus?: KycStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: "POST only, businesses: the customer's KYB status after this verification", example: 'APPROVED' })
  kybStatus?: KycStatus;
  @ApiProperty({ type: [VerificationErrorDto], description: 'With RESOLVE_ERRORS: what to fix; empty otherwise' }) errors!: VerificationErrorDto[];
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class VerificationPageDto implements Page<Verification> {
  @ApiProperty({ type: [VerificationResponseDto] }) data!: VerificationResponseDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` to get the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Verifications matching the filters, all pages', example: 1 }) totalCount!: number;
}
