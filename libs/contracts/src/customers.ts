import { PageQuery } from './common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  buildMessage,
} from 'class-validator';
import { FieldError } from '@paykit/errors';
import { CrossFieldRules, IsCalendarDate, IsCountryCode, IsE164Phone, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Page } from './common';
import { UpdateWebhookConfigRequest } from './webhooks';
import { SignedRetryInput, SignedRetryOutcome } from './wallet-auth';

// ---- Subjects (wire values: frozen) ----
export const CUSTOMERS_SUBJECTS = {
  createCustomer: 'customers.customer.create',
  getCustomer: 'customers.customer.get',
  listCustomers: 'customers.customer.list',
  updateCustomer: 'customers.customer.update',
  /** For other services' flows: 400 MISSING_MANDATORY_USER_INFO unless the customer may transact in a currency. */
  checkRequirements: 'customers.customer.requirements.check',
  getConfig: 'customers.config.get',
  /** Operator-only (no HTTP route): regulated flag and UMA domain of a platform. */
  updateConfig: 'customers.config.update',
  createVerification: 'customers.verification.create',
  sendContactCode: 'customers.contact-code.send',
  confirmContactCode: 'customers.contact-code.confirm',
  createKycLink: 'customers.kyc-link.create',
  openKycLink: 'customers.kyc-link.open',
  completeKycLink: 'customers.kyc-link.complete',
  createBeneficialOwner: 'customers.beneficial-owner.create',
  getBeneficialOwner: 'customers.beneficial-owner.get',
  listBeneficialOwners: 'customers.beneficial-owner.list',
  startDocumentUpload: 'customers.document.start-upload',
  appendDocumentChunk: 'customers.document.append-chunk',
  completeDocumentUpload: 'customers.document.complete-upload',
  getDocument: 'customers.document.get',
  listDocuments: 'customers.document.list',
  startBulkImport: 'customers.bulk-import.start',
  appendBulkImportRows: 'customers.bulk-import.append-rows',
  finishBulkImport: 'customers.bulk-import.finish',
  getBulkImport: 'customers.bulk-import.get',
} as const;

export const CUSTOMERS_EVENTS = {
  customerCreated: 'customers.events.customer.created',
  customerUpdated: 'customers.events.customer.updated',
  kycStatusChanged: 'customers.events.customer.kyc-status-changed',
  contactVerified: 'customers.events.customer.contact-verified',
  beneficialOwnerCreated: 'customers.events.beneficial-owner.created',
  documentReviewed: 'customers.events.document.reviewed',
  bulkImportFinished: 'customers.events.bulk-import.finished',
} as const;

/** Webhook event types announced to the platform (spec "Events"; bulk names are ours). Wire values: frozen. */
export const CUSTOMER_WEBHOOK_TYPES = {
  KYC: { PENDING: 'CUSTOMER.KYC_PENDING', APPROVED: 'CUSTOMER.KYC_APPROVED', REJECTED: 'CUSTOMER.KYC_REJECTED' },
  KYB: { PENDING: 'CUSTOMER.KYB_PENDING', APPROVED: 'CUSTOMER.KYB_APPROVED', REJECTED: 'CUSTOMER.KYB_REJECTED' },
  BULK_UPLOAD_COMPLETED: 'BULK_UPLOAD.COMPLETED',
  BULK_UPLOAD_FAILED: 'BULK_UPLOAD.FAILED',
} as const;

