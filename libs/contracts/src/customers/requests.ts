import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { FieldError } from '@paykit/errors';
import { CrossFieldRules, IsCalendarDate, IsCountryCode, IsE164Phone, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Length,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQuery } from '../common';
import { PlatformSettingsInput } from './config-requests';
import { SignedRetryInput } from '../wallet-auth';
import { UpdateWebhookConfigRequest } from '../webhooks';
import {
  ANNUAL_INCOME_RANGES,
  AnnualIncomeRange,
  BUSINESS_SOURCE_OF_FUNDS_CATEGORIES,
  BUSINESS_TYPES,
  BusinessSourceOfFundsCategory,
  BusinessType,
  END_USER_TERMS_ACCEPTANCE_METHODS,
  EndUserTermsAcceptanceMethod,
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
  NET_WORTH_RANGES,
  NetWorthRange,
  PEP_STATUSES,
  PepStatus,
  CUSTOMER_TYPES,
  CustomerType,
  KYC_STATUSES,
  KycStatus,
  PURPOSES_OF_ACCOUNT,
  PurposeOfAccount,
  SOURCE_OF_WEALTH_CATEGORIES,
  SourceOfWealthCategory,
  CUSTOMER_INFO_FIELD_NAMES,
  CustomerInfoFieldName,
} from './enums';

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

  @ApiPropertyOptional({ description: 'City', example: 'San Francisco' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  city?: string;

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

const COUNTRY_LIST = { description: 'ISO 3166-1 alpha-2 countries', example: ['US', 'MX'] };

/** Business details; on create `legalName` is required (checked with the other cross-field rules), on update every field is optional. */
export class BusinessInfoInput {
  @ApiPropertyOptional({ description: 'Registered legal name (required when the customer is created)', example: 'Acme Payments LLC' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  legalName?: string;

  @ApiPropertyOptional({ description: 'Trading name, when it differs from the legal name', example: 'Acme Pay' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  doingBusinessAs?: string;

  @ApiPropertyOptional({ description: 'Country of incorporation, ISO 3166-1 alpha-2', example: 'US' })
  @IsOptional()
  @IsCountryCode()
  country?: string;

  @ApiPropertyOptional({ description: 'Company registration number; its last 3 digits drive sandbox KYB', example: 'REG-000123' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  registrationNumber?: string;

  @ApiPropertyOptional({ description: 'Date of incorporation, YYYY-MM-DD', example: '2019-03-14' })
  @IsOptional()
  @IsCalendarDate()
  incorporatedOn?: string;

  @ApiPropertyOptional({ enum: ENTITY_TYPES, description: 'Legal form of the business', example: 'LLC' })
  @IsOptional()
  @IsOneOf(ENTITY_TYPES)
  entityType?: EntityType;

  @ApiPropertyOptional({ description: 'Tax identifier', example: '12-3456789' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  taxId?: string;

  @ApiPropertyOptional({ type: [String], ...COUNTRY_LIST, description: 'Countries the business operates in (ISO 3166-1 alpha-2)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @IsCountryCode({ each: true })
  countriesOfOperation?: string[];

  @ApiPropertyOptional({ enum: BUSINESS_TYPES, description: 'Industry sector', example: 'FINANCE_AND_INSURANCE' })
  @IsOptional()
  @IsOneOf(BUSINESS_TYPES)
  businessType?: BusinessType;

  @ApiPropertyOptional({ enum: PURPOSES_OF_ACCOUNT, description: 'What the business will use the account for', example: 'SUPPLIER_PAYMENTS' })
  @IsOptional()
  @IsOneOf(PURPOSES_OF_ACCOUNT)
  purposeOfAccount?: PurposeOfAccount;

  @ApiPropertyOptional({ description: 'Free-text description of where the funds come from', example: 'Revenue from software subscriptions' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  sourceOfFunds?: string;

  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_COUNTS, description: 'Expected number of transactions a month', example: 'COUNT_100_TO_500' })
  @IsOptional()
  @IsOneOf(EXPECTED_MONTHLY_TRANSACTION_COUNTS)
  expectedMonthlyTransactionCount?: ExpectedMonthlyTransactionCount;

  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_VOLUMES, description: 'Expected monthly volume (USD equivalent)', example: 'VOLUME_100K_TO_1M' })
  @IsOptional()
  @IsOneOf(EXPECTED_MONTHLY_TRANSACTION_VOLUMES)
  expectedMonthlyTransactionVolume?: ExpectedMonthlyTransactionVolume;

  @ApiPropertyOptional({ type: [String], ...COUNTRY_LIST, description: 'Countries the business expects to pay to (ISO 3166-1 alpha-2)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @IsCountryCode({ each: true })
  expectedRecipientJurisdictions?: string[];

  @ApiPropertyOptional({ description: 'Industry classification code, 2 to 6 digits', example: '522320', pattern: '^\\d{2,6}$' })
  @IsOptional()
  @IsString()
  @MatchesPattern(/^\d{2,6}$/, '2 to 6 digits')
  naicsCode?: string;

  @ApiPropertyOptional({ enum: BUSINESS_SOURCE_OF_FUNDS_CATEGORIES, isArray: true, description: "Categories of the business's sources of funds", example: ['OPERATING_REVENUE'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(BUSINESS_SOURCE_OF_FUNDS_CATEGORIES.length)
  @ArrayUnique()
  @IsOneOf(BUSINESS_SOURCE_OF_FUNDS_CATEGORIES, { each: true })
  sourceOfFundsCategories?: BusinessSourceOfFundsCategory[];

  @ApiPropertyOptional({ description: 'Details when sourceOfFundsCategories includes OTHER (1 to 500 characters)', example: 'Grant funding', minLength: 1, maxLength: 500 })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  sourceOfFundsOtherDescription?: string;

  @ApiPropertyOptional({ description: 'Details when purposeOfAccount is OTHER (1 to 500 characters)', example: 'Escrow for property deals', minLength: 1, maxLength: 500 })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  purposeOfAccountOtherDescription?: string;

  @ApiPropertyOptional({ type: [String], ...COUNTRY_LIST, description: 'Countries of the expected counterparties (ISO 3166-1 alpha-2)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(250)
  @IsCountryCode({ each: true })
  expectedCounterpartyCountries?: string[];

  @ApiPropertyOptional({ description: 'Given name of the primary contact', example: 'Grace', maxLength: 250 })
  @IsOptional()
  @IsString()
  @MaxLength(250)
  primaryContactFirstName?: string;

  @ApiPropertyOptional({ description: 'Family name of the primary contact', example: 'Hopper', maxLength: 250 })
  @IsOptional()
  @IsString()
  @MaxLength(250)
  primaryContactLastName?: string;
}

/** The customer's acceptance of the end user terms (`GET /customers/end-user-terms` gives the current version). */
export class EndUserTermsConsentInput {
  @ApiProperty({ description: 'When the customer accepted the terms (ISO 8601 date-time)', example: '2025-10-01T12:00:00Z', format: 'date-time' })
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  acceptedAt!: string;

  @ApiProperty({ description: 'IP address the customer accepted from (IPv4 or IPv6)', example: '203.0.113.7', maxLength: 45 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(45)
  ipAddress!: string;

  @ApiProperty({ description: 'The terms version accepted; must be a version GET /customers/end-user-terms has published', example: '2025-10-13' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  termsVersion!: string;

  @ApiProperty({ enum: END_USER_TERMS_ACCEPTANCE_METHODS, description: 'How the customer accepted', example: 'CHECKBOX' })
  @IsOneOf(END_USER_TERMS_ACCEPTANCE_METHODS)
  acceptanceMethod!: EndUserTermsAcceptanceMethod;
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
      "UMA address `$<username>@<domain>`: username of `a-z0-9-_.+`, at most 64 characters counting the leading dollar sign, case-insensitive (stored lowercase); domain = the platform's UMA domain (GET /config). Otherwise 400 INVALID_UMA_ADDRESS. Without it, one is generated from the customer id on that domain.",
    example: '$ada@p-1f2d3c4b5a.uma.sandbox.paykit.dev',
  })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  umaAddress?: string;

  @ApiPropertyOptional({ description: 'Region of the customer, where the provider needs it (e.g. a state or province code)', example: 'CA' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  region?: string;

  @ApiPropertyOptional({
    type: [String],
    description: "Currencies the customer intends to use; each one of the platform's supportedCurrencies (GET /config)",
    example: ['USD', 'EUR'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ArrayUnique()
  @IsString({ each: true })
  currencies?: string[];

  @ApiPropertyOptional({ type: EndUserTermsConsentInput, description: "The customer's acceptance of the end user terms" })
  @IsOptional()
  @ValidateNested()
  @Type(() => EndUserTermsConsentInput)
  endUserTermsConsent?: EndUserTermsConsentInput;

  @ApiPropertyOptional({
    enum: KYC_STATUSES,
    description: 'KYC status (INDIVIDUAL). Only regulated platforms, which run their own compliance, may set it; other platforms verify through POST /verifications',
    example: 'APPROVED',
  })
  @IsOptional()
  @IsOneOf(KYC_STATUSES)
  kycStatus?: KycStatus;

  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'KYB status (BUSINESS). Only regulated platforms may set it', example: 'APPROVED' })
  @IsOptional()
  @IsOneOf(KYC_STATUSES)
  kybStatus?: KycStatus;

  @ApiPropertyOptional({ enum: ID_TYPES, description: 'Kind of government identifier given in `identifier` (INDIVIDUAL)', example: 'SSN' })
  @IsOptional()
  @IsOneOf(ID_TYPES)
  idType?: IdType;

  @ApiPropertyOptional({ description: 'The government identifier (INDIVIDUAL); stored for verification, never returned', example: '123-45-6789', writeOnly: true })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  identifier?: string;

  @ApiPropertyOptional({ description: 'Country that issued the identifier, ISO 3166-1 alpha-2 (INDIVIDUAL)', example: 'US' })
  @IsOptional()
  @IsCountryCode()
  countryOfIssuance?: string;

  @ApiPropertyOptional({ enum: INDIVIDUAL_SOURCE_OF_FUNDS_CATEGORIES, isArray: true, description: 'Enhanced due diligence: sources of funds', example: ['SALARY'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(INDIVIDUAL_SOURCE_OF_FUNDS_CATEGORIES.length)
  @ArrayUnique()
  @IsOneOf(INDIVIDUAL_SOURCE_OF_FUNDS_CATEGORIES, { each: true })
  sourceOfFundsCategories?: IndividualSourceOfFundsCategory[];

  @ApiPropertyOptional({ description: 'Enhanced due diligence: details when sourceOfFundsCategories includes OTHER', example: 'Prize winnings' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  sourceOfFundsOtherDescription?: string;

  @ApiPropertyOptional({ enum: SOURCE_OF_WEALTH_CATEGORIES, isArray: true, description: 'Enhanced due diligence: sources of wealth', example: ['SALARY'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SOURCE_OF_WEALTH_CATEGORIES.length)
  @ArrayUnique()
  @IsOneOf(SOURCE_OF_WEALTH_CATEGORIES, { each: true })
  sourceOfWealthCategories?: SourceOfWealthCategory[];

  @ApiPropertyOptional({ description: 'Enhanced due diligence: details when sourceOfWealthCategories includes OTHER', example: 'Royalties' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  sourceOfWealthOtherDescription?: string;

  @ApiPropertyOptional({ enum: PURPOSES_OF_ACCOUNT, description: 'Enhanced due diligence: purpose of the account', example: 'P2P_TRANSFERS' })
  @IsOptional()
  @IsOneOf(PURPOSES_OF_ACCOUNT)
  purposeOfAccount?: PurposeOfAccount;

  @ApiPropertyOptional({ description: 'Enhanced due diligence: details when purposeOfAccount is OTHER', example: 'Paying tuition abroad' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  purposeOfAccountOtherDescription?: string;

  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_COUNTS, description: 'Enhanced due diligence: expected transactions a month', example: 'COUNT_10_TO_100' })
  @IsOptional()
  @IsOneOf(EXPECTED_MONTHLY_TRANSACTION_COUNTS)
  expectedMonthlyTransactionCount?: ExpectedMonthlyTransactionCount;

  @ApiPropertyOptional({ enum: EXPECTED_MONTHLY_TRANSACTION_VOLUMES, description: 'Enhanced due diligence: expected monthly volume', example: 'VOLUME_UNDER_10K' })
  @IsOptional()
  @IsOneOf(EXPECTED_MONTHLY_TRANSACTION_VOLUMES)
  expectedMonthlyTransactionVolume?: ExpectedMonthlyTransactionVolume;

  @ApiPropertyOptional({ enum: NET_WORTH_RANGES, description: 'Enhanced due diligence: net worth range', example: 'RANGE_100K_500K' })
  @IsOptional()
  @IsOneOf(NET_WORTH_RANGES)
  netWorthRange?: NetWorthRange;

  @ApiPropertyOptional({ enum: PEP_STATUSES, description: 'Enhanced due diligence: politically exposed person status', example: 'NONE' })
  @IsOptional()
  @IsOneOf(PEP_STATUSES)
  pepStatus?: PepStatus;

  @ApiPropertyOptional({ enum: ANNUAL_INCOME_RANGES, description: 'Enhanced due diligence: annual income range', example: 'RANGE_100K_250K' })
  @IsOptional()
  @IsOneOf(ANNUAL_INCOME_RANGES)
  annualIncomeRange?: AnnualIncomeRange;
}

/**
 * The shape a customerType gives a body, shared by create and update: business data only on
 * BUSINESS customers, and vice versa (like accountType choosing the shape of an accountInfo).
 */
/** Fields only an INDIVIDUAL customer carries, and only a BUSINESS one. */
export const INDIVIDUAL_ONLY_FIELDS = ['fullName', 'birthDate', 'nationality', 'idType', 'identifier', 'countryOfIssuance', 'kycStatus'] as const;
export const BUSINESS_ONLY_FIELDS = ['businessInfo', 'kybStatus'] as const;

function customerShapeErrors(customerType: unknown, fields: CustomerFieldsInput, creating: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (customerType === 'BUSINESS') {
    if (creating && fields.businessInfo === undefined) errors.push({ field: 'businessInfo', message: 'businessInfo is required for BUSINESS customers' });
    if (creating && fields.businessInfo !== undefined && fields.businessInfo.legalName === undefined) {
      errors.push({ field: 'businessInfo.legalName', message: 'businessInfo.legalName is required when a BUSINESS customer is created' });
    }
    for (const field of INDIVIDUAL_ONLY_FIELDS) {
      if (fields[field] !== undefined) errors.push({ field, message: `${field} is only accepted for INDIVIDUAL customers` });
    }
  }
  if (customerType === 'INDIVIDUAL') {
    for (const field of BUSINESS_ONLY_FIELDS) {
      if (fields[field] !== undefined) errors.push({ field, message: `${field} is only accepted for BUSINESS customers` });
    }
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

  @ApiPropertyOptional({ description: 'Updated at or after this instant (ISO 8601)', example: '2025-10-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  updatedAfter?: string;

  @ApiPropertyOptional({ description: 'Updated before this instant (ISO 8601)', example: '2025-11-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  updatedBefore?: string;

  @ApiPropertyOptional({ description: 'Customers with this region', example: 'CA' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  region?: string;

  @ApiPropertyOptional({ description: 'Customers whose `currencies` include this one', example: 'USD' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  currency?: string;

  @ApiPropertyOptional({ description: 'The customer with this UMA address (case-insensitive)', example: '$ada@p-1f2d3c4b5a.uma.sandbox.paykit.dev' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  umaAddress?: string;

  @ApiPropertyOptional({ description: 'Also list deleted customers (default false)', example: false, type: Boolean })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  isIncludingDeleted?: boolean;
}

export class CheckRequirementsRequest {
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @IsString()
  @MatchesPattern(/^[A-Z0-9]{3,5}$/, 'a currency code (e.g. USD)')
  currencyCode!: string;

  /**
   * Payer data a receiver asked for (a receiver lookup's mandatory `requiredPayerDataFields` the
   * sender did not give in `senderCustomerInfo`): the customer must have each, else 400
   * MISSING_MANDATORY_USER_INFO naming them. Absent from payments of an earlier release.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CUSTOMER_INFO_FIELD_NAMES.length)
  @IsOneOf(CUSTOMER_INFO_FIELD_NAMES, { each: true })
  payerDataFields?: CustomerInfoFieldName[];
}

/** The customers service's part of a configuration change: operator settings and what `PATCH /config` may change. */
export class UpdatePlatformConfigRequest extends PlatformSettingsInput {
  @IsOptional()
  @IsBoolean()
  regulated?: boolean;

  /** New customers with an email get an EMBEDDED_WALLET (USDC); turning it off leaves existing wallets. */
  @ValidateIf((o: UpdatePlatformConfigRequest) => o.embeddedWalletsEnabled !== undefined)
  @IsBoolean()
  embeddedWalletsEnabled?: boolean;
}

/**
 * Body of `PATCH /config`: each field goes to the service that owns it (the webhook endpoint
 * to webhooks, the rest to customers). The regulated flag is an operator setting with no HTTP route.
 */
export class UpdateConfigRequest extends IntersectionType(UpdateWebhookConfigRequest, PlatformSettingsInput) {
  @ApiPropertyOptional({
    description: 'Whether new customers with an email get an EMBEDDED_WALLET (USDC) internal account (default true); existing wallets stay when turned off',
    example: false,
  })
  @ValidateIf((o: UpdateConfigRequest) => o.embeddedWalletsEnabled !== undefined)
  @IsBoolean()
  embeddedWalletsEnabled?: boolean;
}
