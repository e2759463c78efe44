import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOneOf, IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalInstant, PageQuery } from '../common';
import { typedIdPattern } from '../ids';
import { SignedRetryInput } from '../wallet-auth';
import {
  INTERNAL_ACCOUNT_TARGET_STATUSES,
  INTERNAL_ACCOUNT_TYPES,
  InternalAccountTargetStatus,
  InternalAccountType,
  PAYMENT_RAILS,
  PaymentRail,
  PURPOSES_OF_PAYMENT,
  PurposeOfPayment,
  TRANSACTION_STATUS_FILTERS,
  TRANSACTION_TYPES,
  TransactionStatusFilter,
  TransactionType,
} from './enums';

const INTERNAL_ACCOUNT_ID = typedIdPattern('InternalAccount');
const EXTERNAL_ACCOUNT_ID = typedIdPattern('ExternalAccount');
const CUSTOMER_ID = typedIdPattern('Customer');
const CURRENCY_CODE = /^[A-Z0-9]{3,8}$/;
/** Caller keys of ledger messages: the caller's own id of the operation (e.g. a card transaction id plus a step). */
const CALLER_KEY = /^[A-Za-z0-9:._-]{1,200}$/;

// ---- Request payloads (validated by the gateway and again by the service) ----
export class GetInternalAccountRequest {
  @ApiProperty({ description: 'Internal account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  accountId!: string;
}

export class UpdateInternalAccountPrivacyRequest {
  @ApiProperty({ description: 'Embedded wallet internal account id', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  accountId!: string;

  @ApiPropertyOptional({
    description: 'Whether the embedded wallet is private; the only updatable field today, so an update without it changes nothing and is refused',
    example: true,
  })
  @IsOptional()
  @IsBoolean()
  privateEnabled?: boolean;

  @ApiProperty({ type: SignedRetryInput, description: 'The signed retry of the HTTP request: a privacy change is a signed action of the wallet' })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

/** Query of `GET /platform/internal-accounts`. */
export class ListPlatformInternalAccountsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only accounts in this currency code (a code no account holds matches nothing)', example: 'USD' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  currency?: string;

  @ApiPropertyOptional({ enum: INTERNAL_ACCOUNT_TYPES, description: 'Only accounts of this type', example: 'INTERNAL_FIAT' })
  @IsOptional()
  @IsOneOf(INTERNAL_ACCOUNT_TYPES)
  type?: InternalAccountType;
}

/** Query of `GET /customers/internal-accounts`. */
export class ListCustomerInternalAccountsQuery extends ListPlatformInternalAccountsQuery {
  @ApiPropertyOptional({ description: "Only this customer's accounts (an unknown id matches nothing)", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  customerId?: string;
}

export class ListInternalAccountsRequest extends ListCustomerInternalAccountsQuery {
  @ApiProperty({ enum: ['CUSTOMER', 'PLATFORM'], description: "Customers' accounts or the platform's own" })
  @IsOneOf(['CUSTOMER', 'PLATFORM'])
  owner!: 'CUSTOMER' | 'PLATFORM';
}

/** Body of `POST /sandbox/internal-accounts/{accountId}/fund`. */
export class SandboxFundRequest {
  @ApiProperty({ description: "Amount in the account currency's smallest unit (e.g. cents); greater than 0", example: 100000 })
  @IsPositiveMinorAmount()
  amount!: number;
}

export class FundInternalAccountRequest extends SandboxFundRequest {
  @ApiProperty({ description: 'Internal account to credit', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  accountId!: string;
}

/** Body of `POST /sandbox/internal-accounts/{accountId}/status`. */
export class SandboxAccountStatusRequest {
  @ApiProperty({
    enum: INTERNAL_ACCOUNT_TARGET_STATUSES,
    description: 'ACTIVE <-> FROZEN; ACTIVE or FROZEN -> CLOSED, which is terminal and needs a zero balance, no pending holds and no incoming transfer in flight',
    example: 'FROZEN',
  })
  @IsOneOf(INTERNAL_ACCOUNT_TARGET_STATUSES)
  status!: InternalAccountTargetStatus;
}

export class SetInternalAccountStatusRequest extends SandboxAccountStatusRequest {
  @ApiProperty({ description: 'Internal account to change', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  accountId!: string;
}

export class CreateHoldRequest {
  @ApiProperty({ description: "The caller's unique key of this hold; a repeat answers the first result", example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69:auth' })
  @MatchesPattern(CALLER_KEY, '1-200 characters of A-Z a-z 0-9 : . _ -')
  callerKey!: string;

  @ApiProperty({ description: 'Internal account the funds are held on' })
  @IsString()
  @IsNotEmpty()
  accountId!: string;

  @ApiProperty({ description: 'Amount in the smallest unit', example: 2500 })
  @IsPositiveMinorAmount()
  amount!: number;

  @ApiProperty({ description: 'Currency the amount is in; must be the account currency', example: 'USD' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency!: string;

  @ApiPropertyOptional({ description: "The caller's resource the hold belongs to (e.g. a card transaction id)" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  reference?: string;
}

export class CaptureHoldRequest {
  @ApiProperty({ description: "The caller's unique key of this capture" })
  @MatchesPattern(CALLER_KEY, '1-200 characters of A-Z a-z 0-9 : . _ -')
  callerKey!: string;

  @ApiProperty({ description: 'Hold to capture', example: 'Hold:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  holdId!: string;

  @ApiProperty({ description: 'Amount to post: below the hold returns the rest, above it takes the excess from the available balance', example: 2500 })
  @IsPositiveMinorAmount()
  amount!: number;
}

export class ReleaseHoldRequest {
  @ApiProperty({ description: "The caller's unique key of this release" })
  @MatchesPattern(CALLER_KEY, '1-200 characters of A-Z a-z 0-9 : . _ -')
  callerKey!: string;

  @ApiProperty({ description: 'Hold to release' })
  @IsString()
  @IsNotEmpty()
  holdId!: string;
}

export class CreateRefundRequest {
  @ApiProperty({ description: "The caller's unique key of this refund" })
  @MatchesPattern(CALLER_KEY, '1-200 characters of A-Z a-z 0-9 : . _ -')
  callerKey!: string;

  @ApiProperty({ description: 'Captured hold the refund credits back; refunds of one hold never exceed its captured amount' })
  @IsString()
  @IsNotEmpty()
  holdId!: string;

  @ApiProperty({ description: 'Amount to credit back, in the smallest unit', example: 1000 })
  @IsPositiveMinorAmount()
  amount!: number;
}

export class CreateCreditRequest {
  @ApiProperty({ description: "The caller's unique key of this credit; a repeat answers the first result" })
  @MatchesPattern(CALLER_KEY, '1-200 characters of A-Z a-z 0-9 : . _ -')
  callerKey!: string;

  @ApiProperty({ description: 'Internal account to credit' })
  @IsString()
  @IsNotEmpty()
  accountId!: string;

  @ApiProperty({ description: 'Amount in the smallest unit', example: 1500 })
  @IsPositiveMinorAmount()
  amount!: number;

  @ApiProperty({ description: 'Currency the amount is in; must be the account currency', example: 'USDC' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency!: string;

  @ApiPropertyOptional({ description: "The caller's resource the credit belongs to (e.g. a card transaction id)" })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  reference?: string;
}

export class TransferSourceInternal {
  @ApiProperty({ description: 'Internal account the funds leave', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)')
  accountId!: string;
}

export class TransferExternalAccountRef {
  @ApiProperty({ description: 'External account id', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(EXTERNAL_ACCOUNT_ID, 'an external account id (ExternalAccount:<uuid>)')
  accountId!: string;
}

/** `destination` of `POST /transfer-out`: the external account, and optionally the rail to pay it by. */
export class TransferOutDestination extends TransferExternalAccountRef {
  @ApiPropertyOptional({
    enum: PAYMENT_RAILS,
    description: "Rail to pay by; it must be one of the destination account's rails. Omitted: the account's first rail is used",
    example: 'ACH',
  })
  @IsOptional()
  @IsOneOf(PAYMENT_RAILS)
  paymentRail?: PaymentRail;
}

export class TransferDestinationInternal {
  @ApiProperty({ description: 'Internal account the funds arrive in', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)')
  accountId!: string;
}

/** Body of `POST /transfer-out`. */
export class TransferOutRequest {
  @ApiProperty({ type: TransferSourceInternal, description: 'Internal account to send from' })
  @IsDefined()
  @ValidateNested()
  @Type(() => TransferSourceInternal)
  source!: TransferSourceInternal;

  @ApiProperty({ type: TransferOutDestination, description: 'External account of the same currency to send to' })
  @IsDefined()
  @ValidateNested()
  @Type(() => TransferOutDestination)
  destination!: TransferOutDestination;

  @ApiPropertyOptional({
    description: "Amount in the currency's smallest unit; greater than 0. Omitted: the source account's whole available balance is sent (400 INVALID_AMOUNT when it is 0)",
    example: 12550,
    type: 'integer',
    format: 'int64',
  })
  @IsOptional()
  @IsPositiveMinorAmount()
  amount?: number;

  @ApiPropertyOptional({
    description: 'Free text that travels with the payment to the recipient (ACH addenda, RTP/FedNow remittance field, wire beneficiary information)',
    maxLength: 80,
    example: 'Invoice 12345',
  })
  @IsOptional()
  @IsString()
  @MaxLength(80)
  remittanceInformation?: string;

  @ApiPropertyOptional({ enum: PURPOSES_OF_PAYMENT, description: 'What the payment is for', example: 'GOODS_OR_SERVICES' })
  @IsOptional()
  @IsOneOf(PURPOSES_OF_PAYMENT)
  purposeOfPayment?: PurposeOfPayment;

  @ApiPropertyOptional({ description: 'Currency of the amount; when given it must be the currency of both accounts', example: 'USD' })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency?: string;

  @ApiPropertyOptional({ description: 'Free text kept with the transaction', example: 'Payout #4411' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}

/** Body of `POST /transfer-in`. */
export class TransferInRequest {
  @ApiProperty({ type: TransferExternalAccountRef, description: 'External account to pull from' })
  @IsDefined()
  @ValidateNested()
  @Type(() => TransferExternalAccountRef)
  source!: TransferExternalAccountRef;

  @ApiProperty({ type: TransferDestinationInternal, description: 'Internal account of the same currency to credit' })
  @IsDefined()
  @ValidateNested()
  @Type(() => TransferDestinationInternal)
  destination!: TransferDestinationInternal;

  @ApiPropertyOptional({
    description:
      "Amount in the currency's smallest unit; greater than 0. A pull needs an amount: this service cannot read an external account's balance, so an omitted amount answers 400 INVALID_AMOUNT",
    example: 12550,
    type: 'integer',
    format: 'int64',
  })
  @IsOptional()
  @IsPositiveMinorAmount()
  amount?: number;

  @ApiPropertyOptional({ description: 'Currency of the amount; when given it must be the currency of both accounts', example: 'USD' })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency?: string;

  @ApiPropertyOptional({ description: 'Free text kept with the transaction', example: 'Top-up' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A request the client library sent again on its own (its `X-Stainless-Retry-Count` header, 1 on
 * the first retry): without an Idempotency-Key, a money operation answers the most recent
 * identical request of the last 24 hours instead of moving the money again.
 */
export class ClientRetry {
  @ApiProperty({ description: 'The retry count the client sent (1, 2, ...)', example: 1 })
  @IsInt()
  @Min(1)
  attempt!: number;
}

export class TransferOutMessage extends TransferOutRequest {
  @ApiPropertyOptional({ description: 'The `Idempotency-Key` header' })
  @IsOptional()
  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters')
  idempotencyKey?: string;

  @ApiPropertyOptional({ type: SignedRetryInput, description: 'The signed retry of the HTTP request: sending from an EMBEDDED_WALLET is a signed action of the wallet' })
  @IsOptional()
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry?: SignedRetryInput;

  @ApiPropertyOptional({ type: ClientRetry, description: "Set when the request is a client library's retry (`X-Stainless-Retry-Count` 1 or more)" })
  @IsOptional()
  @ValidateNested()
  @Type(() => ClientRetry)
  retryOf?: ClientRetry;
}

export class TransferInMessage extends TransferInRequest {
  @ApiPropertyOptional({ description: 'The `Idempotency-Key` header' })
  @IsOptional()
  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters')
  idempotencyKey?: string;

  @ApiPropertyOptional({ type: ClientRetry, description: "Set when the request is a client library's retry (`X-Stainless-Retry-Count` 1 or more)" })
  @IsOptional()
  @ValidateNested()
  @Type(() => ClientRetry)
  retryOf?: ClientRetry;
}

export class GetTransactionRequest {
  @ApiProperty({ description: 'Transaction id', example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  transactionId!: string;
}

/** Query of `GET /transactions`. */
export class ListTransactionsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Transactions whose source or destination is this account (internal or external id)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  accountId?: string;

  @ApiPropertyOptional({ description: 'Same as `accountId`: the account is the sender or the receiver' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  accountIdentifier?: string;

  @ApiPropertyOptional({ description: 'Only transactions sent from this account (internal or external id)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  senderAccountIdentifier?: string;

  @ApiPropertyOptional({ description: 'Only transactions received by this account (internal or external id)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  receiverAccountIdentifier?: string;

  @ApiPropertyOptional({
    description: "Only this customer's transactions; the platform's id selects the transactions of the platform's own accounts",
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  customerId?: string;

  @ApiPropertyOptional({ description: 'Only the transactions of customers with this platform-side id', example: 'user-4411' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  platformCustomerId?: string;

  @ApiPropertyOptional({ enum: TRANSACTION_STATUS_FILTERS, example: 'COMPLETED' })
  @IsOptional()
  @IsOneOf(TRANSACTION_STATUS_FILTERS)
  status?: TransactionStatusFilter;

  @ApiPropertyOptional({ enum: TRANSACTION_TYPES, example: 'OUTGOING' })
  @IsOptional()
  @IsOneOf(TRANSACTION_TYPES)
  type?: TransactionType;

  @ApiPropertyOptional({ description: 'Only transactions whose remittance information or description is exactly this text', example: 'Invoice 12345' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  reference?: string;

  @OptionalInstant('Created at or after this instant (ISO 8601)', '2025-10-01T00:00:00Z') startDate?: string;

  @OptionalInstant('Created at or before this instant (ISO 8601)', '2025-11-01T00:00:00Z') endDate?: string;

  @OptionalInstant('Created at or after this instant (ISO 8601); same as `startDate`', '2025-10-01T00:00:00Z') createdAfter?: string;

  @OptionalInstant('Created before this instant (ISO 8601)', '2025-11-01T00:00:00Z') createdBefore?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], description: 'By creation: newest first (desc, the default) or oldest first', example: 'desc' })
  @IsOptional()
  @IsOneOf(['asc', 'desc'])
  sortOrder?: 'asc' | 'desc';
}

/** A platform's daily volume limit in a currency (set by the operator, like velocity limits). */
export class SetDailyVolumeLimitRequest {
  @ApiProperty({ description: 'Currency whose outgoing volume the limit counts (withdrawals in it, quotes sending it)', example: 'USD' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'At most this amount (smallest unit) per day of the platform time; null removes the limit', example: 1000000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  maxAmountPerDay!: number | null;
}

export class SetVelocityLimitRequest {
  @ApiProperty({ description: 'Customer the limit applies to' })
  @MatchesPattern(CUSTOMER_ID, 'a customer id (Customer:<uuid>)')
  customerId!: string;

  @ApiProperty({ description: 'Currency the limit counts', example: 'USD' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency!: string;

  @ApiPropertyOptional({ description: 'At most this many transfers in any 24 hours (omit: no count limit)', example: 10 })
  @IsOptional()
  @IsInt()
  @Min(0)
  maxCountPerDay?: number;

  @ApiPropertyOptional({ description: 'At most this amount (smallest unit) in any 24 hours (omit: no amount limit)', example: 500000 })
  @IsOptional()
  @IsInt()
  @Min(0)
  maxAmountPerDay?: number;
}
