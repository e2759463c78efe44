import { PageQuery } from './common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsISO8601, IsInt, IsNotEmpty, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { IsOneOf, IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { Page } from './common';
import { typedIdPattern } from './ids';
import { SignedRetryInput, SignedRetryOutcome } from './wallet-auth';

// ---- Subjects (wire values: frozen) ----
export const PAYMENTS_SUBJECTS = {
  getInternalAccount: 'payments.internal-account.get',
  listInternalAccounts: 'payments.internal-account.list',
  fundInternalAccount: 'payments.internal-account.fund',
  createHold: 'payments.hold.create',
  captureHold: 'payments.hold.capture',
  releaseHold: 'payments.hold.release',
  createRefund: 'payments.refund.create',
  /** A keyed credit to an account from the card settlement account (card credits, advices). */
  createCredit: 'payments.credit.create',
  transferOut: 'payments.transfer.out',
  transferIn: 'payments.transfer.in',
  getTransaction: 'payments.transaction.get',
  listTransactions: 'payments.transaction.list',
  setVelocityLimit: 'payments.velocity-limit.set',
  /** Embedded wallet privacy; the gateway calls it after the signed retry of PATCH /internal-accounts/{id}. */
  updateInternalAccountPrivacy: 'payments.internal-account.update-privacy',
  /** Sandbox simulator: freeze, unfreeze or close an internal account (sandbox tokens only). */
  setInternalAccountStatus: 'payments.internal-account.set-status',
} as const;

export const PAYMENTS_EVENTS = {
  /** Every internal account, when provisioned; EMBEDDED_WALLET ones carry `walletEmail`. */
  internalAccountCreated: 'payments.events.internal-account.created',
  /** An internal account's settings changed (e.g. embedded wallet privacy). */
  internalAccountUpdated: 'payments.events.internal-account.updated',
  /** Every status an internal account enters after creation; `webhookType` INTERNAL_ACCOUNT.STATUS_CHANGE, data = the InternalAccount as GET returns it. */
  internalAccountStatusChanged: 'payments.events.internal-account.status-changed',
  /** Every status a transaction enters; `webhookType` is `OUTGOING_PAYMENT.<STATUS>` or `INCOMING_PAYMENT.<STATUS>`. */
  transactionStatusChanged: 'payments.events.transaction.status-changed',
} as const;

/** Webhook event types announced to the platform. Wire values: frozen. */
export const INTERNAL_ACCOUNT_WEBHOOK_TYPES = {
  statusChange: 'INTERNAL_ACCOUNT.STATUS_CHANGE',
} as const;

/** The durable consumer name of the payments service on the customers' events. */
export const PAYMENTS_CUSTOMERS_CONSUMER = 'payments-customers';

