import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { KYC_STATUSES, KycStatus, Verification, VERIFICATION_STATUSES, VerificationError, VerificationStatus } from '@paykit/contracts';

export class VerificationErrorDto implements VerificationError {
  @ApiProperty({ enum: ['MISSING_FIELD'], example: 'MISSING_FIELD' }) code!: 'MISSING_FIELD';
  @ApiProperty({ description: 'The missing field; `edd.<field>` names an enhanced due diligence field of the customer', example: 'edd.sourceOfWealthCategories' })
  field!: string;
  @ApiProperty({ example: 'Enhanced due diligence needs sourceOfWealthCategories: PATCH the customer, then verify again' }) message!: string;
}

export class VerificationResponseDto implements Verification {
  @ApiProperty({ example: 'Verification:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiProperty({ enum: VERIFICATION_STATUSES, example: 'IN_PROGRESS' }) verificationStatus!: VerificationStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: "Individuals: the customer's KYC status after this verification", example: 'APPROVED' }) kycStatus?: KycStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: "Businesses: the customer's KYB status after this verification", example: 'APPROVED' }) kybStatus?: KycStatus;
  @ApiPropertyOptional({ type: [VerificationErrorDto], description: 'With RESOLVE_ERRORS: the missing data' }) errors?: VerificationErrorDto[];
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
}
