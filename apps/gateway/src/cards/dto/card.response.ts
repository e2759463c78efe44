import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Card,
  CARD_BRANDS,
  CARD_DECLINE_REASONS,
  CARD_EXCEPTION_REASONS,
  CARD_EXPIRY_REASONS,
  CARD_FORMS,
  CARD_STATE_REASONS,
  CARD_STATES,
  CARD_TRANSACTION_DIRECTIONS,
  CARD_TRANSACTION_STATUSES,
  CARD_TRANSACTION_TYPES,
  CardBrand,
  CardDeclineReason,
  CardExceptionReason,
  CardExpiryReason,
  CardForm,
  CardMerchant,
  CardState,
  CardStateReason,
  CardTransaction,
  CardTransactionDirection,
  CardTransactionException,
  CardTransactionStatus,
  CardTransactionType,
  CardReveal,
  Currency,
  Money,
  Page,
  SandboxCardSimulationResponse,
} from '@paykit/contracts';

const CARD_ID = 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
const NOW = '2025-10-13T12:00:00.000Z';

/** OpenAPI description of the Card resource (the reply is passed through as the service shaped it). */
export class CardResponseDto implements Card {
  @ApiProperty({ description: 'Card id', example: CARD_ID }) id!: string;
  @ApiProperty({ description: 'The cardholder', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) cardholderId!: string;
  @ApiPropertyOptional({ description: "The platform's own id for the card", example: 'card-7781' }) platformCardId?: string;
  @ApiProperty({ enum: CARD_FORMS, description: 'Card form', example: 'VIRTUAL' }) form!: CardForm;
  @ApiProperty({
    type: [String],
    description: 'Ordered funding sources (internal accounts); the first is used for authorizations; empty once CLOSED (bindings detached)',
    example: ['InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
  })
  fundingSources!: string[];
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    nullable: true,
    description: "Largest amount a single authorization may take, in the smallest unit of the card's currency (exactly this amount is allowed); null: no limit",
    example: 50000000,
  })
  maxSpendPerTransaction!: number | null;
  @ApiProperty({ enum: CARD_STATES, description: 'Card state', example: 'ACTIVE' }) state!: CardState;
  @ApiPropertyOptional({ enum: CARD_STATE_REASONS, description: 'Why the card is in its state', example: 'CLOSED_BY_PLATFORM' }) stateReason?: CardStateReason;
  @ApiProperty({ description: 'Last four digits of the card number', example: '0123' }) last4!: string;
  @ApiProperty({ enum: CARD_BRANDS, description: 'Card network brand', example: 'VISA' }) brand!: CardBrand;
  @ApiProperty({ description: 'Expiry month (1-12)', example: 10 }) expMonth!: number;
  @ApiProperty({ description: 'Expiry year', example: 2028 }) expYear!: number;
  @ApiProperty({ description: "Card currency (the funding sources' currency)", example: 'USDC' }) currency!: string;
  @ApiProperty({ example: NOW }) createdAt!: string;
  @ApiProperty({ example: NOW }) updatedAt!: string;
}

