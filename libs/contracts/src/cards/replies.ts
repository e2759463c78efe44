import type { Currency, Money } from '../payments';
import {
  CardBrand,
  CardDeclineReason,
  CardExceptionReason,
  CardExpiryReason,
  CardForm,
  CardState,
  CardStateReason,
  CardTransactionDirection,
  CardTransactionStatus,
  CardTransactionType,
} from './enums';

export interface Card {
  id: string;
  cardholderId: string;
  platformCardId?: string;
  form: CardForm;
  /** Ordered; empty once the card is CLOSED (bindings detached). */
  fundingSources: string[];
  /** Largest amount one authorization may take, in the card currency's smallest unit; null: no limit. */
  maxSpendPerTransaction: number | null;
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
  /** Always CARD: how the transaction list tells card transactions from payments. */
  type: 'CARD';
  id: string;
  cardId: string;
  customerId: string;
  /** The cardholder's platform-side id, as it was when the card was issued. */
  platformCustomerId: string;
  /** The funding source the money moved on (the card's first at authorization). */
  accountId: string;
  issuerTransactionToken: string;
  /** The network message that opened the transaction. */
  operation: CardTransactionType;
  direction: CardTransactionDirection;
  status: CardTransactionStatus;
  merchant: CardMerchant;
  currency: Currency;
  authorizedAmount: Money;
  settledAmount: Money;
  refundedAmount: Money;
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

/** Answer of `POST /cards/{id}/reveal`: a short-lived bearer URL of the page that shows the card details. */
export interface CardReveal {
  panEmbedUrl: string;
  expiresAt: string;
}

/** The cards service's answer to a reveal: the token the gateway puts in the page URL. */
export interface CardRevealGrant {
  token: string;
  expiresAt: string;
}

/** What the reveal page shows: never logged, never stored in plain text. */
export interface CardDetails {
  cardId: string;
  pan: string;
  cvv: string;
  expMonth: number;
  expYear: number;
}

export interface SandboxCardSimulationResponse {
  issuerTransactionToken: string;
}
