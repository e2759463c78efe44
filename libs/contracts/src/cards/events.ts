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
} as const;
export const CARDS_WORK_FILTER = 'cards.events.work.>';
/** The durable consumer name of the cards service on its own work queue. */
export const CARDS_WORKER_CONSUMER = 'cards-worker';

/** Webhook event types (spec "Events"; INTEROP.md "Webhooks"). Wire values: frozen. */
export const CARD_WEBHOOK_TYPES = {
  STATE_CHANGE: 'CARD.STATE_CHANGE',
  FUNDING_SOURCE_CHANGE: 'CARD.FUNDING_SOURCE_CHANGE',
} as const;

/** Webhook event type of a card transaction entering `status` (wire values: frozen). */
export function cardTransactionWebhookType(status: CardTransactionStatus): string {
  return `CARD_TRANSACTION.${status}`;
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

/** `data` of CARDS_WORK_EVENTS.pullDue. */
export interface PullDueData {
  cardTransactionId: string;
}

/** `data` of CARDS_WORK_EVENTS.cardClosed. */
export interface CardClosedData {
  cardId: string;
}
