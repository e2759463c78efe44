import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Address,
  ANNUAL_INCOME_RANGES,
  AnnualIncomeRange,
  BULK_IMPORT_STATUSES,
  BulkImportJob,
  BulkImportProgress,
  BulkImportRowError,
  BulkImportStatus,
  BusinessInfo,
  CONTACT_CHANNELS,
  CONTACT_VERIFICATION_STATUSES,
  ContactChannel,
  ContactCodeSent,
  ContactVerification,
  ContactVerificationStatus,
  Customer,
  CUSTOMER_TYPES,
  CustomerType,
  KYC_STATUSES,
  KycStatus,
  Page,
  PurposeOfAccount,
  PURPOSES_OF_ACCOUNT,
  SOURCE_OF_WEALTH_CATEGORIES,
  SourceOfWealthCategory,
} from '@paykit/contracts';

/** OpenAPI description of the Customer resource (the reply is passed through as the service shaped it). */
export class AddressDto implements Address {
  @ApiProperty({ example: '1 Market St' }) line1!: string;
  @ApiPropertyOptional({ example: 'Suite 400' }) line2?: string;
  @ApiProperty({ example: 'San Francisco' }) city!: string;
  @ApiPropertyOptional({ example: 'CA' }) state?: string;
  @ApiProperty({ example: '94105' }) postalCode!: string;
  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2' }) country!: string;
}

export class BusinessInfoDto implements BusinessInfo {
  @ApiProperty({ example: 'Acme Payments LLC' }) legalName!: string;
  @ApiPropertyOptional({ example: 'REG-000123' }) registrationNumber?: string;
  @ApiPropertyOptional({ example: '12-3456789' }) taxId?: string;
}

export class ContactVerificationDto implements ContactVerification {
  @ApiPropertyOptional({ enum: CONTACT_VERIFICATION_STATUSES, description: 'Present when the provider requires email verification', example: 'PENDING' })
  email?: ContactVerificationStatus;
  @ApiPropertyOptional({ enum: CONTACT_VERIFICATION_STATUSES, description: 'Present when the provider requires phone verification', example: 'VERIFIED' })
  phone?: ContactVerificationStatus;
}

