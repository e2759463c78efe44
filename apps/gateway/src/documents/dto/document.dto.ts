import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString } from 'class-validator';
import {
  CustomerDocument,
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_REJECTION_REASONS,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  DocumentContentType,
  DocumentRejectionReason,
  DocumentStatus,
  DocumentType,
  Page,
} from '@paykit/contracts';
import { IsOneOf } from '@paykit/validation';

/** The text fields of the multipart form of POST /documents (validated like any body). */
export class DocumentUploadFields {
  @ApiProperty({ description: 'The customer the document belongs to', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'PASSPORT' })
  @IsOneOf(DOCUMENT_TYPES)
  documentType!: DocumentType;

  @ApiPropertyOptional({ description: 'A beneficial owner of the (business) customer whose document this is', example: 'BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  beneficialOwnerId?: string;
}

export class DocumentUploadFormDto extends DocumentUploadFields {
  @ApiProperty({
    type: 'string',
    format: 'binary',
    description:
      'The file: PDF, JPEG or PNG (its bytes must match its Content-Type), at most 10 MB. Sandbox review by the last 3 characters of the file name ' +
      'without extension: 001 PENDING, 002 LOW_QUALITY, 003 DATA_MISMATCH, 004 EXPIRED, 005 SUSPECTED_FRAUD, 006 UNSUITABLE_DOCUMENT, 007 INCOMPLETE ' +
      '(rejections answer 400 with that code and keep the document REJECTED), other APPROVED.',
  })
  file!: unknown;
}

export class DocumentResponseDto implements CustomerDocument {
  @ApiProperty({ example: 'Document:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiPropertyOptional({ example: 'BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) beneficialOwnerId?: string;
  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'PASSPORT' }) documentType!: DocumentType;
  @ApiProperty({ example: 'passport.pdf' }) fileName!: string;
  @ApiProperty({ enum: DOCUMENT_CONTENT_TYPES, example: 'application/pdf' }) contentType!: DocumentContentType;
  @ApiProperty({ example: 183202 }) sizeBytes!: number;
  @ApiProperty({ description: 'SHA-256 of the file, hex', example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' }) sha256!: string;
  @ApiProperty({ enum: DOCUMENT_STATUSES, example: 'APPROVED' }) status!: DocumentStatus;
  @ApiPropertyOptional({ enum: DOCUMENT_REJECTION_REASONS, example: 'LOW_QUALITY' }) rejectionReason?: DocumentRejectionReason;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class DocumentPageDto implements Page<CustomerDocument> {
  @ApiProperty({ type: [DocumentResponseDto] }) data!: DocumentResponseDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` to get the next page' }) nextCursor?: string;
}
