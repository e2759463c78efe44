import type { Currency } from '../payments';
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
