import { RefundStatus, TransactionStatus, TransactionType } from './enums';
import { InternalAccountRecord, Transaction } from './replies';

export const PAYMENTS_EVENTS = {
  /**
   * Written by releases before provisioning announced a customer's accounts in one event (below):
   * one per account. Still in the stream and in replays; nothing written today.
   */
  internalAccountCreated: 'payments.events.internal-account.created',
  /**
   * A customer's internal accounts were created (one event per provisioning of a customer, not per
   * account): wallet-auth sets up the embedded wallet it names, and the customers service learns
   * that the accounts exist and whether a wallet follows.
   */
  customerAccountsProvisioned: 'payments.events.customer-accounts.provisioned',
  /** An internal account's settings changed (e.g. embedded wallet privacy). */
  internalAccountUpdated: 'payments.events.internal-account.updated',
  /**
   * The balance of an internal account changed through a movement of its own (sandbox funding, a
   * transfer's hold, settlement or credit); `webhookType` INTERNAL_ACCOUNT.BALANCE_UPDATED, data = the
   * InternalAccount as GET returns it. Card holds and captures, batched for throughput, announce none.
   */
  internalAccountBalanceChanged: 'payments.events.internal-account.balance-changed',
  /** Every status an internal account enters after creation; `webhookType` INTERNAL_ACCOUNT.STATUS_UPDATED, data = the InternalAccount as GET returns it. */
  internalAccountStatusChanged: 'payments.events.internal-account.status-changed',
  /**
   * Every status a transaction enters; `webhookType` is `OUTGOING_PAYMENT.<STATUS>` or
   * `INCOMING_PAYMENT.<STATUS>` (none for an incoming PROCESSING, which the API announces no webhook for).
   */
  transactionStatusChanged: 'payments.events.transaction.status-changed',
  /**
   * A transaction's refund entered a status (PENDING, COMPLETED, FAILED); `webhookType`
   * `OUTGOING_PAYMENT.REFUND_<STATUS>` or `INCOMING_PAYMENT.REFUND_<STATUS>`, data = the Transaction
   * as GET returns it, its `refund` object included.
   */
  transactionRefundChanged: 'payments.events.transaction.refund-changed',
  /**
   * A regulated customer's quote waits for Strong Customer Authentication (`webhookType`
   * OUTGOING_PAYMENT.PENDING_AUTHORIZATION), or its challenge expired unanswered (OUTGOING_PAYMENT.FAILED,
   * SCA_NOT_COMPLETED): data = the transaction the quote's execution creates (it does not exist yet), with that status.
   */
  quoteAuthorizationChanged: 'payments.events.quote.authorization-changed',
  /** An invitation was claimed; `webhookType` INVITATION.CLAIMED, data = the Invitation as GET returns it. */
  invitationClaimed: 'payments.events.invitation.claimed',
} as const;

/** Webhook event types announced to the platform. Wire values: frozen. */
export const INTERNAL_ACCOUNT_WEBHOOK_TYPES = {
  statusUpdated: 'INTERNAL_ACCOUNT.STATUS_UPDATED',
  balanceUpdated: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
} as const;

/** The durable consumer name of the payments service on the customers' events. */
export const PAYMENTS_CUSTOMERS_CONSUMER = 'payments-customers';

/** The webhook types the API defines for a transaction entering a status (wire values: frozen). */
const TRANSACTION_WEBHOOK_STATUSES: Record<TransactionType, readonly TransactionStatus[]> = {
  OUTGOING: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'],
  INCOMING: ['PENDING', 'COMPLETED', 'FAILED'],
};

/** Webhook event type of a transaction entering `status`, or undefined when the API announces none for it. */
export function transactionWebhookType(type: TransactionType, status: TransactionStatus): string | undefined {
  if (!TRANSACTION_WEBHOOK_STATUSES[type].includes(status)) return undefined;
  return `${type === 'OUTGOING' ? 'OUTGOING_PAYMENT' : 'INCOMING_PAYMENT'}.${status}`;
}

/** The webhook types of a quote's Strong Customer Authentication (wire values: frozen). */
export const QUOTE_AUTHORIZATION_WEBHOOK_TYPES = {
  pendingAuthorization: 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
  notCompleted: 'OUTGOING_PAYMENT.FAILED',
} as const;

/** `data` of `payments.events.quote.authorization-changed`: the quote's transaction-to-be, PENDING_AUTHORIZATION or FAILED. */
export type QuoteAuthorizationTransaction = Omit<Transaction, 'status'> & { status: 'PENDING_AUTHORIZATION' | 'FAILED' };

/** Webhook event type of a transaction's refund entering `status` (the API defines one for each). */
export function transactionRefundWebhookType(type: TransactionType, status: RefundStatus): string {
  return `${type === 'OUTGOING' ? 'OUTGOING_PAYMENT' : 'INCOMING_PAYMENT'}.REFUND_${status}`;
}

/** `data` of `payments.events.internal-account.created`. */
export type InternalAccountCreatedData = InternalAccountRecord;

/** `data` of `payments.events.customer-accounts.provisioned`. */
export interface CustomerAccountsProvisionedData {
  customerId: string;
  /** The accounts this provisioning created. */
  accountIds: string[];
  /** The customer's EMBEDDED_WALLET account, when it has one: wallet-auth sets it up next. */
  walletAccountId?: string;
  /** The email the embedded wallet is bound to (its EMAIL_OTP credential's), with `walletAccountId`. */
  walletEmail?: string;
}
