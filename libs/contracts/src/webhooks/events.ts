/** The durable consumer name of the webhooks service on the event stream. */
export const WEBHOOKS_CONSUMER = 'webhooks';
/** Every service's events. */
export const ALL_EVENTS_FILTER = '*.events.>';

/** Header carrying `{"v":"1","s":"<base64 DER ECDSA P-256/SHA-256 signature of the raw body>"}` (INTEROP.md). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Service-Signature';
export const WEBHOOK_SIGNATURE_VERSION = '1';
/** Event type of the sandbox test webhook (POST /sandbox/webhooks/test), as the API names it. Wire value: frozen. */
export const WEBHOOK_TEST_EVENT_TYPE = 'TEST';

/**
 * Webhook types the project once announced under another name, and the API's name for each.
 * Events written before a rename (still in an outbox, the bus or the inbox) are announced under
 * the current name, so a receiver only ever sees the API's names.
 */
export const RENAMED_WEBHOOK_TYPES: Readonly<Record<string, string>> = {
  'INTERNAL_ACCOUNT.STATUS_CHANGE': 'INTERNAL_ACCOUNT.STATUS_UPDATED',
  // A card transaction's hold placed (status CONFIRMED) is the reference's AUTHORIZED.
  'CARD_TRANSACTION.CONFIRMED': 'CARD_TRANSACTION.AUTHORIZED',
};

/** The name a webhook type is announced under today. */
export function currentWebhookType(type: string): string {
  return RENAMED_WEBHOOK_TYPES[type] ?? type;
}

/** The body POSTed to the platform's endpoint (INTEROP.md). */
export interface WebhookPayload<D = unknown> {
  id: string;
  type: string;
  timestamp: string;
  data: D;
}