export class CustomerResponseDto implements Customer {
  @ApiProperty({ description: 'Customer id', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: "Platform's own id for the customer", example: 'user-8812' }) platformCustomerId!: string;
  @ApiProperty({ enum: CUSTOMER_TYPES, example: 'INDIVIDUAL' }) customerType!: CustomerType;
  @ApiPropertyOptional({ example: 'Ada Lovelace' }) fullName?: string;
  @ApiPropertyOptional({ example: '1990-04-12' }) birthDate?: string;
  @ApiPropertyOptional({ example: 'GB' }) nationality?: string;
  @ApiPropertyOptional({ example: 'ada@example.com' }) email?: string;
  @ApiPropertyOptional({ example: '+14155550123' }) phoneNumber?: string;
  @ApiPropertyOptional({ type: AddressDto }) address?: AddressDto;
  @ApiPropertyOptional({ type: BusinessInfoDto }) businessInfo?: BusinessInfoDto;
  @ApiPropertyOptional({ description: 'UMA address (lowercase)', example: '$ada@p-1f2d3c4b5a.uma.sandbox.paykit.dev' }) umaAddress?: string;
  @ApiPropertyOptional({ enum: SOURCE_OF_WEALTH_CATEGORIES, isArray: true, description: 'Enhanced due diligence', example: ['SALARY'] })
  sourceOfWealthCategories?: SourceOfWealthCategory[];
  @ApiPropertyOptional({ enum: PURPOSES_OF_ACCOUNT, description: 'Enhanced due diligence', example: 'P2P_TRANSFERS' }) purposeOfAccount?: PurposeOfAccount;
  @ApiPropertyOptional({ enum: ANNUAL_INCOME_RANGES, description: 'Enhanced due diligence', example: 'RANGE_100K_250K' }) annualIncomeRange?: AnnualIncomeRange;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Individuals: KYC status', example: 'PENDING' }) kycStatus?: KycStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Businesses: KYB status', example: 'PENDING' }) kybStatus?: KycStatus;
  @ApiPropertyOptional({
    type: ContactVerificationDto,
    description:
      "Only when the customer's provider requires contact verification, with only the required channels (sandbox: email local part ending in `+verify`, phone ending in `0000`)",
  })
  contactVerification?: ContactVerificationDto;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class CustomerPageDto implements Page<Customer> {
  @ApiProperty({ type: [CustomerResponseDto] }) data!: CustomerResponseDto[];
  @ApiProperty({ description: 'Whether another page follows', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` to get the next page', example: 'Q3VzdG9tZXI6MDE5MGYxYzI' }) nextCursor?: string;
}

export class ContactCodeSentDto implements ContactCodeSent {
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiProperty({ enum: CONTACT_CHANNELS, example: 'email' }) channel!: ContactChannel;
  @ApiProperty({ enum: CONTACT_VERIFICATION_STATUSES, example: 'PENDING' }) status!: ContactVerificationStatus;
  @ApiProperty({ description: 'The code stops working at this instant (10 minutes)', example: '2025-10-13T12:10:00.000Z' }) expiresAt!: string;
  @ApiProperty({ description: 'A re-send before this instant answers 429 with Retry-After (30 s)', example: '2025-10-13T12:00:30.000Z' }) resendAvailableAt!: string;
}

export class KycLinkResponseDto {
  @ApiProperty({ description: 'Single-use hosted verification page; open it in a browser', example: 'https://api.example/kyc/3q2-7wEAAAB5Q0nq6zQ4bM0Yt2KXvq0n7mT9p5b1c2d' })
  kycUrl!: string;
  @ApiProperty({ description: 'The link stops working at this instant (24 hours)', example: '2025-10-14T12:00:00.000Z' }) expiresAt!: string;
  @ApiProperty({ description: 'The link token, for SDK embedding', example: '3q2-7wEAAAB5Q0nq6zQ4bM0Yt2KXvq0n7mT9p5b1c2d' }) token!: string;
}

export class BulkImportProgressDto implements BulkImportProgress {
  @ApiProperty({ example: 1000 }) processedRows!: number;
  @ApiProperty({ example: 998 }) successfulRows!: number;
  @ApiProperty({ example: 2 }) failedRows!: number;
}

export class BulkImportRowErrorDto implements BulkImportRowError {
  @ApiProperty({ description: 'Record number in the file; the header is row 1', example: 7 }) row!: number;
  @ApiProperty({ description: 'Dot path of the field (empty for a whole-row problem)', example: 'birthDate' }) field!: string;
  @ApiProperty({ example: 'birthDate must be an existing date in YYYY-MM-DD format' }) message!: string;
}

export class BulkImportJobDto implements BulkImportJob {
  @ApiProperty({ example: 'BulkUploadJob:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ enum: BULK_IMPORT_STATUSES, example: 'COMPLETED' }) status!: BulkImportStatus;
  @ApiPropertyOptional({ example: 'customers.csv' }) fileName?: string;
  @ApiProperty({ type: BulkImportProgressDto }) progress!: BulkImportProgressDto;
  @ApiProperty({ type: [BulkImportRowErrorDto], description: 'Per-row errors (first 1000)' }) errors!: BulkImportRowErrorDto[];
  @ApiProperty({ description: 'Number of row errors in all', example: 2 }) errorCount!: number;
  @ApiPropertyOptional({ description: 'Why a FAILED job stopped (malformed CSV, not UTF-8, too large, bad header)', example: 'Invalid CSV at row 12: quote not closed' })
  failure?: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:05.000Z' }) updatedAt!: string;
  @ApiPropertyOptional({ example: '2025-10-13T12:00:05.000Z' }) completedAt?: string;
}
