import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  buildMessage,
} from 'class-validator';
import {
  PLATFORM_CURRENCY_CODES,
  CUSTOMER_INFO_FIELD_NAMES,
  CustomerInfoFieldName,
  FEE_TYPES,
  FeeType,
  ENABLED_TRANSACTION_TYPES,
  EnabledTransactionType,
  SANDBOX_PROFILES,
  SandboxProfile,
} from './enums';

const EMAIL = { context: { constraint: { format: 'email' } } };
const URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, disallow_auth: true };
/** Largest amount a JSON number carries exactly (amounts are integers in minor units). */
const MAX_MINOR_AMOUNT = Number.MAX_SAFE_INTEGER;

/** maxAmount is at least the entry's minAmount. */
function NotBelowMinAmount(): PropertyDecorator {
  return ValidateBy({
    name: 'notBelowMinAmount',
    validator: {
      validate: (value, args) => {
        const min = (args?.object as { minAmount?: unknown }).minAmount;
        return typeof value !== 'number' || typeof min !== 'number' || value >= min;
      },
      defaultMessage: buildMessage(() => '$property must be at least minAmount'),
    },
  });
}

/** A fee's fixed part is charged in the currency the fee applies to (fees are added to the sending amount, in that currency). */
function InSourceCurrency(): PropertyDecorator {
  return ValidateBy({
    name: 'inSourceCurrency',
    validator: {
      validate: (value, args) => {
        const currency = (value as { currency?: unknown } | undefined)?.currency;
        return typeof currency !== 'string' || currency === (args?.object as { sourceCurrency?: unknown }).sourceCurrency;
      },
      defaultMessage: buildMessage(() => '$property.currency must equal sourceCurrency'),
    },
  });
}

/** No two entries share the value of `key` (one entry per currency, one fee per type and currency). */
function UniqueBy(describe: (entry: Record<string, unknown>) => string): PropertyDecorator {
  return ValidateBy({
    name: 'uniqueBy',
    validator: {
      validate: (value) => {
        if (!Array.isArray(value)) return true;
        const keys = value.filter((entry): entry is Record<string, unknown> => !!entry && typeof entry === 'object').map(describe);
        return new Set(keys).size === keys.length;
      },
      defaultMessage: buildMessage(() => '$property lists the same entry twice'),
    },
  });
}

export class CounterpartyFieldInput {
  @ApiProperty({ enum: CUSTOMER_INFO_FIELD_NAMES, description: 'A field the platform wants about counterparty customers', example: 'FULL_NAME' })
  @IsOneOf(CUSTOMER_INFO_FIELD_NAMES)
  name!: CustomerInfoFieldName;

  @ApiProperty({ description: 'Whether payments without it are refused (false: wanted when available)', example: true })
  @IsBoolean()
  mandatory!: boolean;
}

/** One entry of `supportedCurrencies` as a platform sets it; `providerRequiredCustomerFields` is the provider's and read-only. */
export class PlatformCurrencyInput {
  @ApiProperty({ description: `Currency code (ISO 4217, or a crypto asset's ticker); one this deployment offers: ${PLATFORM_CURRENCY_CODES.join(', ')}`, example: 'USD' })
  @IsString()
  @IsOneOf(PLATFORM_CURRENCY_CODES)
  currencyCode!: string;

  @ApiProperty({ description: 'Smallest amount a payment may carry, in minor units', example: 100, minimum: 0, format: 'int64' })
  @IsInt()
  @Min(0)
  @Max(MAX_MINOR_AMOUNT)
  minAmount!: number;

  @ApiProperty({ description: 'Largest amount a payment may carry, in minor units', example: 1000000, minimum: 0, format: 'int64' })
  @IsInt()
  @Min(0)
  @Max(MAX_MINOR_AMOUNT)
  @NotBelowMinAmount()
  maxAmount!: number;

  @ApiProperty({ type: [CounterpartyFieldInput], description: 'Fields the platform wants from counterparty institutions about their customers' })
  @IsArray()
  @ArrayMaxSize(CUSTOMER_INFO_FIELD_NAMES.length)
  @ValidateNested({ each: true })
  @Type(() => CounterpartyFieldInput)
  requiredCounterpartyFields!: CounterpartyFieldInput[];

  @ApiPropertyOptional({
    enum: CUSTOMER_INFO_FIELD_NAMES,
    isArray: true,
    readOnly: true,
    description: "Read-only: accepted (so a GET's entry can be sent back) and ignored; the provider's requirements stay the provider's",
  })
  @IsOptional()
  @IsArray()
  @IsOneOf(CUSTOMER_INFO_FIELD_NAMES, { each: true })
  providerRequiredCustomerFields?: CustomerInfoFieldName[];

