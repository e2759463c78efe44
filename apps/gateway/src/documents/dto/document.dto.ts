import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  CustomerDocument,
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_REJECTION_REASONS,
  DOCUMENT_SIDES,
  DocumentSide,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  DocumentContentType,
  DocumentRejectionReason,
  DocumentStatus,
  DocumentType,
  Page,
} from '@paykit/contracts';
import { IsCountryCode, IsOneOf } from '@paykit/validation';

/** The text fields of the multipart form of PUT /documents/{id} (validated like any body). */
export class DocumentReplaceFields {
  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'PASSPORT' })
  @IsOneOf(DOCUMENT_TYPES)
  documentType!: DocumentType;

  @ApiProperty({ description: 'Country that issued the document, ISO 3166-1 alpha-2', example: 'US' })
  @IsCountryCode()
  country!: string;

  @ApiPropertyOptional({ enum: DOCUMENT_SIDES, description: 'Which side of a two-sided document the file shows', example: 'FRONT' })
  @IsOptional()
  @IsOneOf(DOCUMENT_SIDES)
  side?: DocumentSide;

  @ApiPropertyOptional({ description: 'Number printed on the document', example: 'X1234567' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  documentNumber?: string;

  @ApiPropertyOptional({ description: 'Authority that issued the document', example: 'U.S. Department of State' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  issuingAuthority?: string;
}

/** The text fields of the multipart form of POST /documents. */
export class DocumentUploadFields extends DocumentReplaceFields {
  @ApiProperty({
    description: 'Whom the document is about: a customer id, or the id of a beneficial owner of a business customer',
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  @IsString()
  @IsNotEmpty()
  documentHolder!: string;
}

const FILE_DESCRIPTION =
  'The file: PDF, JPEG or PNG (its bytes must match its Content-Type), at most 10 MB. Sandbox review by the last 3 characters of the file name ' +
  'without extension: 001 PENDING, 002 LOW_QUALITY, 003 DATA_MISMATCH, 004 EXPIRED, 005 SUSPECTED_FRAUD, 006 UNSUITABLE_DOCUMENT, 007 INCOMPLETE ' +
  '(rejections answer 400 with that code and keep the document REJECTED), other APPROVED.';

export class DocumentReplaceFormDto extends DocumentReplaceFields {
  @ApiProperty({ type: 'string', format: 'binary', description: FILE_DESCRIPTION })
  file!: unknown;
}

export class DocumentUploadFormDto extends DocumentUploadFields {
  @ApiProperty({ type: 'string', format: 'binary', description: FILE_DESCRIPTION })
  file!: unknown;
}

export class DocumentResponseDto implements CustomerDocument {
  @ApiProperty({ example: 'Document:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: 'Whom the document is about: the customer, or a beneficial owner', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  documentHolder!: string;
  @ApiProperty({
    description: "The customer the document belongs to (the beneficial owner's business for owners' documents)",
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  customerId!: string;
  @ApiPropertyOptional({ example: 'BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) beneficialOwnerId?: string;
  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'PASSPORT' }) documentType!: DocumentType;
  @ApiPropertyOptional({ enum: DOCUMENT_SIDES, example: 'FRONT' }) side?: DocumentSide;
  @ApiProperty({ description: 'Issuing country, ISO 3166-1 alpha-2 (`ZZ`: not recorded, for uploads made before it was asked)', example: 'US' }) country!: string;
  @ApiPropertyOptional({ example: 'X1234567' }) documentNumber?: string;
  @ApiPropertyOptional({ example: 'U.S. Department of State' }) issuingAuthority?: string;
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
  @ApiProperty({ description: 'Uploaded documents matching the filters, all pages', example: 1 }) totalCount!: number;
}
