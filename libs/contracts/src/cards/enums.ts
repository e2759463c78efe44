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
/**
 * The card currencies and what a card network message may be denominated in: a USDC card
 * transacts in US dollars at par (one cent is 10^4 of USDC's smallest unit), so a merchant
 * authorization in USD is converted to the card currency's smallest unit on arrival.
 */
export const CARD_CURRENCY_DETAILS = {
  USDC: { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6, peggedTo: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 } },
} as const;
export const CARD_BRANDS = ['VISA'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** The card network's operations the sandbox simulates. */
export const CARD_TRANSACTION_TYPES = [
  'AUTHORIZATION',
  'BALANCE_INQUIRY',
  'CREDIT_AUTHORIZATION',
  'FINANCIAL_AUTHORIZATION',
  'FINANCIAL_CREDIT_AUTHORIZATION',
  'CREDIT_AUTHORIZATION_ADVICE',
] as const;
export type CardTransactionType = (typeof CARD_TRANSACTION_TYPES)[number];
/** `type` of every card transaction in the transaction list (the reference's discriminator). */
export const CARD_TRANSACTION_KIND = 'CARD' as const;

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
/** TRANSACTION_SIZE_LIMIT_EXCEEDED: the amount is above the card's `maxSpendPerTransaction`. */
export const CARD_DECLINE_REASONS = [
  'INSUFFICIENT_FUNDS',
  'CARD_PAUSED',
  'CARD_CLOSED',
  'CARD_NOT_ACTIVE',
  'FUNDING_SOURCE_UNAVAILABLE',
  'TRANSACTION_SIZE_LIMIT_EXCEEDED',
] as const;
export type CardDeclineReason = (typeof CARD_DECLINE_REASONS)[number];
export const CARD_EXPIRY_REASONS = ['AUTHORIZATION_EXPIRY', 'CARD_CLOSED'] as const;
export type CardExpiryReason = (typeof CARD_EXPIRY_REASONS)[number];
export const CARD_EXCEPTION_REASONS = ['CONFIRMATION_FAILED', 'EXCESS_PULL_FAILED', 'FORCE_POST_FAILED', 'RETURN_REVERSAL_FAILED'] as const;
export type CardExceptionReason = (typeof CARD_EXCEPTION_REASONS)[number];

/** A card carries at most this many ordered funding sources. */
export const MAX_FUNDING_SOURCES = 10;