  @ApiPropertyOptional({ enum: CUSTOMER_INFO_FIELD_NAMES, isArray: true, readOnly: true, description: 'Read-only: accepted and ignored' })
  @IsOptional()
  @IsArray()
  @IsOneOf(CUSTOMER_INFO_FIELD_NAMES, { each: true })
  providerRequiredCounterpartyCustomerFields?: CustomerInfoFieldName[];

  @ApiProperty({ enum: ENABLED_TRANSACTION_TYPES, isArray: true, description: 'Directions of payment enabled in this currency', example: ['OUTGOING', 'INCOMING'] })
  @IsArray()
  @ArrayUnique()
  @IsOneOf(ENABLED_TRANSACTION_TYPES, { each: true })
  enabledTransactionTypes!: EnabledTransactionType[];
}

export class EmbeddedWalletConfigInput {
  @ApiPropertyOptional({ description: 'Application name shown in one-time code messages', example: 'Acme Wallet', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  appName?: string;

  @ApiPropertyOptional({ description: 'Length of one-time codes', example: 6, minimum: 4, maximum: 12 })
  @IsOptional()
  @IsInt()
  @Min(4)
  @Max(12)
  otpLength?: number;

  @ApiPropertyOptional({ description: 'Whether one-time codes mix letters with digits', example: false })
  @IsOptional()
  @IsBoolean()
  alphanumeric?: boolean;

  @ApiPropertyOptional({ description: 'How long a one-time code stays valid, in seconds', example: 600, minimum: 1, maximum: 86400 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(86400)
  expirationSeconds?: number;

  @ApiPropertyOptional({ description: 'Address the code emails come from', example: 'no-reply@acme.example', maxLength: 255, format: 'email' })
  @IsOptional()
  @IsEmail({}, EMAIL)
  @MaxLength(255)
  sendFromEmailAddress?: string;

  @ApiPropertyOptional({ description: 'Sender name of the code emails', example: 'Acme', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  sendFromEmailSenderName?: string;

  @ApiPropertyOptional({ description: 'Reply-to address of the code emails', example: 'support@acme.example', maxLength: 255, format: 'email' })
  @IsOptional()
  @IsEmail({}, EMAIL)
  @MaxLength(255)
  replyToEmailAddress?: string;

  @ApiPropertyOptional({ description: 'Logo shown in the code emails', example: 'https://acme.example/logo.png', maxLength: 512, format: 'uri' })
  @IsOptional()
  @IsUrl(URL_OPTIONS, { context: { constraint: { format: 'url' } } })
  @MaxLength(512)
  logoUrl?: string;
}

export class CardTokenization2faEmailInput {
  @ApiPropertyOptional({ description: 'Sender address', example: 'cards@acme.example', maxLength: 255, format: 'email' })
  @IsOptional()
  @IsEmail({}, EMAIL)
  @MaxLength(255)
  fromAddress?: string;

  @ApiPropertyOptional({ description: 'Sender name', example: 'Acme Cards', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  fromName?: string;

  @ApiPropertyOptional({ description: 'Reply-to address', example: 'support@acme.example', maxLength: 255, format: 'email' })
  @IsOptional()
  @IsEmail({}, EMAIL)
  @MaxLength(255)
  replyToAddress?: string;

  @ApiPropertyOptional({ description: 'Subject line', example: 'Your card verification code', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  subject?: string;

  @ApiPropertyOptional({ description: 'Message text', example: 'Use this code to add your card to a wallet.', maxLength: 2000 })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  bodyText?: string;
}

export class CardTokenization2faSmsInput {
  @ApiPropertyOptional({ description: 'Identifier of a message template at the SMS provider', example: 'HX0123456789abcdef', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  templateSid?: string;

  @ApiPropertyOptional({ description: 'Message text', example: 'Your card code is {code}', maxLength: 480 })
  @IsOptional()
  @IsString()
  @MaxLength(480)
  bodyText?: string;
}

/** How customers confirm adding a card to a digital wallet. */
export class CardTokenization2faConfigInput {
  @ApiPropertyOptional({ description: 'Name shown to the cardholder', example: 'Acme', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  displayName?: string;

  @ApiPropertyOptional({ description: 'Logo (https URL)', example: 'https://acme.example/logo.png', maxLength: 512, format: 'uri', pattern: '^https://' })
  @IsOptional()
  @IsUrl({ ...URL_OPTIONS, protocols: ['https'] }, { context: { constraint: { format: 'url', pattern: '^https://' } } })
  @MaxLength(512)
  logoUrl?: string;

  @ApiPropertyOptional({ type: CardTokenization2faEmailInput })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardTokenization2faEmailInput)
  email?: CardTokenization2faEmailInput;

  @ApiPropertyOptional({ type: CardTokenization2faSmsInput })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardTokenization2faSmsInput)
  sms?: CardTokenization2faSmsInput;
}

export class PlatformFixedFeeInput {
  @ApiProperty({ description: 'Fee amount in minor units of `currency`', example: 50, minimum: 0, format: 'int64' })
  @IsInt()
  @Min(0)
  @Max(MAX_MINOR_AMOUNT)
  amount!: number;

  @ApiProperty({ description: 'Currency of the fixed fee', example: 'USD' })
  @IsString()
  @MatchesPattern(/^[A-Z0-9]{3,5}$/, 'a currency code (e.g. USD)')
  currency!: string;
}

/** A fee the platform adds to its customers' payments. */
export class FeeConfigInput {
  @ApiProperty({ enum: FEE_TYPES, description: 'Kind of payment the fee applies to', example: 'CROSS_CURRENCY_TRANSACTION' })
  @IsOneOf(FEE_TYPES)
  feeType!: FeeType;

  @ApiProperty({ description: 'Currency of the payments the fee applies to', example: 'USD' })
  @IsString()
  @MatchesPattern(/^[A-Z0-9]{3,5}$/, 'a currency code (e.g. USD)')
  sourceCurrency!: string;

  @ApiProperty({ description: 'Variable part in basis points (0 to 10000)', example: 50, minimum: 0, maximum: 10000 })
  @IsInt()
  @Min(0)
  @Max(10000)
  variableFeeBps!: number;

  @ApiProperty({ type: PlatformFixedFeeInput, description: 'Fixed part, in the smallest unit of `sourceCurrency` (its `currency` must be `sourceCurrency`)' })
  @IsDefined()
  @ValidateNested()
  @InSourceCurrency()
  @Type(() => PlatformFixedFeeInput)
  fixedFee!: PlatformFixedFeeInput;
}

/** The platform settings `PATCH /config` may change in the customers service. */
export class PlatformSettingsInput {
  @ApiPropertyOptional({
    description: "The platform's UMA domain; customers' UMA addresses move to the new domain (same usernames)",
    example: 'uma.acme.example',
  })
  @IsOptional()
  @MatchesPattern(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'a domain name')
  umaDomain?: string;

  @ApiPropertyOptional({ type: [PlatformCurrencyInput], description: 'Replaces the currencies the platform offers; each must be one the deployment supports' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @UniqueBy((entry) => String(entry.currencyCode))
  @ValidateNested({ each: true })
  @Type(() => PlatformCurrencyInput)
  supportedCurrencies?: PlatformCurrencyInput[];

  @ApiPropertyOptional({ type: EmbeddedWalletConfigInput, description: 'How embedded wallet one-time codes look' })
  @IsOptional()
  @ValidateNested()
  @Type(() => EmbeddedWalletConfigInput)
  embeddedWalletConfig?: EmbeddedWalletConfigInput;

  @ApiPropertyOptional({ type: CardTokenization2faConfigInput, description: 'How cardholders confirm digital wallet tokenization' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardTokenization2faConfigInput)
  cardTokenization2faConfig?: CardTokenization2faConfigInput;

  @ApiPropertyOptional({
    type: [FeeConfigInput],
    description:
      'Merge-by-key upsert of the platform fees, keyed by (feeType, sourceCurrency): a listed fee replaces the one of its key, the others stay; a fee with a 0 fixed and 0 variable part removes its key. Omit to leave the fees unchanged',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @UniqueBy((entry) => `${String(entry.feeType)}:${String(entry.sourceCurrency)}`)
  @ValidateNested({ each: true })
  @Type(() => FeeConfigInput)
  feeConfigs?: FeeConfigInput[];

  @ApiPropertyOptional({
    enum: SANDBOX_PROFILES,
    description:
      'Paykit extension (not in the reference document): how the sandbox decides KYC/KYB. SPEC (default) follows SPEC.md: customers start PENDING and POST /verifications decides by suffix. ' +
      "HOSTED follows the hosted sandbox's current guides: an individual's fullName suffix decides its kycStatus at creation (001 PENDING, 002 REJECTED, 003 UNVERIFIED, any other APPROVED), " +
      'businesses start UNVERIFIED and are decided on verification by registration number (002 REJECTED, 001/003 full review, any other APPROVED), their beneficial owners with them, ' +
      'and the provider requires only FULL_NAME of a customer in every currency. Production callers are not affected',
    example: 'HOSTED',
  })
  @IsOptional()
  @IsOneOf(SANDBOX_PROFILES)
  sandboxProfile?: SandboxProfile;
}