// ---- Enumerations ----
export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type InternalAccountStatus = (typeof INTERNAL_ACCOUNT_STATUSES)[number];
/** Statuses the sandbox simulator can move an account to (PENDING is never entered again). */
export const INTERNAL_ACCOUNT_TARGET_STATUSES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type InternalAccountTargetStatus = (typeof INTERNAL_ACCOUNT_TARGET_STATUSES)[number];
export const TRANSACTION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** OUTGOING: transfer-out (internal to external); INCOMING: transfer-in (external to internal). */
export const TRANSACTION_TYPES = ['OUTGOING', 'INCOMING'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const HOLD_STATUSES = ['PENDING', 'CAPTURED', 'RELEASED'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

/** Webhook event type of a transaction entering `status` (wire values: frozen). */
export function transactionWebhookType(type: TransactionType, status: TransactionStatus): string {
  return `${type === 'OUTGOING' ? 'OUTGOING_PAYMENT' : 'INCOMING_PAYMENT'}.${status}`;
}

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

  @ApiProperty({ description: 'Whether the embedded wallet is private', example: true })
  @IsBoolean()
  privateEnabled!: boolean;

  @ApiProperty({ type: SignedRetryInput, description: 'The signed retry of the HTTP request: a privacy change is a signed action of the wallet' })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

/** Query of `GET /platform/internal-accounts`. */
export class ListPlatformInternalAccountsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only accounts in this currency', example: 'USD' })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currency?: string;

  @ApiPropertyOptional({ enum: INTERNAL_ACCOUNT_TYPES, description: 'Only accounts of this type', example: 'INTERNAL_FIAT' })
  @IsOptional()
  @IsOneOf(INTERNAL_ACCOUNT_TYPES)
  type?: InternalAccountType;
}

/** Query of `GET /customers/internal-accounts`. */
export class ListCustomerInternalAccountsQuery extends ListPlatformInternalAccountsQuery {
  @ApiPropertyOptional({ description: "Only this customer's accounts", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @MatchesPattern(CUSTOMER_ID, 'a customer id (Customer:<uuid>)')
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
    description:
      'ACTIVE <-> FROZEN; ACTIVE or FROZEN -> CLOSED, which is terminal and needs a zero balance, no pending holds and no incoming transfer in flight',
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

export class TransferDestinationInternal {
  @ApiProperty({ description: 'Internal account the funds arrive in', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)')
  accountId!: string;
}

/** Body of `POST /transfer-out`. */
export class TransferOutRequest {
  @ApiProperty({ type: TransferSourceInternal, description: 'Internal account to send from' })
  @ValidateNested()
  @Type(() => TransferSourceInternal)
  source!: TransferSourceInternal;

  @ApiProperty({ type: TransferExternalAccountRef, description: 'External account of the same currency to send to' })
  @ValidateNested()
  @Type(() => TransferExternalAccountRef)
  destination!: TransferExternalAccountRef;

  @ApiProperty({ description: "Amount in the currency's smallest unit; greater than 0", example: 12550 })
  @IsPositiveMinorAmount()
  amount!: number;

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
  @ValidateNested()
  @Type(() => TransferExternalAccountRef)
  source!: TransferExternalAccountRef;

  @ApiProperty({ type: TransferDestinationInternal, description: 'Internal account of the same currency to credit' })
  @ValidateNested()
  @Type(() => TransferDestinationInternal)
  destination!: TransferDestinationInternal;

  @ApiProperty({ description: "Amount in the currency's smallest unit; greater than 0", example: 12550 })
  @IsPositiveMinorAmount()
  amount!: number;

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
}

export class TransferInMessage extends TransferInRequest {
  @ApiPropertyOptional({ description: 'The `Idempotency-Key` header' })
  @IsOptional()
  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters')
  idempotencyKey?: string;
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

  @ApiPropertyOptional({ description: "Only this customer's transactions", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @MatchesPattern(CUSTOMER_ID, 'a customer id (Customer:<uuid>)')
  customerId?: string;

  @ApiPropertyOptional({ enum: TRANSACTION_STATUSES, example: 'COMPLETED' })
  @IsOptional()
  @IsOneOf(TRANSACTION_STATUSES)
  status?: TransactionStatus;

  @ApiPropertyOptional({ enum: TRANSACTION_TYPES, example: 'OUTGOING' })
  @IsOptional()
  @IsOneOf(TRANSACTION_TYPES)
  type?: TransactionType;

  @ApiPropertyOptional({ description: 'Created at or after this instant (ISO 8601)', example: '2025-10-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  createdAfter?: string;

  @ApiPropertyOptional({ description: 'Created before this instant (ISO 8601)', example: '2025-11-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  createdBefore?: string;
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

// ---- Replies: the resources exactly as the API returns them ----
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface Money {
  /** Smallest unit of the currency. */
  amount: number;
  currency: Currency;
}

export interface InternalAccount {
  id: string;
  /** Absent for the platform's own accounts. */
  customerId?: string;
  type: InternalAccountType;
  status: InternalAccountStatus;
  /** The available balance: posted funds less pending holds. */
  balance: Money;
  privateEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * What `payments.internal-account.get` answers: the resource plus fields for other services
 * only (the gateway never returns them).
 */
export interface InternalAccountRecord extends InternalAccount {
  /** EMBEDDED_WALLET only: the customer's email the first EMAIL_OTP credential is bound to. */
  walletEmail?: string;
  /** ISO code of the account currency (same as balance.currency.code). */
  currencyCode: string;
}

export interface Hold {
  id: string;
  accountId: string;
  status: HoldStatus;
  /** The amount held. */
  amount: number;
  capturedAmount: number;
  refundedAmount: number;
  currency: string;
  reference?: string;
  /** The account's available balance right after the operation. */
  availableBalance: number;
  createdAt: string;
  updatedAt: string;
}

export interface Credit {
  id: string;
  accountId: string;
  amount: number;
  currency: string;
  reference?: string;
  /** The account's available balance right after the credit (or, on a replay, now). */
  availableBalance: number;
  createdAt: string;
}

export interface TransactionEndpoint {
  accountId: string;
  currency: string;
}

export interface Transaction {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  customerId?: string;
  source: TransactionEndpoint;
  destination: TransactionEndpoint;
  sentAmount: Money;
  receivedAmount: Money;
  description?: string;
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
  settledAt?: string;
}

export interface VelocityLimit {
  customerId: string;
  currency: string;
  maxCountPerDay?: number;
  maxAmountPerDay?: number;
}

/** `data` of `payments.events.internal-account.created`. */
export type InternalAccountCreatedData = InternalAccountRecord;

export interface PaymentsContract {
  [PAYMENTS_SUBJECTS.getInternalAccount]: { request: GetInternalAccountRequest; reply: InternalAccountRecord };
  [PAYMENTS_SUBJECTS.updateInternalAccountPrivacy]: { request: UpdateInternalAccountPrivacyRequest; reply: SignedRetryOutcome<InternalAccount> };
  [PAYMENTS_SUBJECTS.listInternalAccounts]: { request: ListInternalAccountsRequest; reply: Page<InternalAccount> };
  [PAYMENTS_SUBJECTS.fundInternalAccount]: { request: FundInternalAccountRequest; reply: InternalAccount };
  [PAYMENTS_SUBJECTS.setInternalAccountStatus]: { request: SetInternalAccountStatusRequest; reply: InternalAccount };
  [PAYMENTS_SUBJECTS.createHold]: { request: CreateHoldRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.captureHold]: { request: CaptureHoldRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.releaseHold]: { request: ReleaseHoldRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.createRefund]: { request: CreateRefundRequest; reply: Hold };
  [PAYMENTS_SUBJECTS.createCredit]: { request: CreateCreditRequest; reply: Credit };
  [PAYMENTS_SUBJECTS.transferOut]: { request: TransferOutMessage; reply: SignedRetryOutcome<Transaction> };
  [PAYMENTS_SUBJECTS.transferIn]: { request: TransferInMessage; reply: Transaction };
  [PAYMENTS_SUBJECTS.getTransaction]: { request: GetTransactionRequest; reply: Transaction };
  [PAYMENTS_SUBJECTS.listTransactions]: { request: ListTransactionsQuery; reply: Page<Transaction> };
  [PAYMENTS_SUBJECTS.setVelocityLimit]: { request: SetVelocityLimitRequest; reply: VelocityLimit };
}
