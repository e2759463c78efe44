import { TransactionStatus, TransactionType } from './enums';
import { InternalAccountRecord } from './replies';

export const PAYMENTS_EVENTS = {
  /** Every internal account, when provisioned; EMBEDDED_WALLET ones carry `walletEmail`. */
  internalAccountCreated: 'payments.events.internal-account.created',
  /** An internal account's settings changed (e.g. embedded wallet privacy). */
  internalAccountUpdated: 'payments.events.internal-account.updated',
  /** Every status an internal account enters after creation; `webhookType` INTERNAL_ACCOUNT.STATUS_CHANGE, data = the InternalAccount as GET returns it. */
  internalAccountStatusChanged: 'payments.events.internal-account.status-changed',
  /** Every status a transaction enters; `webhookType` is `OUTGOING_PAYMENT.<STATUS>` or `INCOMING_PAYMENT.<STATUS>`. */
  transactionStatusChanged: 'payments.events.transaction.status-changed',
  /** An invitation was claimed; `webhookType` INVITATION.CLAIMED, data = the Invitation as GET returns it. */
  invitationClaimed: 'payments.events.invitation.claimed',
} as const;

/** Webhook event types announced to the platform. Wire values: frozen. */
export const INTERNAL_ACCOUNT_WEBHOOK_TYPES = {
  statusChange: 'INTERNAL_ACCOUNT.STATUS_CHANGE',
} as const;

/** The durable consumer name of the payments service on the customers' events. */
export const PAYMENTS_CUSTOMERS_CONSUMER = 'payments-customers';

/** Webhook event type of a transaction entering `status` (wire values: frozen). */
export function transactionWebhookType(type: TransactionType, status: TransactionStatus): string {
  return `${type === 'OUTGOING' ? 'OUTGOING_PAYMENT' : 'INCOMING_PAYMENT'}.${status}`;
}

/** `data` of `payments.events.internal-account.created`. */
export type InternalAccountCreatedData = InternalAccountRecord;
