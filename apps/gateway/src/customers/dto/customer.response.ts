import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Address,
  ANNUAL_INCOME_RANGES,
  AnnualIncomeRange,
  BULK_IMPORT_STATUSES,
  BulkImportErrorEntry,
  BulkImportJob,
  BulkImportStatus,
  BUSINESS_SOURCE_OF_FUNDS_CATEGORIES,
  BUSINESS_TYPES,
  BusinessInfo,
  BusinessSourceOfFundsCategory,
  BusinessType,
  END_USER_TERMS_ACCEPTANCE_METHODS,
  EndUserTerms,
  EndUserTermsAcceptanceMethod,
  EndUserTermsConsent,
  ENTITY_TYPES,
  EntityType,
  EXPECTED_MONTHLY_TRANSACTION_COUNTS,
  EXPECTED_MONTHLY_TRANSACTION_VOLUMES,
  ExpectedMonthlyTransactionCount,
  ExpectedMonthlyTransactionVolume,
  ID_TYPES,
  IdType,
  INDIVIDUAL_SOURCE_OF_FUNDS_CATEGORIES,
  IndividualSourceOfFundsCategory,
  KYC_PROVIDERS,
  KycProvider,
  NET_WORTH_RANGES,
  NetWorthRange,
  PEP_STATUSES,
  PepStatus,
  CONTACT_CHANNELS,
  CONTACT_VERIFICATION_STATUSES,
  ContactChannel,
  ContactCodeSent,
  ContactVerification,
  ContactVerificationStatus,
  Customer,
  CustomerProvisioning,
  CUSTOMER_TYPES,
  PROVISIONING_PART_STATUSES,
  PROVISIONING_STATUSES,
  ProvisioningPartStatus,
  ProvisioningStatus,
  CustomerType,
  KYC_STATUSES,
  KycStatus,
  Page,
  PurposeOfAccount,
  PURPOSES_OF_ACCOUNT,
  SOURCE_OF_WEALTH_CATEGORIES,
  SourceOfWealthCategory,
} from '@paykit/contracts';

type BulkImportJobProgress = BulkImportJob['progress'];

/** OpenAPI description of the Customer resource (the reply is passed through as the service shaped it). */
export class AddressDto implements Address {
  @ApiProperty({ example: '1 Market St' }) line1!: string;
  @ApiPropertyOptional({ example: 'Suite 400' }) line2?: string;
  @ApiPropertyOptional({ example: 'San Francisco' }) city?: string;
  @ApiPropertyOptional({ example: 'CA' }) state?: string;
  @ApiProperty({ example: '94105' }) postalCode!: string;
  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2' }) country!: string;
}

export class BusinessInfoDto implements BusinessInfo {
  @ApiProperty({ example: 'Acme Payments LLC' }) legalName!: string;
  @ApiPropertyOptional({ example: 'Acme Pay' }) doingBusinessAs?: string;
  @ApiPropertyOptional({ description: 'Country of incorporation', example: 'US' }) country?: string;
  @ApiPropertyOptional({ example: 'REG-000123' }) registrationNumber?: string;
  @ApiPropertyOptional({ format: 'date', example: '2019-03-14' }) incorporatedOn?: string;
  @ApiPropertyOptional({ enum: ENTITY_TYPES, example: 'LLC' }) entityType?: EntityType;
  @ApiPropertyOptional({ example: '12-3456789' }) taxId?: string;
  @ApiPropertyOptional({ type: [String], example: ['US'] }) countriesOfOperation?: string[];
  @ApiPropertyOptional({ enum: BUSINESS_TYPES, example: 'FINANCE_AND_INSURANCE' }) businessType?: BusinessType;
  @ApiPropertyOptional({ enum: PURPOSES_OF_ACCOUNT, example: 'SUPPLIER_PAYMENTS' }) purposeOfAccount?: PurposeOfAccount;
  @ApiPropertyOptional({ example: 'Revenue from software subscriptions' }) sourceOfFunds?: string;
  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_COUNTS, example: 'COUNT_100_TO_500' }) expectedMonthlyTransactionCount?: ExpectedMonthlyTransactionCount;
  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_VOLUMES, example: 'VOLUME_100K_TO_1M' }) expectedMonthlyTransactionVolume?: ExpectedMonthlyTransactionVolume;
  @ApiPropertyOptional({ type: [String], example: ['MX'] }) expectedRecipientJurisdictions?: string[];
  @ApiPropertyOptional({ example: '522320' }) naicsCode?: string;
  @ApiPropertyOptional({ enum: BUSINESS_SOURCE_OF_FUNDS_CATEGORIES, isArray: true, example: ['OPERATING_REVENUE'] }) sourceOfFundsCategories?: BusinessSourceOfFundsCategory[];
  @ApiPropertyOptional({ example: 'Grant funding' }) sourceOfFundsOtherDescription?: string;
  @ApiPropertyOptional({ example: 'Escrow for property deals' }) purposeOfAccountOtherDescription?: string;
  @ApiPropertyOptional({ type: [String], example: ['MX', 'BR'] }) expectedCounterpartyCountries?: string[];
  @ApiPropertyOptional({ example: 'Grace' }) primaryContactFirstName?: string;
  @ApiPropertyOptional({ example: 'Hopper' }) primaryContactLastName?: string;
}

