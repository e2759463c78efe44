import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FieldError } from '@paykit/errors';
import { CrossFieldRules } from '@paykit/validation';
import { IsOneOf, IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { Transform, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { SignedRetryInput, SignedRetryOutcome } from '../wallet-auth';
import { SCA_FACTORS, ScaChallenge, ScaFactor, ScaProofInput } from '../wallet-auth/sca';
import { PAYMENT_RAILS, PaymentRail, PURPOSES_OF_PAYMENT, PurposeOfPayment } from './enums';
import { Currency, Transaction } from './replies';
import { ClientRetry } from './requests';

// Cross-currency payments: exchange rates, quotes and their execution. Wire values (subjects,
// enums) are frozen.

const CURRENCY_CODE = /^[A-Z0-9]{3,8}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const QUOTE_STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const QUOTE_LOCK_SIDES = ['SENDING', 'RECEIVING'] as const;
export type QuoteLockSide = (typeof QUOTE_LOCK_SIDES)[number];
export const QUOTE_SOURCE_TYPES = ['ACCOUNT', 'REALTIME_FUNDING'] as const;
export type QuoteSourceType = (typeof QUOTE_SOURCE_TYPES)[number];
export const QUOTE_DESTINATION_TYPES = ['ACCOUNT', 'UMA_ADDRESS'] as const;
export type QuoteDestinationType = (typeof QUOTE_DESTINATION_TYPES)[number];
/** Why an outgoing cross-currency payment FAILED (the reference's OutgoingTransactionFailureReason values used here). */
export const QUOTE_FAILURE_REASONS = [
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED',
  'PAYOUT_RETURNED',
  'ACCOUNT_CANNOT_RECEIVE',
  'COMPLIANCE_REJECTED',
  'COUNTERPARTY_POST_TX_FAILED',
  'SCA_NOT_COMPLETED',
] as const;
export type QuoteFailureReason = (typeof QUOTE_FAILURE_REASONS)[number];

// ---- Exchange rates ----

/** Query of `GET /exchange-rates`. */
/**
 * A list in a query: repeated (`?d=EUR&d=GBP`, an array), single (a string) or comma-joined
 * (`?d=EUR,GBP`), as different clients send it; anything else is left for the rules to refuse.
 */
function queryList(value: unknown): unknown {
  const items = typeof value === 'string' ? [value] : value;
  return Array.isArray(items) ? items.flatMap((item: unknown) => (typeof item === 'string' ? item.split(',') : [item])) : value;
}

export class ExchangeRatesQuery {
  @ApiPropertyOptional({ description: 'Only corridors from this currency', example: 'USD' })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  sourceCurrency?: string;

  @ApiPropertyOptional({ type: [String], description: 'Only corridors to these currencies; repeat the parameter, or join them with commas, for several', example: ['MXN'] })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => queryList(value))
  @IsArray()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. MXN)', { each: true })
  destinationCurrency?: string[];

  @ApiPropertyOptional({ description: "Amount to price, in the source currency's smallest unit (default 10000)", example: 10000, minimum: 0, default: 10000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  sendingAmount?: number;
}

export interface ExchangeRateFees {
  /** Fixed part, smallest unit of the sending currency. */
  fixed: number;
  /** Every fee for the priced sending amount, smallest unit of the sending currency. */
  total: number;
}

export interface ExchangeRate {
  sourceCurrency: Currency;
  destinationCurrency: Currency;
  destinationPaymentRail: PaymentRail;
  sendingAmount: number;
  minSendingAmount: number;
  maxSendingAmount: number;
  receivingAmount: number;
  /** Sending currency units per receiving currency unit. */
  exchangeRate: number;
  fees: ExchangeRateFees;
  updatedAt: string;
}

export interface ExchangeRateList {
  data: ExchangeRate[];
}

// ---- Quotes ----

export class QuoteSourceInput implements CrossFieldRules {
  @ApiProperty({ enum: QUOTE_SOURCE_TYPES, description: 'ACCOUNT: an internal account pays; REALTIME_FUNDING: the quote answers payment instructions to fund it' })
  @IsOneOf(QUOTE_SOURCE_TYPES)
  sourceType!: QuoteSourceType;

  @ApiPropertyOptional({ description: 'ACCOUNT sources: the internal account that pays', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  accountId?: string;

  @ApiPropertyOptional({ description: 'The customer the payment is made for', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  customerId?: string;

  @ApiPropertyOptional({ description: 'REALTIME_FUNDING sources: the currency the funds arrive in', example: 'USD' })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency?: string;

  @ApiPropertyOptional({ description: 'REALTIME_FUNDING sources in a crypto currency: the network the funds arrive on', example: 'SOLANA' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  cryptoNetwork?: string;

  crossFieldErrors(): FieldError[] {
    if (this.sourceType === 'ACCOUNT' && this.accountId === undefined) return [{ field: 'source.accountId', message: 'source.accountId is required for an ACCOUNT source' }];
    if (this.sourceType === 'REALTIME_FUNDING' && this.currency === undefined) {
      return [{ field: 'source.currency', message: 'source.currency is required for a REALTIME_FUNDING source' }];
    }
    return [];
  }
}

export class QuoteDestinationInput implements CrossFieldRules {
  @ApiProperty({ enum: QUOTE_DESTINATION_TYPES, description: 'ACCOUNT: an internal or external account; UMA_ADDRESS: a UMA address' })
  @IsOneOf(QUOTE_DESTINATION_TYPES)
  destinationType!: QuoteDestinationType;

  @ApiPropertyOptional({ description: 'ACCOUNT destinations: the internal or external account paid', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  accountId?: string;

  @ApiPropertyOptional({ enum: PAYMENT_RAILS, description: 'ACCOUNT destinations: the rail to pay out on (default: the first rail of the corridor)', example: 'SPEI' })
  @IsOptional()
  @IsOneOf(PAYMENT_RAILS)
  paymentRail?: PaymentRail;

  @ApiPropertyOptional({ description: 'UMA_ADDRESS destinations: the receiver', example: '$success.mxn@sandbox.uma.money' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  umaAddress?: string;

  @ApiPropertyOptional({ description: 'UMA_ADDRESS destinations: the currency the receiver gets (default: its first supported currency)', example: 'MXN' })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. MXN)')
  currency?: string;

  crossFieldErrors(): FieldError[] {
    if (this.destinationType === 'ACCOUNT' && this.accountId === undefined) {
      return [{ field: 'destination.accountId', message: 'destination.accountId is required for an ACCOUNT destination' }];
    }
    if (this.destinationType === 'UMA_ADDRESS' && this.umaAddress === undefined) {
      return [{ field: 'destination.umaAddress', message: 'destination.umaAddress is required for a UMA_ADDRESS destination' }];
    }
    return [];
  }
}

export class FixedFeeInput {
  @ApiProperty({ description: "Fixed fee in the currency's smallest unit", example: 50, minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  amount!: number;

  @ApiProperty({ description: 'Currency of the fixed fee (the sending currency)', example: 'USD' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency!: string;
}

export class PlatformFeeOverrideInput {
  @ApiProperty({ type: FixedFeeInput, description: "The platform's fixed fee for this quote" })
  @IsDefined()
  @ValidateNested()
  @Type(() => FixedFeeInput)
  platformFixedFee!: FixedFeeInput;

  @ApiProperty({ description: "The platform's variable fee for this quote, in basis points of the sending amount", example: 25, minimum: 0, maximum: 10000 })
  @IsInt()
  @Min(0)
  @Max(10000)
  platformVariableFeeBps!: number;
}

/** Body of `POST /quotes`. */
export class CreateQuoteRequest implements CrossFieldRules {
  @ApiPropertyOptional({ description: 'A receiver lookup id (GET /receiver/...) this quote builds on', example: 'LookupRequest:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  lookupId?: string;

  @ApiProperty({ type: QuoteSourceInput, description: 'Where the funds come from' })
  @IsDefined()
  @ValidateNested()
  @Type(() => QuoteSourceInput)
  source!: QuoteSourceInput;

  @ApiProperty({ type: QuoteDestinationInput, description: 'Where the funds go' })
  @IsDefined()
  @ValidateNested()
  @Type(() => QuoteDestinationInput)
  destination!: QuoteDestinationInput;

  @ApiProperty({ enum: QUOTE_LOCK_SIDES, description: 'Which side of the payment `lockedCurrencyAmount` fixes', example: 'SENDING' })
  @IsOneOf(QUOTE_LOCK_SIDES)
  lockedCurrencySide!: QuoteLockSide;

  @ApiProperty({ description: "The locked amount, in the smallest unit of that side's currency", example: 10000, maximum: 9000000000000000 })
  @IsPositiveMinorAmount()
  lockedCurrencyAmount!: number;

  @ApiPropertyOptional({ description: 'Execute at once after pricing (not for EMBEDDED_WALLET sources, which sign the execution)', example: false })
  @IsOptional()
  @IsBoolean()
  immediatelyExecute?: boolean;

  @ApiPropertyOptional({ description: 'Free text kept with the quote and its transaction', example: 'Invoice 1234' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;

  @ApiPropertyOptional({ description: 'Information for the receiver, passed along with the payment', example: 'Invoice 1234', maxLength: 80 })
  @IsOptional()
  @IsString()
  @MaxLength(80)
  remittanceInformation?: string;

  @ApiPropertyOptional({ enum: PURPOSES_OF_PAYMENT, description: 'Why the payment is made', example: 'GOODS_OR_SERVICES' })
  @IsOptional()
  @IsOneOf(PURPOSES_OF_PAYMENT)
  purposeOfPayment?: PurposeOfPayment;

  @ApiPropertyOptional({ type: PlatformFeeOverrideInput, description: "The platform's own fee for this quote, added to the service's fees" })
  @IsOptional()
  @ValidateNested()
  @Type(() => PlatformFeeOverrideInput)
  platformFeeOverride?: PlatformFeeOverrideInput;

  @ApiPropertyOptional({ enum: SCA_FACTORS, description: 'Preferred strong customer authentication factor (not required by the sandbox)', example: 'SMS_OTP' })
  @IsOptional()
  @IsOneOf(SCA_FACTORS)
  scaFactor?: ScaFactor;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Payer data a UMA receiver asked for (see the lookup)' })
  @IsOptional()
  @IsObject()
  senderCustomerInfo?: Record<string, unknown>;

  crossFieldErrors(): FieldError[] {
    return [...(this.source?.crossFieldErrors?.() ?? []), ...(this.destination?.crossFieldErrors?.() ?? [])];
  }
}

export class CreateQuoteMessage extends CreateQuoteRequest {
  @ApiPropertyOptional({ description: 'The `Idempotency-Key` header' })
  @IsOptional()
  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters')
  idempotencyKey?: string;

  @ApiPropertyOptional({
    type: ClientRetry,
    description: "Set when the request is a client library's retry (`X-Stainless-Retry-Count` 1 or more); heeded for a keyless quote with `immediatelyExecute`",
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ClientRetry)
  retryOf?: ClientRetry;
}

export class GetQuoteRequest {
  @ApiProperty({ description: 'Quote id', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  quoteId!: string;
}

/** Body of `POST /quotes/{quoteId}/execute` (optional). */
export class ExecuteQuoteRequest {
  @ApiPropertyOptional({ enum: SCA_FACTORS, description: 'Preferred strong customer authentication factor (not required by the sandbox)', example: 'SMS_OTP' })
  @IsOptional()
  @IsOneOf(SCA_FACTORS)
  scaFactor?: ScaFactor;
}

export class ExecuteQuoteMessage extends GetQuoteRequest {
  @ApiPropertyOptional({ description: 'The `Idempotency-Key` header' })
  @IsOptional()
  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters')
  idempotencyKey?: string;

  @ApiPropertyOptional({ type: SignedRetryInput, description: 'The signed retry of the HTTP request: executing from an EMBEDDED_WALLET is a signed action of the wallet' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry?: SignedRetryInput;
}

/** POST /quotes/{quoteId}/authorize: the quote and the proof (the reference's ScaAuthorization). */
export class AuthorizeQuoteMessage extends ScaProofInput {
  @ApiProperty({ description: 'Quote id', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  quoteId!: string;
}

export interface QuoteSource {
  sourceType: QuoteSourceType;
  accountId?: string;
  customerId?: string;
  currency?: string;
  cryptoNetwork?: string;
}

export interface QuoteDestination {
  destinationType: QuoteDestinationType;
  accountId?: string;
  paymentRail?: PaymentRail;
  umaAddress?: string;
  currency?: string;
}

/** Bank details a REALTIME_FUNDING quote is paid to (`POST /sandbox/send` pays them in the sandbox). */
export interface QuotePaymentInstructions {
  instructionsNotes?: string;
  isPlatformAccount?: boolean;
  accountOrWalletInfo: Record<string, unknown> & { accountType: string; reference?: string };
}

export interface Quote {
  id: string;
  status: QuoteStatus;
  createdAt: string;
  expiresAt: string;
  source: QuoteSource;
  destination: QuoteDestination;
  sendingCurrency: Currency;
  receivingCurrency: Currency;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  /** Sending currency units per receiving currency unit. */
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  paymentInstructions?: QuotePaymentInstructions[];
  /** The transaction the quote's execution creates (reserved at creation). */
  transactionId: string;
  counterpartyInformation?: Record<string, unknown>;
  rateDetails?: {
    counterpartyMultiplier: number;
    counterpartyFixedFee: number;
    serviceApiMultiplier: number;
    serviceApiFixedFee: number;
    serviceApiVariableFeeRate: number;
    serviceApiVariableFeeAmount: number;
  };
  description?: string;
  failureReason?: QuoteFailureReason;
  /** While PENDING_AUTHORIZATION: the SCA challenge to satisfy now (POST /quotes/{quoteId}/authorize). */
  scaChallenge?: ScaChallenge;
}

// ---- Receiver lookup ----

/** Fields a receiver may ask the payer to share (the reference's CustomerInfoFieldName values used here). */
export const PAYER_DATA_FIELDS = ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'COUNTRY_OF_RESIDENCE', 'EMAIL', 'POSTAL_ADDRESS'] as const;
export type PayerDataField = (typeof PAYER_DATA_FIELDS)[number];

/** Query of `GET /receiver/uma/{receiverUmaAddress}` and `GET /receiver/external-account/{accountId}`. */
export class ReceiverLookupQuery {
  @ApiPropertyOptional({ description: 'UMA address of the sender (optional when customerId is given)', example: '$ada@platform.example' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  senderUmaAddress?: string;

  @ApiPropertyOptional({
    description: 'The sending customer: its accounts decide the sending currency the estimates use',
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  customerId?: string;
}

export class LookupUmaReceiverRequest extends ReceiverLookupQuery {
  @ApiProperty({ description: 'The receiver', example: '$success.mxn@sandbox.uma.money' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  receiverUmaAddress!: string;
}

export class LookupExternalAccountReceiverRequest extends ReceiverLookupQuery {
  @ApiProperty({ description: 'The external account', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  accountId!: string;
}

export interface CurrencyPreference {
  currency: Currency;
  /** Receiving units per sending unit, an estimate (quotes lock the rate). */
  estimatedExchangeRate: number;
  /** Smallest amount receivable in this currency (smallest unit). */
  min: number;
  /** Largest amount receivable in this currency (smallest unit). */
  max: number;
}

export interface PayerDataFieldRequirement {
  name: PayerDataField;
  mandatory: boolean;
}

export interface ReceiverLookup {
  supportedCurrencies: CurrencyPreference[];
  requiredPayerDataFields?: PayerDataFieldRequirement[];
  /** Pass as `lookupId` to POST /quotes. */
  lookupId: string;
  receiverUmaAddress?: string;
  accountId?: string;
}

/** Body of `POST /sandbox/send`: the funds a REALTIME_FUNDING quote's instructions ask for. */
export class SandboxSendRequest {
  @ApiProperty({ description: 'The REALTIME_FUNDING quote paid', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  quoteId!: string;

  @ApiProperty({ description: "The currency sent (the quote's sending currency)", example: 'USD' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currencyCode!: string;

  @ApiPropertyOptional({ description: "The amount sent, smallest unit; when given it must be the quote's totalSendingAmount", example: 10000 })
  @IsOptional()
  @IsPositiveMinorAmount()
  currencyAmount?: number;
}

export const QUOTES_SUBJECTS = {
  listExchangeRates: 'payments.exchange-rate.list',
  createQuote: 'payments.quote.create',
  getQuote: 'payments.quote.get',
  executeQuote: 'payments.quote.execute',
  lookupUmaReceiver: 'payments.receiver.lookup-uma',
  lookupExternalAccountReceiver: 'payments.receiver.lookup-external-account',
  sandboxSend: 'payments.quote.sandbox-send',
  /** POST /quotes/{quoteId}/authorize: the proof of the quote's SCA challenge. */
  authorizeQuote: 'payments.quote.authorize',
  /** POST /quotes/{quoteId}/authorize/resend: the SMS code of the quote's challenge, again. */
  resendQuoteAuthorization: 'payments.quote.authorize-resend',
} as const;

export interface QuotesContract {
  [QUOTES_SUBJECTS.listExchangeRates]: { request: ExchangeRatesQuery; reply: ExchangeRateList };
  [QUOTES_SUBJECTS.createQuote]: { request: CreateQuoteMessage; reply: Quote };
  [QUOTES_SUBJECTS.getQuote]: { request: GetQuoteRequest; reply: Quote };
  [QUOTES_SUBJECTS.executeQuote]: { request: ExecuteQuoteMessage; reply: SignedRetryOutcome<Quote> };
  [QUOTES_SUBJECTS.authorizeQuote]: { request: AuthorizeQuoteMessage; reply: Quote };
  [QUOTES_SUBJECTS.resendQuoteAuthorization]: { request: GetQuoteRequest; reply: { ok: true } };
  [QUOTES_SUBJECTS.lookupUmaReceiver]: { request: LookupUmaReceiverRequest; reply: ReceiverLookup };
  [QUOTES_SUBJECTS.lookupExternalAccountReceiver]: { request: LookupExternalAccountReceiverRequest; reply: ReceiverLookup };
  [QUOTES_SUBJECTS.sandboxSend]: { request: SandboxSendRequest; reply: Transaction };
}

/** The durable consumer name of the payments service's UMA directory on the customers' events: frozen. */
export const PAYMENTS_UMA_DIRECTORY_CONSUMER = 'payments-uma-directory';
