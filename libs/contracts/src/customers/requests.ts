import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FieldError } from '@paykit/errors';
import { CrossFieldRules, IsCalendarDate, IsCountryCode, IsE164Phone, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
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
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageQuery } from '../common';
import { SignedRetryInput } from '../wallet-auth';
import { UpdateWebhookConfigRequest } from '../webhooks';
import {
  ANNUAL_INCOME_RANGES,
  AnnualIncomeRange,
  CUSTOMER_TYPES,
  CustomerType,
  KYC_STATUSES,
  KycStatus,
  PURPOSES_OF_ACCOUNT,
  PurposeOfAccount,
  SOURCE_OF_WEALTH_CATEGORIES,
  SourceOfWealthCategory,
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

/**
 * The shape a customerType gives a body, shared by create and update: business data only on
 * BUSINESS customers, and vice versa (like accountType choosing the shape of an accountInfo).
 */
function customerShapeErrors(customerType: unknown, fields: CustomerFieldsInput, requireBusinessInfo: boolean): FieldError[] {
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