export class EndUserTermsConsentDto implements EndUserTermsConsent {
  @ApiProperty({ format: 'date-time', example: '2025-10-01T12:00:00Z' }) acceptedAt!: string;
  @ApiProperty({ example: '203.0.113.7' }) ipAddress!: string;
  @ApiProperty({ example: '2025-10-13' }) termsVersion!: string;
  @ApiProperty({ enum: END_USER_TERMS_ACCEPTANCE_METHODS, example: 'CHECKBOX' }) acceptanceMethod!: EndUserTermsAcceptanceMethod;
}

export class EndUserTermsDto implements EndUserTerms {
  @ApiProperty({ description: 'Version to send as `endUserTermsConsent.termsVersion`', example: '2025-10-13' }) version!: string;
  @ApiProperty({ description: 'Where the terms are published', format: 'uri', example: 'https://api.example/end-user-terms/2025-10-13' }) url!: string;
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
  @ApiProperty({
    description: "UMA address (lowercase); generated as `$<uuid>@<the platform's UMA domain>` when the create omits it",
    example: '$ada@p-1f2d3c4b5a.uma.sandbox.paykit.dev',
  })
  umaAddress!: string;
  @ApiPropertyOptional({ example: 'Ada Lovelace' }) fullName?: string;
  @ApiPropertyOptional({ format: 'date', example: '1990-04-12' }) birthDate?: string;
  @ApiPropertyOptional({ example: 'GB' }) nationality?: string;
  @ApiPropertyOptional({ example: 'ada@example.com' }) email?: string;
  @ApiPropertyOptional({ example: '+14155550123' }) phoneNumber?: string;
  @ApiPropertyOptional({ type: AddressDto }) address?: AddressDto;
  @ApiPropertyOptional({ type: BusinessInfoDto }) businessInfo?: BusinessInfoDto;
  @ApiPropertyOptional({ example: 'CA' }) region?: string;
  @ApiPropertyOptional({ type: [String], example: ['USD'] }) currencies?: string[];
  @ApiPropertyOptional({ type: EndUserTermsConsentDto }) endUserTermsConsent?: EndUserTermsConsentDto;
  @ApiPropertyOptional({ enum: ID_TYPES, description: 'Kind of identifier given (the identifier itself is never returned)', example: 'SSN' }) idType?: IdType;
  @ApiPropertyOptional({ example: 'US' }) countryOfIssuance?: string;
  @ApiPropertyOptional({ enum: INDIVIDUAL_SOURCE_OF_FUNDS_CATEGORIES, isArray: true, description: 'Enhanced due diligence', example: ['SALARY'] })
  sourceOfFundsCategories?: IndividualSourceOfFundsCategory[];
  @ApiPropertyOptional({ description: 'Enhanced due diligence', example: 'Prize winnings' }) sourceOfFundsOtherDescription?: string;
  @ApiPropertyOptional({ enum: SOURCE_OF_WEALTH_CATEGORIES, isArray: true, description: 'Enhanced due diligence', example: ['SALARY'] })
  sourceOfWealthCategories?: SourceOfWealthCategory[];
  @ApiPropertyOptional({ description: 'Enhanced due diligence', example: 'Royalties' }) sourceOfWealthOtherDescription?: string;
  @ApiPropertyOptional({ enum: PURPOSES_OF_ACCOUNT, description: 'Enhanced due diligence', example: 'P2P_TRANSFERS' }) purposeOfAccount?: PurposeOfAccount;
  @ApiPropertyOptional({ description: 'Enhanced due diligence', example: 'Paying tuition abroad' }) purposeOfAccountOtherDescription?: string;
  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_COUNTS, example: 'COUNT_10_TO_100' }) expectedMonthlyTransactionCount?: ExpectedMonthlyTransactionCount;
  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_VOLUMES, example: 'VOLUME_UNDER_10K' }) expectedMonthlyTransactionVolume?: ExpectedMonthlyTransactionVolume;
  @ApiPropertyOptional({ enum: ANNUAL_INCOME_RANGES, description: 'Enhanced due diligence', example: 'RANGE_100K_250K' }) annualIncomeRange?: AnnualIncomeRange;
  @ApiPropertyOptional({ enum: NET_WORTH_RANGES, example: 'RANGE_100K_500K' }) netWorthRange?: NetWorthRange;
  @ApiPropertyOptional({ enum: PEP_STATUSES, example: 'NONE' }) pepStatus?: PepStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Individuals: KYC status', example: 'PENDING' }) kycStatus?: KycStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Businesses: KYB status', example: 'PENDING' }) kybStatus?: KycStatus;
  @ApiPropertyOptional({
    type: ContactVerificationDto,
    description:
      "Only when the customer's provider requires contact verification, with only the required channels (sandbox: email local part ending in `+verify`, phone ending in `0000`)",
  })
  contactVerification?: ContactVerificationDto;
  @ApiProperty({ description: 'Whether the customer has been deleted', example: false }) isDeleted!: boolean;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class CustomerPageDto implements Page<Customer> {
  @ApiProperty({ type: [CustomerResponseDto] }) data!: CustomerResponseDto[];
  @ApiProperty({ description: 'Whether another page follows', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` to get the next page', example: 'Q3VzdG9tZXI6MDE5MGYxYzI' }) nextCursor?: string;
  @ApiProperty({ description: 'Customers matching the filters, all pages', example: 1 }) totalCount!: number;
}

export class ContactCodeSentDto implements ContactCodeSent {
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiProperty({ enum: CONTACT_CHANNELS, example: 'email' }) channel!: ContactChannel;
  @ApiProperty({ enum: CONTACT_VERIFICATION_STATUSES, example: 'PENDING' }) status!: ContactVerificationStatus;
  @ApiProperty({ description: 'The code stops working at this instant (10 minutes)', example: '2025-10-13T12:10:00.000Z' }) expiresAt!: string;
  @ApiProperty({ description: 'A re-send before this instant answers 429 with Retry-After (30 s)', example: '2025-10-13T12:00:30.000Z' }) resendAvailableAt!: string;
}

export class KycLinkResponseDto {
  @ApiProperty({ enum: KYC_PROVIDERS, description: "Who runs the hosted flow: the service's own hosted page", example: 'HOSTED' }) provider!: KycProvider;
  @ApiProperty({ description: 'Single-use hosted verification page; open it in a browser', example: 'https://api.example/kyc/3q2-7wEAAAB5Q0nq6zQ4bM0Yt2KXvq0n7mT9p5b1c2d' })
  kycUrl!: string;
  @ApiProperty({ description: 'The link stops working at this instant (24 hours)', example: '2025-10-14T12:00:00.000Z' }) expiresAt!: string;
  @ApiProperty({ description: 'The link token, for SDK embedding', example: '3q2-7wEAAAB5Q0nq6zQ4bM0Yt2KXvq0n7mT9p5b1c2d' }) token!: string;
}

export class BulkImportProgressDto implements BulkImportJobProgress {
  @ApiProperty({ description: 'Rows read so far (the whole file once the upload is read)', example: 1000 }) total!: number;
  @ApiProperty({ description: 'Rows handled', example: 1000 }) processed!: number;
  @ApiProperty({ description: 'Customers created', example: 998 }) successful!: number;
  @ApiProperty({ description: 'Rows refused', example: 2 }) failed!: number;
  @ApiProperty({
    description:
      'Customers of this job fully provisioned so far (internal accounts and, when they get one, the embedded wallet with its credential: GET /customers/{customerId}/provisioning). ' +
      'The job completes once its rows are read; `ready` reaches `successful` shortly after.',
    example: 998,
  })
  ready!: number;
}

export class CustomerProvisioningDto implements CustomerProvisioning {
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiProperty({ enum: PROVISIONING_STATUSES, description: 'READY once its internal accounts exist and its embedded wallet is READY or NOT_REQUIRED', example: 'READY' })
  status!: ProvisioningStatus;
  @ApiProperty({ enum: ['PENDING', 'READY'], description: 'An internal account per supported currency (and the EMBEDDED_WALLET account when it gets one)', example: 'READY' })
  internalAccounts!: Exclude<ProvisioningPartStatus, 'NOT_REQUIRED'>;
  @ApiProperty({
    enum: PROVISIONING_PART_STATUSES,
    description:
      "The embedded wallet's key and EMAIL_OTP credential; NOT_REQUIRED when the customer gets none (no email, wallets turned off, no USDC); PENDING until the accounts exist",
    example: 'READY',
  })
  embeddedWallet!: ProvisioningPartStatus;
  @ApiPropertyOptional({ description: 'When it became READY', example: '2025-10-13T12:00:00.150Z' }) readyAt?: string;
}

export class BulkImportRowDetailsDto {
  @ApiProperty({ description: 'Record number in the file; the header is row 1', example: 7 }) row!: number;
  @ApiProperty({ description: 'Dot path of the field (empty for a whole-row problem)', example: 'birthDate' }) field!: string;
}

export class BulkImportErrorEntryDto implements BulkImportErrorEntry {
  @ApiProperty({ description: 'The row of the file, `row-<number>` (the header is row 1)', example: 'row-7' }) correlationId!: string;
  @ApiProperty({ example: 400 }) status!: number;
  @ApiProperty({ example: 'INVALID_INPUT' }) code!: string;
  @ApiProperty({ example: 'birthDate must be an existing date in YYYY-MM-DD format' }) message!: string;
  @ApiProperty({ type: BulkImportRowDetailsDto }) details!: BulkImportRowDetailsDto;
}

export class BulkImportJobDto implements BulkImportJob {
  @ApiProperty({ example: 'BulkUploadJob:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: 'Same as `id`', example: 'BulkUploadJob:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) jobId!: string;
  @ApiProperty({ enum: BULK_IMPORT_STATUSES, example: 'COMPLETED' }) status!: BulkImportStatus;
  @ApiPropertyOptional({ example: 'customers.csv' }) fileName?: string;
  @ApiProperty({ type: BulkImportProgressDto }) progress!: BulkImportProgressDto;
  @ApiProperty({ type: [BulkImportErrorEntryDto], description: 'Per-row errors (first 1000)' }) errors!: BulkImportErrorEntryDto[];
  @ApiProperty({ description: 'Number of row errors in all', example: 2 }) errorCount!: number;
  @ApiPropertyOptional({ description: 'Why a FAILED job stopped (malformed CSV, not UTF-8, too large, bad header)', example: 'Invalid CSV at row 12: quote not closed' })
  failure?: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:05.000Z' }) updatedAt!: string;
  @ApiPropertyOptional({ example: '2025-10-13T12:00:05.000Z' }) completedAt?: string;
}
