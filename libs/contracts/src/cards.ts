import { Environment, PageQuery } from './common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { FieldError } from '@paykit/errors';
import { CrossFieldRules, IsCountryCode, IsOneOf, IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { Page } from './common';
import { typedIdPattern } from './ids';
import type { Currency } from './payments';
import { SignedRetryInput, SignedRetryOutcome } from './wallet-auth';

// ---- Subjects (wire values: frozen) ----
export const CARDS_SUBJECTS = {
  createCard: 'cards.card.create',
  getCard: 'cards.card.get',
  listCards: 'cards.card.list',
  /** PATCH /cards/{id}: a signed action (first call answers the challenge). */
  updateCard: 'cards.card.update',
  getCardTransaction: 'cards.card-transaction.get',
  listCardTransactions: 'cards.card-transaction.list',
  /** The sandbox card network (simulators): sandbox tokens only. */
  simulateAuthorization: 'cards.sandbox.authorization',
  simulateAdvice: 'cards.sandbox.advice',
  simulateClearing: 'cards.sandbox.clearing',
  simulateReturn: 'cards.sandbox.return',
} as const;

export const CARDS_EVENTS = {
  cardIssued: 'cards.events.card.issued',
  /** `webhookType` CARD.STATE_CHANGE, data = the Card after the change. */
  cardStateChanged: 'cards.events.card.state-changed',
  /** `webhookType` CARD.FUNDING_SOURCE_CHANGE, data = the Card after the change. */
  cardFundingSourcesChanged: 'cards.events.card.funding-sources-changed',
  /** `webhookType` CARD_TRANSACTION.<STATUS>, data = the CardTransaction as GET returns it. */
  cardTransactionStatusChanged: 'cards.events.card-transaction.status-changed',
} as const;

/**
 * The cards service's own work queue: events it publishes to itself so that steps which call
 * another service run outside any transaction, durably and once per delivery (idempotent by
 * caller keys). Not announced as webhooks. Wire values: frozen.
 */
export const CARDS_WORK_EVENTS = {
  /** A sandbox-delayed pull (descriptor suffix 005) is due. */
  pullDue: 'cards.events.work.pull-due',
  /** A card was closed: release its open authorizations. */
  cardClosed: 'cards.events.work.card-closed',
  /** A credit authorization advice arrived from the network. */
  adviceReceived: 'cards.events.work.advice-received',
  /**
   * An authorization whose money moved was not recorded in time (its process died, or its
   * recording was held up past the deadline): undo the money step, the card transaction never happened.
   */
  authorizationInterrupted: 'cards.events.work.authorization-interrupted',
} as const;
export const CARDS_WORK_FILTER = 'cards.events.work.>';
/** The durable consumer name of the cards service on its own work queue. */
export const CARDS_WORKER_CONSUMER = 'cards-worker';

/** Webhook event types (spec "Events"; INTEROP.md "Webhooks"). Wire values: frozen. */
export const CARD_WEBHOOK_TYPES = {
  STATE_CHANGE: 'CARD.STATE_CHANGE',
  FUNDING_SOURCE_CHANGE: 'CARD.FUNDING_SOURCE_CHANGE',
} as const;

// ---- Enumerations of the spec (and the values we chose where the spec shows only some) ----
export const CARD_FORMS = ['VIRTUAL'] as const;
export type CardForm = (typeof CARD_FORMS)[number];
export const CARD_STATES = ['PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type CardState = (typeof CARD_STATES)[number];
/** States a PATCH may ask for. */
export const CARD_TARGET_STATES = ['FROZEN', 'ACTIVE', 'CLOSED'] as const;
export type CardTargetState = (typeof CARD_TARGET_STATES)[number];
export const CARD_STATE_REASONS = ['CLOSED_BY_PLATFORM', 'ISSUER_REJECTED'] as const;
export type CardStateReason = (typeof CARD_STATE_REASONS)[number];
/** v1: one stablecoin is card-eligible (spec "Rules for PATCH /cards/{id}" 6). */
export const CARD_ELIGIBLE_CURRENCIES = ['USDC'] as const;
export const CARD_BRANDS = ['VISA'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** The card network's operations the sandbox simulates. */
export const CARD_TRANSACTION_TYPES = [
  'AUTHORIZATION',
  'CREDIT_AUTHORIZATION',
  'FINANCIAL_AUTHORIZATION',
  'FINANCIAL_CREDIT_AUTHORIZATION',
  'CREDIT_AUTHORIZATION_ADVICE',
] as const;
export type CardTransactionType = (typeof CARD_TRANSACTION_TYPES)[number];
/** The simulators answered synchronously (advice arrives only through events). */
export const CARD_AUTHORIZATION_SIMULATIONS = ['AUTHORIZATION', 'CREDIT_AUTHORIZATION', 'FINANCIAL_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION'] as const;
export type CardAuthorizationSimulation = (typeof CARD_AUTHORIZATION_SIMULATIONS)[number];
export const CARD_TRANSACTION_DIRECTIONS = ['DEBIT', 'CREDIT'] as const;
export type CardTransactionDirection = (typeof CARD_TRANSACTION_DIRECTIONS)[number];

/**
 * PENDING: approved, the pull on the funding source not yet confirmed (sandbox 005);
 * CONFIRMED: funds held on the funding source; SETTLED: posted (cleared, or credited);
 * REFUNDED: fully returned; DECLINED: refused (see declineReason); EXPIRED: the hold was
 * released without clearing (see expiryReason); EXCEPTION: the money moved but the network's
 * confirmation failed (high-urgency alert). Wire values: frozen.
 */
export const CARD_TRANSACTION_STATUSES = ['PENDING', 'CONFIRMED', 'SETTLED', 'REFUNDED', 'DECLINED', 'EXPIRED', 'EXCEPTION'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];
/** FUNDING_SOURCE_UNAVAILABLE: the ledger refused the funding account itself (e.g. not ACTIVE). */
export const CARD_DECLINE_REASONS = ['INSUFFICIENT_FUNDS', 'CARD_PAUSED', 'CARD_CLOSED', 'CARD_NOT_ACTIVE', 'FUNDING_SOURCE_UNAVAILABLE'] as const;
export type CardDeclineReason = (typeof CARD_DECLINE_REASONS)[number];
export const CARD_EXPIRY_REASONS = ['AUTHORIZATION_EXPIRY', 'CARD_CLOSED'] as const;
export type CardExpiryReason = (typeof CARD_EXPIRY_REASONS)[number];
export const CARD_EXCEPTION_REASONS = ['CONFIRMATION_FAILED', 'EXCESS_PULL_FAILED', 'FORCE_POST_FAILED'] as const;
export type CardExceptionReason = (typeof CARD_EXCEPTION_REASONS)[number];

/** Webhook event type of a card transaction entering `status` (wire values: frozen). */
export function cardTransactionWebhookType(status: CardTransactionStatus): string {
  return `CARD_TRANSACTION.${status}`;
}

const CUSTOMER_ID = typedIdPattern('Customer');
const INTERNAL_ACCOUNT_ID = typedIdPattern('InternalAccount');
const CARD_TRANSACTION_ID = typedIdPattern('CardTransaction');
const CURRENCY_CODE = /^[A-Z0-9]{3,8}$/;
const MCC = /^\d{4}$/;
/** A card carries at most this many ordered funding sources. */
export const MAX_FUNDING_SOURCES = 10;

// ---- Request payloads (validated by the gateway and again by the service) ----

/** Body of `POST /cards`. */
export class CreateCardRequest {
  @ApiProperty({ description: 'The cardholder; must be ready (KYC/KYB approved)', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(CUSTOMER_ID, 'a customer id (Customer:<uuid>)')
  cardholderId!: string;

  @ApiPropertyOptional({ description: "The platform's own id for the card; its last 3 characters drive sandbox issuance (else the cardholderId's)", example: 'card-7781' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformCardId?: string;

  @ApiProperty({ enum: CARD_FORMS, description: 'Card form', example: 'VIRTUAL' })
  @IsOneOf(CARD_FORMS)
  form!: CardForm;

  @ApiProperty({
    description: "Ordered internal accounts of the cardholder in the card currency (USDC); at least one; only the first is used for authorizations in v1",
    example: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
    type: [String],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FUNDING_SOURCES)
  @ArrayUnique()
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)', { each: true })
  fundingSources!: string[];
}

/** Body of `PATCH /cards/{id}`. */
export class UpdateCardBody implements CrossFieldRules {
  @ApiPropertyOptional({ enum: CARD_TARGET_STATES, description: 'New state (see the card state table)', example: 'FROZEN' })
  @IsOptional()
  @IsOneOf(CARD_TARGET_STATES)
  state?: CardTargetState;

  @ApiPropertyOptional({
    description: 'Full ordered replacement of the funding sources (at least one); not allowed with state CLOSED',
    example: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
    type: [String],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FUNDING_SOURCES)
  @ArrayUnique()
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)', { each: true })
  fundingSources?: string[];

  crossFieldErrors(): FieldError[] {
    if (this.state === undefined && this.fundingSources === undefined) {
      return [{ field: 'state', message: 'state or fundingSources is required' }];
    }
    if (this.state === 'CLOSED' && this.fundingSources !== undefined) {
      return [{ field: 'fundingSources', message: 'fundingSources cannot be supplied with state CLOSED' }];
    }
    return [];
  }
}

export class CardIdRequest {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

export class UpdateCardRequest extends UpdateCardBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;

  @ApiProperty({ type: SignedRetryInput })
  @ValidateNested()
  @Type(() => SignedRetryInput)
  signedRetry!: SignedRetryInput;
}

/** Query of `GET /cards`. */
export class ListCardsRequest extends PageQuery {
  @ApiPropertyOptional({ description: "Only this cardholder's cards", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @MatchesPattern(CUSTOMER_ID, 'a customer id (Customer:<uuid>)')
  cardholderId?: string;

  @ApiPropertyOptional({ enum: CARD_STATES, description: 'Only cards in this state', example: 'ACTIVE' })
  @IsOptional()
  @IsOneOf(CARD_STATES)
  state?: CardState;
}

/** Query of `GET /cards/{id}/transactions`. */
export class ListCardTransactionsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: CARD_TRANSACTION_STATUSES, description: 'Only transactions in this status', example: 'SETTLED' })
  @IsOptional()
  @IsOneOf(CARD_TRANSACTION_STATUSES)
  status?: CardTransactionStatus;
}

export class ListCardTransactionsRequest extends ListCardTransactionsQuery {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

export class GetCardTransactionRequest {
  @ApiProperty({ description: 'Card transaction id', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardTransactionId!: string;
}

/** The spec's Currency object, as the simulators receive it. */
export class CurrencyInput {
  @ApiProperty({ description: 'ISO 4217 code, or the crypto ticker', example: 'USDC' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USDC)')
  code!: string;

  @ApiProperty({ description: 'Full name', example: 'USD Coin' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  name!: string;

  @ApiProperty({ description: 'Currency symbol', example: 'USDC' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(16)
  symbol!: string;

  @ApiProperty({ description: 'Decimal places of the smallest unit (minimum 0)', example: 6 })
  @IsInt()
  @Min(0)
  @Max(18)
  decimals!: number;
}

/** The spec's CardMerchant. */
export class CardMerchantInput {
  @ApiProperty({ description: 'Merchant descriptor from the card network; its last 3 characters drive sandbox outcomes', example: 'COFFEE SHOP 001' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  descriptor!: string;

  @ApiPropertyOptional({ description: 'ISO 18245 merchant category code: four digits', example: '5814' })
  @IsOptional()
  @MatchesPattern(MCC, 'a four-digit merchant category code')
  mcc?: string;

  @ApiPropertyOptional({ description: 'ISO 3166-1 alpha-2 country of the merchant', example: 'US' })
  @IsOptional()
  @IsCountryCode()
  country?: string;
}

/** Body of the authorization-family simulators (SandboxCardAuthorizationRequest). */
export class SandboxCardAuthorizationBody {
  @ApiProperty({ description: "Amount in the currency's smallest unit (int64, greater than 0)", example: 2500000 })
  @IsPositiveMinorAmount()
  amount!: number;

  @ApiProperty({ type: CurrencyInput, description: 'Currency of the amount (the card currency)' })
  @ValidateNested()
  @Type(() => CurrencyInput)
  currency!: CurrencyInput;

  @ApiProperty({ type: CardMerchantInput, description: 'The merchant' })
  @ValidateNested()
  @Type(() => CardMerchantInput)
  merchant!: CardMerchantInput;
}

export class SimulateAuthorizationRequest extends SandboxCardAuthorizationBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;

  @ApiProperty({ enum: CARD_AUTHORIZATION_SIMULATIONS, description: 'Which network message is simulated', example: 'AUTHORIZATION' })
  @IsOneOf(CARD_AUTHORIZATION_SIMULATIONS)
  type!: CardAuthorizationSimulation;
}

export class SimulateAdviceRequest extends SandboxCardAuthorizationBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

/** Body of `simulate/clearing`: amount 0 expires the authorization (AUTHORIZATION_EXPIRY). */
export class SandboxCardClearingBody {
  @ApiProperty({ description: 'The authorization being cleared', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(CARD_TRANSACTION_ID, 'a card transaction id (CardTransaction:<uuid>)')
  cardTransactionId!: string;

  @ApiProperty({ description: 'Cleared amount in the smallest unit; above the authorized amount pulls the excess; 0 expires the authorization', example: 2500000 })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  amount!: number;
}

/** Body of `simulate/return`. */
export class SandboxCardReturnBody {
  @ApiProperty({ description: 'The settled transaction being returned', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(CARD_TRANSACTION_ID, 'a card transaction id (CardTransaction:<uuid>)')
  cardTransactionId!: string;

  @ApiProperty({ description: 'Returned amount in the smallest unit (greater than 0, at most what is left to return)', example: 1000000 })
  @IsPositiveMinorAmount()
  amount!: number;
}

export class SimulateClearingRequest extends SandboxCardClearingBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

export class SimulateReturnRequest extends SandboxCardReturnBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

// ---- Replies: the resources exactly as the API returns them ----

export interface Card {
  id: string;
  cardholderId: string;
  platformCardId?: string;
  form: CardForm;
  /** Ordered; empty once the card is CLOSED (bindings detached). */
  fundingSources: string[];
  state: CardState;
  stateReason?: CardStateReason;
  last4: string;
  brand: CardBrand;
  expMonth: number;
  expYear: number;
  /** Code of the card currency (the funding sources' currency). */
  currency: string;
  createdAt: string;
  updatedAt: string;
}

export interface CardMerchant {
  descriptor: string;
  mcc?: string;
  country?: string;
}

export interface CardTransactionException {
  urgency: 'HIGH';
  reason: CardExceptionReason;
  message: string;
}

export interface CardTransaction {
  id: string;
  cardId: string;
  customerId: string;
  /** The funding source the money moved on (the card's first at authorization). */
  accountId: string;
  issuerTransactionToken: string;
  type: CardTransactionType;
  direction: CardTransactionDirection;
  status: CardTransactionStatus;
  merchant: CardMerchant;
  currency: Currency;
  authorizedAmount: number;
  settledAmount: number;
  refundedAmount: number;
  declineReason?: CardDeclineReason;
  expiryReason?: CardExpiryReason;
  exception?: CardTransactionException;
  /** True when a clearing was posted without a live authorization (force-post path). */
  forcePosted: boolean;
  authorizedAt: string;
  settledAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface SandboxCardSimulationResponse {
  issuerTransactionToken: string;
}

/** `data` of CARDS_WORK_EVENTS.adviceReceived. */
export interface AdviceReceivedData {
  cardId: string;
  cardTransactionId: string;
  issuerTransactionToken: string;
  amount: number;
  currency: Currency;
  merchant: CardMerchant;
}

/** `data` of CARDS_WORK_EVENTS.authorizationInterrupted: what the ledger was asked, to undo it by the same caller keys. */
export interface AuthorizationInterruptedData {
  cardTransactionId: string;
  environment: Environment;
  accountId: string;
  amount: string;
  currency: string;
}

/** `data` of CARDS_WORK_EVENTS.pullDue. */
export interface PullDueData {
  cardTransactionId: string;
}

/** `data` of CARDS_WORK_EVENTS.cardClosed. */
export interface CardClosedData {
  cardId: string;
}

export interface CardsContract {
  [CARDS_SUBJECTS.createCard]: { request: CreateCardRequest; reply: Card };
  [CARDS_SUBJECTS.getCard]: { request: CardIdRequest; reply: Card };
  [CARDS_SUBJECTS.listCards]: { request: ListCardsRequest; reply: Page<Card> };
  [CARDS_SUBJECTS.updateCard]: { request: Omit<UpdateCardRequest, 'crossFieldErrors'>; reply: SignedRetryOutcome<Card> };
  [CARDS_SUBJECTS.getCardTransaction]: { request: GetCardTransactionRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.listCardTransactions]: { request: ListCardTransactionsRequest; reply: Page<CardTransaction> };
  [CARDS_SUBJECTS.simulateAuthorization]: { request: SimulateAuthorizationRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.simulateAdvice]: { request: SimulateAdviceRequest; reply: SandboxCardSimulationResponse };
  [CARDS_SUBJECTS.simulateClearing]: { request: SimulateClearingRequest; reply: CardTransaction };
  [CARDS_SUBJECTS.simulateReturn]: { request: SimulateReturnRequest; reply: CardTransaction };
}

/** Sandbox: funding-source binding refused for an account id ending in one of these (the spec's table). */
export const SANDBOX_INELIGIBLE_FUNDING_SUFFIXES: ReadonlySet<string> = new Set(['002', '003']);

/** Sandbox: card issuance suffixes with an outcome other than instant activation (the spec's table). */
export const SANDBOX_CARD_ISSUANCE_SUFFIXES: ReadonlySet<string> = new Set(['001', '002', '005']);
