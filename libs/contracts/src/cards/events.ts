import type { Environment } from '../common';
import type { Currency } from '../payments';
import { CardTransactionStatus } from './enums';
import { CardMerchant } from './replies';

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

/**
 * Webhook event type of a card transaction entering `status`, in the reference's names where it
 * has one (CONFIRMED, the hold placed, is its AUTHORIZED); PENDING, DECLINED and EXPIRED, which
 * the reference does not name, keep their own (docs/reference-divergences.md). Wire values: frozen.
 */
export const CARD_TRANSACTION_WEBHOOK_TYPES: Readonly<Record<CardTransactionStatus, string>> = {
  PENDING: 'CARD_TRANSACTION.PENDING',
  CONFIRMED: 'CARD_TRANSACTION.AUTHORIZED',
  SETTLED: 'CARD_TRANSACTION.SETTLED',
  REFUNDED: 'CARD_TRANSACTION.REFUNDED',
  DECLINED: 'CARD_TRANSACTION.DECLINED',
  EXPIRED: 'CARD_TRANSACTION.EXPIRED',
  EXCEPTION: 'CARD_TRANSACTION.EXCEPTION',
};

export function cardTransactionWebhookType(status: CardTransactionStatus): string {
  return CARD_TRANSACTION_WEBHOOK_TYPES[status];
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
  amount: number;
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