// ---- Enumerations of the spec (and the values we chose where the spec shows only some) ----
export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export const KYC_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export const VERIFICATION_STATUSES = ['IN_PROGRESS', 'REJECTED', 'RESOLVE_ERRORS'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const CONTACT_CHANNELS = ['email', 'phone'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];
export const CONTACT_VERIFICATION_STATUSES = ['PENDING', 'VERIFIED'] as const;
export type ContactVerificationStatus = (typeof CONTACT_VERIFICATION_STATUSES)[number];

export const SOURCE_OF_WEALTH_CATEGORIES = [
  'SALARY',
  'BUSINESS_INCOME',
  'INVESTMENTS',
  'SAVINGS',
  'INHERITANCE',
  'PENSION',
  'GIFT',
  'SALE_OF_PROPERTY',
  'OTHER',
] as const;
export type SourceOfWealthCategory = (typeof SOURCE_OF_WEALTH_CATEGORIES)[number];
export const PURPOSES_OF_ACCOUNT = [
  'P2P_TRANSFERS',
  'REMITTANCES',
  'PAYROLL',
  'BILL_PAYMENTS',
  'ONLINE_PURCHASES',
  'INVESTMENTS',
  'SAVINGS',
  'BUSINESS_PAYMENTS',
  'OTHER',
] as const;
export type PurposeOfAccount = (typeof PURPOSES_OF_ACCOUNT)[number];
export const ANNUAL_INCOME_RANGES = ['RANGE_0_25K', 'RANGE_25K_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'RANGE_OVER_1M'] as const;
export type AnnualIncomeRange = (typeof ANNUAL_INCOME_RANGES)[number];
/** The enhanced due diligence fields; a verification reports a missing one as `edd.<field>`. */
export const EDD_FIELDS = ['sourceOfWealthCategories', 'purposeOfAccount', 'annualIncomeRange'] as const;
export type EddField = (typeof EDD_FIELDS)[number];

export const BENEFICIAL_OWNER_ROLES = ['BENEFICIAL_OWNER', 'DIRECTOR', 'OFFICER'] as const;
export type BeneficialOwnerRole = (typeof BENEFICIAL_OWNER_ROLES)[number];

export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'SHAREHOLDER_REGISTER',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];
/** Largest document accepted, in bytes. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** A document travels to the service in chunks of at most this many bytes (NATS messages stay small). */
export const DOCUMENT_CHUNK_BYTES = 256 * 1024;
export const DOCUMENT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** The spec's document rejection reasons (each also a 400 error code). */
export const DOCUMENT_REJECTION_REASONS = ['LOW_QUALITY', 'DATA_MISMATCH', 'EXPIRED', 'SUSPECTED_FRAUD', 'UNSUITABLE_DOCUMENT', 'INCOMPLETE'] as const;
export type DocumentRejectionReason = (typeof DOCUMENT_REJECTION_REASONS)[number];

export const BULK_IMPORT_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type BulkImportStatus = (typeof BULK_IMPORT_STATUSES)[number];
/** Bulk CSV uploads must be smaller than this (spec: under 100 MB). */
export const BULK_CSV_MAX_BYTES = 100 * 1024 * 1024;
/** Columns a bulk CSV may have (header row, any order); nested fields by dot path; `sourceOfWealthCategories` separated by `;`. */
export const BULK_CSV_COLUMNS = [
  'customerType',
  'platformCustomerId',
  'fullName',
  'birthDate',
  'nationality',
  'email',
  'phoneNumber',
  'address.line1',
  'address.line2',
  'address.city',
  'address.state',
  'address.postalCode',
  'address.country',
  'businessInfo.legalName',
  'businessInfo.registrationNumber',
  'businessInfo.taxId',
  'umaAddress',
  'sourceOfWealthCategories',
  'purposeOfAccount',
  'annualIncomeRange',
] as const;
/** Rows per message from the gateway's CSV stream to the customers service. */
export const BULK_ROWS_PER_BATCH = 500;

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, disallow_auth: true, allow_underscores: true };

