import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FieldError } from '@paykit/errors';
import { CrossFieldRules, IsCountryCode, IsOneOf, IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalInstant, PageQuery } from '../common';
import { typedIdPattern } from '../ids';
import { SignedRetryInput } from '../wallet-auth';
import {
  CARD_AUTHORIZATION_SIMULATIONS,
  CARD_FORMS,
  CARD_STATES,
  CARD_TARGET_STATES,
  CARD_TRANSACTION_STATUSES,
  CardAuthorizationSimulation,
  CardForm,
  CardState,
  CardTargetState,
  CardTransactionStatus,
  MAX_FUNDING_SOURCES,
} from './enums';

const CUSTOMER_ID = typedIdPattern('Customer');
export const CARD_SORT_ORDERS = ['asc', 'desc'] as const;
export type CardSortOrder = (typeof CARD_SORT_ORDERS)[number];
const INTERNAL_ACCOUNT_ID = typedIdPattern('InternalAccount');
const CARD_TRANSACTION_ID = typedIdPattern('CardTransaction');
const CURRENCY_CODE = /^[A-Z0-9]{3,8}$/;
const MCC = /^\d{4}$/;

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
    description: 'Ordered internal accounts of the cardholder in the card currency (USDC); at least one; only the first is used for authorizations in v1',
    example: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
    type: [String],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FUNDING_SOURCES)
  @ArrayUnique()
  @MatchesPattern(INTERNAL_ACCOUNT_ID, 'an internal account id (InternalAccount:<uuid>)', { each: true })
  fundingSources!: string[];

  @ApiPropertyOptional({
    description:
      "Largest amount a single authorization may take, in the smallest unit of the card's currency; an authorization above it is declined (TRANSACTION_SIZE_LIMIT_EXCEEDED), one of exactly this amount is allowed. Omit for no limit.",
    example: 50000000,
    type: 'integer',
    format: 'int64',
    minimum: 1,
  })
  @IsOptional()
  @IsPositiveMinorAmount()
  maxSpendPerTransaction?: number;

  @ApiPropertyOptional({
    description: 'Static 3-D Secure password of the card. Kept only as a salted hash by the card issuer, never returned nor logged; one is generated when omitted.',
    example: 'AbCd1234EfGh5678',
  })
  @IsOptional()
  @IsString()
  threeDSecurePassword?: string;
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

  @ApiPropertyOptional({
    description: 'New per-authorization limit in the smallest unit of the card currency; null removes the limit; omitted leaves it as it is. Not allowed with state CLOSED.',
    example: 100000000,
    type: 'integer',
    format: 'int64',
    minimum: 1,
    nullable: true,
  })
  @IsOptional()
  @IsPositiveMinorAmount()
  maxSpendPerTransaction?: number | null;

  crossFieldErrors(): FieldError[] {
    if (this.state === undefined && this.fundingSources === undefined && this.maxSpendPerTransaction === undefined) {
      return [{ field: 'state', message: 'state, fundingSources or maxSpendPerTransaction is required' }];
    }
    const errors: FieldError[] = [];
    if (this.state === 'CLOSED' && this.fundingSources !== undefined) {
      errors.push({ field: 'fundingSources', message: 'fundingSources cannot be supplied with state CLOSED' });
    }
    if (this.state === 'CLOSED' && this.maxSpendPerTransaction !== undefined) {
      errors.push({ field: 'maxSpendPerTransaction', message: 'maxSpendPerTransaction cannot be supplied with state CLOSED' });
    }
    return errors;
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

  @ApiPropertyOptional({ description: 'Only cards with this internal account among their funding sources', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  accountId?: string;

  @ApiPropertyOptional({ description: "Only the card with this platform's own id", example: 'card-7781' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  platformCardId?: string;

  @ApiPropertyOptional({ enum: CARD_SORT_ORDERS, description: 'desc (default): newest first; asc: oldest first', example: 'desc' })
  @IsOptional()
  @IsOneOf(CARD_SORT_ORDERS)
  sortOrder?: CardSortOrder;
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

/** The platform's card transactions for the transaction list (`GET /transactions`), newest first. */
export class SearchCardTransactionsRequest extends PageQuery {
  @ApiPropertyOptional({ description: 'Only transactions funded by this internal account' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  accountId?: string;

  @ApiPropertyOptional({ description: "Only this cardholder's transactions", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @MatchesPattern(CUSTOMER_ID, 'a customer id (Customer:<uuid>)')
  customerId?: string;

  @ApiPropertyOptional({ description: 'Only transactions of the cardholder with this platform-side id', example: 'emp-7781' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  platformCustomerId?: string;

  @ApiPropertyOptional({ enum: CARD_TRANSACTION_STATUSES, description: 'Only transactions in this status', example: 'SETTLED' })
  @IsOptional()
  @IsOneOf(CARD_TRANSACTION_STATUSES)
  status?: CardTransactionStatus;

  @OptionalInstant('Created at or after this instant (ISO 8601)', '2025-10-01T00:00:00Z') createdAfter?: string;

  @OptionalInstant('Created before this instant (ISO 8601)', '2025-11-01T00:00:00Z') createdBefore?: string;

  @ApiPropertyOptional({ enum: CARD_SORT_ORDERS, description: 'desc (default): newest first; asc: oldest first', example: 'desc' })
  @IsOptional()
  @IsOneOf(CARD_SORT_ORDERS)
  sortOrder?: CardSortOrder;
}

export class GetCardTransactionRequest {
  @ApiProperty({ description: 'Card transaction id', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardTransactionId!: string;
}

/**
 * The spec's Currency object, as the simulators receive it: only `code` matters (the card's
 * currency, or USD for a USDC card); without it the amount is in the card's currency.
 */
export class CurrencyInput {
  @ApiPropertyOptional({
    description: "ISO 4217 code, or the crypto ticker: the card's currency, or USD for a USDC card (converted at par); the card's currency when omitted",
    example: 'USD',
  })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  code?: string;

  @ApiPropertyOptional({ description: 'Full name (informative)', example: 'United States Dollar' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ description: 'Currency symbol (informative)', example: '$' })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  symbol?: string;

  @ApiPropertyOptional({ description: 'Decimal places of the smallest unit (minimum 0); when given, must be those of `code`', example: 2, minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(18)
  decimals?: number;
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

  @ApiProperty({ type: CurrencyInput, description: "Currency of the amount: the card's currency, or USD for a USDC card" })
  @IsObject()
  @ValidateNested()
  @Type(() => CurrencyInput)
  currency!: CurrencyInput;

  @ApiProperty({ type: CardMerchantInput, description: 'The merchant' })
  @IsObject()
  @ValidateNested()
  @Type(() => CardMerchantInput)
  merchant!: CardMerchantInput;
}

/** Body of `simulate/balance_inquiry`: a zero-amount authorization, so no amount. */
export class SandboxCardBalanceInquiryBody {
  @ApiProperty({ type: CardMerchantInput, description: 'The merchant asking' })
  @IsObject()
  @ValidateNested()
  @Type(() => CardMerchantInput)
  merchant!: CardMerchantInput;
}

/** Body of `simulate/authorization_advice`: re-sizes an open authorization to a new total. */
export class SandboxCardAuthorizationAdviceBody {
  @ApiProperty({ description: 'The open authorization being re-sized', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(CARD_TRANSACTION_ID, 'a card transaction id (CardTransaction:<uuid>)')
  cardTransactionId!: string;

  @ApiProperty({ description: "The new total authorized amount, in the smallest unit of the transaction's currency (greater than 0)", example: 2000000 })
  @IsPositiveMinorAmount()
  amount!: number;
}

/** Body of `simulate/return_reversal`: only the refunded transaction. */
export class SandboxCardTransactionRefBody {
  @ApiProperty({ description: 'The refunded transaction whose return is reversed', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @MatchesPattern(CARD_TRANSACTION_ID, 'a card transaction id (CardTransaction:<uuid>)')
  cardTransactionId!: string;
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

export class SimulateBalanceInquiryRequest extends SandboxCardBalanceInquiryBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

export class SimulateAuthorizationAdviceRequest extends SandboxCardAuthorizationAdviceBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

export class SimulateReturnReversalRequest extends SandboxCardTransactionRefBody {
  @ApiProperty({ description: 'Card id', example: 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  cardId!: string;
}

/** Asks the card's details for a reveal page, by the token its URL carries. */
export class RedeemCardRevealRequest {
  @ApiProperty({ description: 'The reveal token of the URL', example: 'rvl_3q2...' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  token!: string;
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
