/** The durable consumer name of the webhooks service on the event stream. */
export const WEBHOOKS_CONSUMER = 'webhooks';
/** Every service's events. */
export const ALL_EVENTS_FILTER = '*.events.>';

/** Header carrying `{"v":"1","s":"<base64 DER ECDSA P-256/SHA-256 signature of the raw body>"}` (INTEROP.md). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Service-Signature';
export const WEBHOOK_SIGNATURE_VERSION = '1';
/** Event type of the sandbox test webhook (POST /sandbox/webhooks/test). Wire value: frozen. */
export const WEBHOOK_TEST_EVENT_TYPE = 'WEBHOOK.TEST';

/** The body POSTed to the platform's endpoint (INTEROP.md). */
export interface WebhookPayload<D = unknown> {
  id: string;
  type: string;
  timestamp: string;
  data: D;
}