// ---- Request payloads (validated by the gateway and again by the service) ----
export class AddressInput {
  @ApiProperty({ description: 'Street address, first line', example: '1 Market St' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  line1!: string;

  @ApiPropertyOptional({ description: 'Street address, second line', example: 'Suite 400' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line2?: string;

  @ApiProperty({ description: 'City', example: 'San Francisco' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  city!: string;

  @ApiPropertyOptional({ description: 'State, province or region', example: 'CA' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  state?: string;

  @ApiProperty({ description: 'Postal code', example: '94105' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  postalCode!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country', example: 'US' })
  @IsCountryCode()
  country!: string;
}

export class BusinessInfoInput {
  @ApiProperty({ description: 'Registered legal name', example: 'Acme Payments LLC' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  legalName!: string;

  @ApiPropertyOptional({ description: 'Company registration number; its last 3 digits drive sandbox KYB', example: 'REG-000123' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  registrationNumber?: string;

  @ApiPropertyOptional({ description: 'Tax identifier', example: '12-3456789' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  taxId?: string;
}

/** Every customer field a platform may set, on create and on update (all optional here). */
export class CustomerFieldsInput {
  @ApiPropertyOptional({ description: "Platform's own id for the customer; generated when omitted; several customers may share one", example: 'user-8812' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformCustomerId?: string;

  @ApiPropertyOptional({ description: 'Full legal name (individuals); its last 3 characters drive sandbox KYC', example: 'Ada Lovelace' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  fullName?: string;

  @ApiPropertyOptional({ description: 'Date of birth, YYYY-MM-DD (an existing date)', example: '1990-04-12' })
  @IsOptional()
  @IsCalendarDate()
  birthDate?: string;

  @ApiPropertyOptional({ description: 'Nationality, ISO 3166-1 alpha-2', example: 'GB' })
  @IsOptional()
  @IsCountryCode()
  nationality?: string;

  @ApiPropertyOptional({ description: 'Email address (stored lowercase)', example: 'ada@example.com' })
  @IsOptional()
  @IsEmail({}, { context: { constraint: { format: 'email' } } })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ description: 'Phone number in E.164 format', example: '+14155550123' })
  @IsOptional()
  @IsE164Phone()
  phoneNumber?: string;

  @ApiPropertyOptional({ type: AddressInput, description: 'Residential or registered address' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressInput)
  address?: AddressInput;

  @ApiPropertyOptional({ type: BusinessInfoInput, description: 'Business details (BUSINESS customers only)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => BusinessInfoInput)
  businessInfo?: BusinessInfoInput;

  @ApiPropertyOptional({
    description:
      "UMA address `$<username>@<domain>`: username of `a-z0-9-_.+`, at most 64 characters including `$`, case-insensitive (stored lowercase); domain = the platform's UMA domain (GET /config). Otherwise 400 INVALID_UMA_ADDRESS.",
    example: '$ada@p-1f2d3c4b5a.uma.sandbox.paykit.dev',
  })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  umaAddress?: string;

  @ApiPropertyOptional({ enum: SOURCE_OF_WEALTH_CATEGORIES, isArray: true, description: 'Enhanced due diligence: sources of wealth', example: ['SALARY'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SOURCE_OF_WEALTH_CATEGORIES.length)
  @ArrayUnique()
  @IsOneOf(SOURCE_OF_WEALTH_CATEGORIES, { each: true })
  sourceOfWealthCategories?: SourceOfWealthCategory[];

  @ApiPropertyOptional({ enum: PURPOSES_OF_ACCOUNT, description: 'Enhanced due diligence: purpose of the account', example: 'P2P_TRANSFERS' })
  @IsOptional()
  @IsOneOf(PURPOSES_OF_ACCOUNT)
  purposeOfAccount?: PurposeOfAccount;

  @ApiPropertyOptional({ enum: ANNUAL_INCOME_RANGES, description: 'Enhanced due diligence: annual income range', example: 'RANGE_100K_250K' })
  @IsOptional()
  @IsOneOf(ANNUAL_INCOME_RANGES)
  annualIncomeRange?: AnnualIncomeRange;
}

/** The type rules shared by create and update: business data only on BUSINESS customers, and vice versa. */
export function customerShapeErrors(customerType: unknown, fields: CustomerFieldsInput, requireBusinessInfo: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (customerType === 'BUSINESS') {
    if (requireBusinessInfo && fields.businessInfo === undefined) errors.push({ field: 'businessInfo', message: 'businessInfo is required for BUSINESS customers' });
    for (const field of ['fullName', 'birthDate', 'nationality'] as const) {
      if (fields[field] !== undefined) errors.push({ field, message: `${field} is only accepted for INDIVIDUAL customers (use businessInfo)` });
    }
  }
  if (customerType === 'INDIVIDUAL' && fields.businessInfo !== undefined) {
    errors.push({ field: 'businessInfo', message: 'businessInfo is only accepted for BUSINESS customers' });
  }
  return errors;
}

export class CreateCustomerRequest extends CustomerFieldsInput implements CrossFieldRules {
  @ApiProperty({ enum: CUSTOMER_TYPES, description: 'Individual or business customer', example: 'INDIVIDUAL' })
  @IsOneOf(CUSTOMER_TYPES)
  customerType!: CustomerType;

  crossFieldErrors(): FieldError[] {
    return customerShapeErrors(this.customerType, this, true);
  }
}

/** PATCH body: the customer's type (must match) and the fields to change. */
export class UpdateCustomerBody extends CustomerFieldsInput implements CrossFieldRules {
  @ApiProperty({ enum: CUSTOMER_TYPES, description: "The customer's type; must equal the stored one", example: 'INDIVIDUAL' })
  @IsOneOf(CUSTOMER_TYPES)
  customerType!: CustomerType;

  crossFieldErrors(): FieldError[] {
    return customerShapeErrors(this.customerType, this, false);
  }
}

export class UpdateCustomerRequest {
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @ValidateNested()
  @Type(() => UpdateCustomerBody)
  changes!: UpdateCustomerBody;

  /** The signed retry of the HTTP request: changing an email tied to EMAIL_OTP credentials is a signed action. */
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

export class GetCustomerRequest {
  @ApiProperty({ description: 'Customer id', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  customerId!: string;
}

/** Query of `GET /customers`. */
export class ListCustomersRequest extends PageQuery {
  @ApiPropertyOptional({ enum: CUSTOMER_TYPES, example: 'INDIVIDUAL' })
  @IsOptional()
  @IsOneOf(CUSTOMER_TYPES)
  customerType?: CustomerType;

  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Individuals with this KYC status', example: 'APPROVED' })
  @IsOptional()
  @IsOneOf(KYC_STATUSES)
  kycStatus?: KycStatus;

  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Businesses with this KYB status', example: 'PENDING' })
  @IsOptional()
  @IsOneOf(KYC_STATUSES)
  kybStatus?: KycStatus;

  @ApiPropertyOptional({ description: 'Customers with this platform id (several may share one)', example: 'user-8812' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformCustomerId?: string;

  @ApiPropertyOptional({ description: 'Created at or after this instant (ISO 8601)', example: '2025-10-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  createdAfter?: string;

  @ApiPropertyOptional({ description: 'Created before this instant (ISO 8601)', example: '2025-11-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  createdBefore?: string;
}

export class CheckRequirementsRequest {
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @IsString()
  @MatchesPattern(/^[A-Z0-9]{3,5}$/, 'a currency code (e.g. USD)')
  currencyCode!: string;
}

export class UpdatePlatformConfigRequest {
  @IsOptional()
  @IsBoolean()
  regulated?: boolean;

  @IsOptional()
  @MatchesPattern(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a lowercase domain name')
  umaDomain?: string;

  /** New customers with an email get an EMBEDDED_WALLET (USDC); turning it off leaves existing wallets. */
  @ValidateIf((o: UpdatePlatformConfigRequest) => o.embeddedWalletsEnabled !== undefined)
  @IsBoolean()
  embeddedWalletsEnabled?: boolean;
}

/**
 * Body of `PATCH /config`: each field goes to the service that owns it (the webhook endpoint
 * to webhooks, the rest to customers). Operator settings (`regulated`, `umaDomain`) have no HTTP route.
 */
export class UpdateConfigRequest extends UpdateWebhookConfigRequest {
  @ApiPropertyOptional({
    description: 'Whether new customers with an email get an EMBEDDED_WALLET (USDC) internal account (default true); existing wallets stay when turned off',
    example: false,
  })
  @ValidateIf((o: UpdateConfigRequest) => o.embeddedWalletsEnabled !== undefined)
  @IsBoolean()
  embeddedWalletsEnabled?: boolean;
}

export class CreateVerificationRequest {
  @ApiProperty({ description: 'The customer to verify', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  customerId!: string;
}

export class ContactCodeRequest {
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @IsOneOf(CONTACT_CHANNELS)
  channel!: ContactChannel;
}

/** Body of `verify-email/confirm` and `verify-phone/confirm`. */
export class ContactCodeBody {
  @ApiProperty({ description: 'The one-time code sent to the channel (sandbox: always `000000`)', example: '000000' })
  @IsString()
  @MatchesPattern(/^\d{6}$/, 'a 6-digit code')
  code!: string;
}

export class ConfirmContactCodeRequest extends ContactCodeRequest {
  @IsString()
  @MatchesPattern(/^\d{6}$/, 'a 6-digit code')
  code!: string;
}

/** Body of `POST /customers/{customerId}/kyc-link`. */
export class KycLinkBody {
  @ApiProperty({ description: 'Where the hosted page sends the customer when verification is done', example: 'https://platform.example/onboarding/done' })
  @IsUrl(HTTP_URL, { context: { constraint: { format: 'url' } } })
  @MaxLength(2000)
  redirectUri!: string;
}

export class CreateKycLinkRequest extends KycLinkBody {
  @IsString()
  @IsNotEmpty()
  customerId!: string;
}

export class KycLinkTokenRequest {
  @IsString()
  @MatchesPattern(/^[A-Za-z0-9_-]{20,100}$/, 'a KYC link token')
  token!: string;
}

/** What the hosted page submits: the token and, when the customer lacks them, the EDD answers. */
export class CompleteKycLinkRequest extends KycLinkTokenRequest {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsOneOf(SOURCE_OF_WEALTH_CATEGORIES, { each: true })
  sourceOfWealthCategories?: SourceOfWealthCategory[];

  @IsOptional()
  @IsOneOf(PURPOSES_OF_ACCOUNT)
  purposeOfAccount?: PurposeOfAccount;

  @IsOptional()
  @IsOneOf(ANNUAL_INCOME_RANGES)
  annualIncomeRange?: AnnualIncomeRange;
}

export class PersonalInfoInput {
  @ApiProperty({ description: 'Given name(s)', example: 'Grace' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName!: string;

  @ApiProperty({ description: 'Family name; its last 3 characters drive sandbox KYC of the owner', example: 'Hopper' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName!: string;

  @ApiProperty({ description: 'Date of birth, YYYY-MM-DD', example: '1976-12-09' })
  @IsCalendarDate()
  birthDate!: string;

  @ApiProperty({ description: 'Nationality, ISO 3166-1 alpha-2', example: 'US' })
  @IsCountryCode()
  nationality!: string;

  @ApiPropertyOptional({ description: 'Email address', example: 'grace@acme.example' })
  @IsOptional()
  @IsEmail({}, { context: { constraint: { format: 'email' } } })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ description: 'Phone number in E.164 format', example: '+14155550188' })
  @IsOptional()
  @IsE164Phone()
  phoneNumber?: string;

  @ApiPropertyOptional({ type: AddressInput, description: 'Residential address' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressInput)
  address?: AddressInput;

  @ApiPropertyOptional({ description: 'Job title (directors and officers)', example: 'Chief Executive Officer' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  title?: string;
}

export class CreateBeneficialOwnerRequest {
  @ApiProperty({ description: 'The BUSINESS customer the person belongs to', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @ApiProperty({ enum: BENEFICIAL_OWNER_ROLES, isArray: true, description: "The person's roles in the business", example: ['BENEFICIAL_OWNER', 'DIRECTOR'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsOneOf(BENEFICIAL_OWNER_ROLES, { each: true })
  roles!: BeneficialOwnerRole[];

  @ApiPropertyOptional({ description: 'Ownership share in percent, 0 to 100 (beneficial owners)', example: 25 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  ownershipPercentage?: number;

  @ApiProperty({ type: PersonalInfoInput })
  @ValidateNested()
  @Type(() => PersonalInfoInput)
  personalInfo!: PersonalInfoInput;
}

export class GetBeneficialOwnerRequest {
  @IsString()
  @IsNotEmpty()
  beneficialOwnerId!: string;
}

export class ListBeneficialOwnersRequest extends PageQuery {
  @ApiPropertyOptional({ description: 'Only the people of this business customer', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  customerId?: string;
}

export class StartDocumentUploadRequest {
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  beneficialOwnerId?: string;

  @IsOneOf(DOCUMENT_TYPES)
  documentType!: DocumentType;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  fileName!: string;

  @IsOneOf(DOCUMENT_CONTENT_TYPES)
  contentType!: DocumentContentType;
}

export class AppendDocumentChunkRequest {
  @IsString()
  @IsNotEmpty()
  documentId!: string;

  @IsInt()
  @Min(0)
  index!: number;

  /** Base64 of at most DOCUMENT_CHUNK_BYTES bytes. */
  @IsString()
  @IsNotEmpty()
  data!: string;
}

export class CompleteDocumentUploadRequest {
  @IsString()
  @IsNotEmpty()
  documentId!: string;

  @IsInt()
  @Min(0)
  chunks!: number;
}

export class GetDocumentRequest {
  @IsString()
  @IsNotEmpty()
  documentId!: string;
}

export class ListDocumentsRequest extends PageQuery {
  @ApiPropertyOptional({ description: 'Only documents of this customer', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  customerId?: string;
}

export class StartBulkImportRequest {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  fileName?: string;
}

/** Each element an array of strings: the cells of a CSV record. */
function IsCsvRecords(): PropertyDecorator {
  return ValidateBy({
    name: 'isCsvRecords',
    validator: {
      validate: (value) => Array.isArray(value) && value.every((cells) => Array.isArray(cells) && cells.every((cell) => typeof cell === 'string')),
      defaultMessage: buildMessage(() => '$property must be an array of records, each an array of strings'),
    },
  });
}

/**
 * A batch of consecutive records of the file: `rows[i]` holds the cells of row `firstRow + i`
 * (the header is row 1). Records are plain string arrays, not an object each: a message carries
 * hundreds of them, and validating as many nested objects cost more than importing the rows.
 */
export class AppendBulkImportRowsRequest {
  @IsString()
  @IsNotEmpty()
  jobId!: string;

  /** The file's header row, sent with every batch so each batch stands alone. */
  @IsArray()
  @IsString({ each: true })
  columns!: string[];

  @IsInt()
  @Min(2)
  firstRow!: number;

  @ArrayMaxSize(5000)
  @IsCsvRecords()
  rows!: string[][];
}

export class FinishBulkImportRequest {
  @IsString()
  @IsNotEmpty()
  jobId!: string;

  /** Set when the file could not be read to the end (malformed CSV, too large, not UTF-8). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  failure?: string;
}

export class GetBulkImportRequest {
  @IsString()
  @IsNotEmpty()
  jobId!: string;
}

// ---- Replies: the resources exactly as the API returns them ----
export interface Address {
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface BusinessInfo {
  legalName: string;
  registrationNumber?: string;
  taxId?: string;
}

export type ContactVerification = Partial<Record<ContactChannel, ContactVerificationStatus>>;

export interface Customer {
  id: string;
  platformCustomerId: string;
  customerType: CustomerType;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  businessInfo?: BusinessInfo;
  umaAddress?: string;
  sourceOfWealthCategories?: SourceOfWealthCategory[];
  purposeOfAccount?: PurposeOfAccount;
  annualIncomeRange?: AnnualIncomeRange;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  /** Present only when the customer's provider requires contact verification; only required channels. */
  contactVerification?: ContactVerification;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerRequirements {
  customerId: string;
  currencyCode: string;
  customerType: CustomerType;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
}

export interface SupportedCurrency {
  currencyCode: string;
  providerRequiredCustomerFields: string[];
}

/** The customers service's part of `GET /config`. */
export interface CustomersPlatformConfig {
  umaDomain: string;
  regulated: boolean;
  supportedCurrencies: SupportedCurrency[];
  /** New customers with an email get an embedded wallet (where USDC is supported); default true. */
  embeddedWalletsEnabled: boolean;
}

export interface VerificationError {
  code: 'MISSING_FIELD';
  field: string;
  message: string;
}

export interface Verification {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  errors?: VerificationError[];
  createdAt: string;
}

export interface ContactCodeSent {
  customerId: string;
  channel: ContactChannel;
  status: ContactVerificationStatus;
  expiresAt: string;
  /** Re-sending before this instant answers 429 with Retry-After. */
  resendAvailableAt: string;
}

/** The service's half of a KYC link; the gateway adds `kycUrl` (it knows its public address). */
export interface KycLinkIssued {
  customerId: string;
  token: string;
  expiresAt: string;
}

export const KYC_LINK_STATES = ['ACTIVE', 'USED', 'EXPIRED'] as const;
export type KycLinkState = (typeof KYC_LINK_STATES)[number];

/** What the hosted page shows for a link. */
export interface KycLinkView {
  state: KycLinkState;
  customerType: CustomerType;
  displayName: string;
  redirectUri: string;
  expiresAt: string;
  /** EDD answers the page must collect before the verification can pass. */
  missingEddFields: EddField[];
}

export interface KycLinkCompletion {
  redirectUri: string;
  verification: Verification;
}

export interface PersonalInfo {
  firstName: string;
  lastName: string;
  birthDate: string;
  nationality: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  title?: string;
}

export interface BeneficialOwner {
  id: string;
  customerId: string;
  roles: BeneficialOwnerRole[];
  ownershipPercentage?: number;
  personalInfo: PersonalInfo;
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerDocument {
  id: string;
  customerId: string;
  beneficialOwnerId?: string;
  documentType: DocumentType;
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  sha256: string;
  status: DocumentStatus;
  rejectionReason?: DocumentRejectionReason;
  createdAt: string;
  updatedAt: string;
}

export interface DocumentUploadStarted {
  documentId: string;
  maxBytes: number;
  chunkBytes: number;
}

export interface BulkImportRowError {
  row: number;
  field: string;
  message: string;
}

export interface BulkImportJob {
  id: string;
  status: BulkImportStatus;
  fileName?: string;
  progress: { processedRows: number; successfulRows: number; failedRows: number };
  /** Per-row problems, first 1000 (`errorCount` has them all). */
  errors: BulkImportRowError[];
  errorCount: number;
  failure?: string;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
}

export interface BulkRowsProcessed {
  processedRows: number;
  successfulRows: number;
  failedRows: number;
  /** The service refused the batch's columns and failed the job: stop sending. */
  jobFailed?: string;
}

export interface CustomersContract {
  [CUSTOMERS_SUBJECTS.createCustomer]: { request: CreateCustomerRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.getCustomer]: { request: GetCustomerRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.listCustomers]: { request: ListCustomersRequest; reply: Page<Customer> };
  [CUSTOMERS_SUBJECTS.updateCustomer]: { request: UpdateCustomerRequest; reply: SignedRetryOutcome<Customer> };
  [CUSTOMERS_SUBJECTS.checkRequirements]: { request: CheckRequirementsRequest; reply: CustomerRequirements };
  [CUSTOMERS_SUBJECTS.getConfig]: { request: Record<string, never>; reply: CustomersPlatformConfig };
  [CUSTOMERS_SUBJECTS.updateConfig]: { request: UpdatePlatformConfigRequest; reply: CustomersPlatformConfig };
  [CUSTOMERS_SUBJECTS.createVerification]: { request: CreateVerificationRequest; reply: Verification };
  [CUSTOMERS_SUBJECTS.sendContactCode]: { request: ContactCodeRequest; reply: ContactCodeSent };
  [CUSTOMERS_SUBJECTS.confirmContactCode]: { request: ConfirmContactCodeRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.createKycLink]: { request: CreateKycLinkRequest; reply: KycLinkIssued };
  [CUSTOMERS_SUBJECTS.openKycLink]: { request: KycLinkTokenRequest; reply: KycLinkView };
  [CUSTOMERS_SUBJECTS.completeKycLink]: { request: CompleteKycLinkRequest; reply: KycLinkCompletion };
  [CUSTOMERS_SUBJECTS.createBeneficialOwner]: { request: CreateBeneficialOwnerRequest; reply: BeneficialOwner };
  [CUSTOMERS_SUBJECTS.getBeneficialOwner]: { request: GetBeneficialOwnerRequest; reply: BeneficialOwner };
  [CUSTOMERS_SUBJECTS.listBeneficialOwners]: { request: ListBeneficialOwnersRequest; reply: Page<BeneficialOwner> };
  [CUSTOMERS_SUBJECTS.startDocumentUpload]: { request: StartDocumentUploadRequest; reply: DocumentUploadStarted };
  [CUSTOMERS_SUBJECTS.appendDocumentChunk]: { request: AppendDocumentChunkRequest; reply: { received: number } };
  [CUSTOMERS_SUBJECTS.completeDocumentUpload]: { request: CompleteDocumentUploadRequest; reply: CustomerDocument };
  [CUSTOMERS_SUBJECTS.getDocument]: { request: GetDocumentRequest; reply: CustomerDocument };
  [CUSTOMERS_SUBJECTS.listDocuments]: { request: ListDocumentsRequest; reply: Page<CustomerDocument> };
  [CUSTOMERS_SUBJECTS.startBulkImport]: { request: StartBulkImportRequest; reply: BulkImportJob };
  [CUSTOMERS_SUBJECTS.appendBulkImportRows]: { request: AppendBulkImportRowsRequest; reply: BulkRowsProcessed };
  [CUSTOMERS_SUBJECTS.finishBulkImport]: { request: FinishBulkImportRequest; reply: BulkImportJob };
  [CUSTOMERS_SUBJECTS.getBulkImport]: { request: GetBulkImportRequest; reply: BulkImportJob };
}