export class CardPageDto implements Page<Card> {
  @ApiProperty({ type: [CardResponseDto], description: 'Cards, newest first' }) data!: CardResponseDto[];
  @ApiProperty({ description: 'Whether another page follows', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Cards matching the filters, all pages', example: 1 }) totalCount!: number;
}

export class CurrencyDto implements Currency {
  @ApiProperty({ description: 'ISO 4217 code or crypto ticker', example: 'USDC' }) code!: string;
  @ApiProperty({ description: 'Full name', example: 'USD Coin' }) name!: string;
  @ApiProperty({ description: 'Symbol', example: 'USDC' }) symbol!: string;
  @ApiProperty({ description: 'Decimal places of the smallest unit', example: 6 }) decimals!: number;
}

export class MoneyDto implements Money {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Amount in the smallest unit of the currency', example: 2500000 }) amount!: number;
  @ApiProperty({ type: CurrencyDto }) currency!: CurrencyDto;
}

export class CardMerchantDto implements CardMerchant {
  @ApiProperty({ description: 'Merchant descriptor', example: 'COFFEE SHOP 001' }) descriptor!: string;
  @ApiPropertyOptional({ description: 'ISO 18245 merchant category code', example: '5814' }) mcc?: string;
  @ApiPropertyOptional({ description: 'ISO 3166-1 alpha-2 country', example: 'US' }) country?: string;
}

export class CardTransactionExceptionDto implements CardTransactionException {
  @ApiProperty({ enum: ['HIGH'], description: 'Alert urgency', example: 'HIGH' }) urgency!: 'HIGH';
  @ApiProperty({ enum: CARD_EXCEPTION_REASONS, description: 'What failed', example: 'CONFIRMATION_FAILED' }) reason!: CardExceptionReason;
  @ApiProperty({ description: 'Human-readable explanation', example: 'The pull succeeded but the network confirmation reported FAILED' }) message!: string;
}

export class CardTransactionResponseDto implements CardTransaction {
  @ApiProperty({ enum: ['CARD'], description: 'Always CARD: tells card transactions apart in the transaction list', example: 'CARD' }) type!: 'CARD';
  @ApiProperty({ description: 'Card transaction id', example: 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: 'The card', example: CARD_ID }) cardId!: string;
  @ApiProperty({ description: 'The cardholder', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiProperty({ description: "The cardholder's platform-side id (as when the card was issued)", example: 'emp-7781' }) platformCustomerId!: string;
  @ApiProperty({ description: 'Funding source the money moved on', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ description: "The card issuer's token of the network message", example: 'itx_0190f1c27a6b7cc19a2e1f2d3c4b5a69' }) issuerTransactionToken!: string;
  @ApiProperty({ enum: CARD_TRANSACTION_TYPES, description: 'The network message that opened the transaction', example: 'AUTHORIZATION' })
  operation!: CardTransactionType;
  @ApiProperty({ enum: CARD_TRANSACTION_DIRECTIONS, description: 'DEBIT takes money from the funding source, CREDIT puts it back', example: 'DEBIT' })
  direction!: CardTransactionDirection;
  @ApiProperty({ enum: CARD_TRANSACTION_STATUSES, description: 'Status', example: 'CONFIRMED' }) status!: CardTransactionStatus;
  @ApiProperty({ type: CardMerchantDto }) merchant!: CardMerchantDto;
  @ApiProperty({ type: CurrencyDto, description: "The card currency (every amount's)" }) currency!: CurrencyDto;
  @ApiProperty({ type: MoneyDto, description: 'Authorized amount (re-sized by an authorization advice)' }) authorizedAmount!: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'Posted (cleared or credited) amount' }) settledAmount!: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'Returned amount so far (non-zero after a partial return)' }) refundedAmount!: MoneyDto;
  @ApiPropertyOptional({ enum: CARD_DECLINE_REASONS, description: 'Why it was declined', example: 'INSUFFICIENT_FUNDS' }) declineReason?: CardDeclineReason;
  @ApiPropertyOptional({ enum: CARD_EXPIRY_REASONS, description: 'Why the authorization ended without clearing', example: 'AUTHORIZATION_EXPIRY' })
  expiryReason?: CardExpiryReason;
  @ApiPropertyOptional({ type: CardTransactionExceptionDto, description: 'High-urgency alert (EXCEPTION status)' }) exception?: CardTransactionExceptionDto;
  @ApiProperty({ description: 'Posted by a late clearing without a live authorization', example: false }) forcePosted!: boolean;
  @ApiProperty({ example: NOW }) authorizedAt!: string;
  @ApiPropertyOptional({ example: NOW }) settledAt?: string;
  @ApiProperty({ example: NOW }) createdAt!: string;
  @ApiProperty({ example: NOW }) updatedAt!: string;
}

export class CardTransactionPageDto implements Page<CardTransaction> {
  @ApiProperty({ type: [CardTransactionResponseDto], description: 'Card transactions, newest first' }) data!: CardTransactionResponseDto[];
  @ApiProperty({ description: 'Whether another page follows', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
}

export class CardRevealResponseDto implements CardReveal {
  @ApiProperty({
    format: 'uri',
    description:
      'Single-use URL of the page showing the full card number, security code and expiry to the cardholder; a bearer secret until `expiresAt`: render it at once, never store or log it',
    example: 'https://api.example/card-reveal/3q2-7wEAAAB5Q0nq6zQ4bM0Yt2KXvq0n7mT9p5b1c2d',
  })
  panEmbedUrl!: string;
  @ApiProperty({ format: 'date-time', description: 'When the URL stops working (5 minutes after minting)', example: NOW }) expiresAt!: string;
}

export class SandboxCardSimulationResponseDto implements SandboxCardSimulationResponse {
  @ApiProperty({
    description:
      "The card issuer's token for the simulated event; the card operation it causes arrives later through the events webhook (CARD_TRANSACTION.*) carrying the same token",
    example: 'itx_0190f1c27a6b7cc19a2e1f2d3c4b5a69',
  })
  issuerTransactionToken!: string;
}
