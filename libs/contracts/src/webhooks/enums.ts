/**
 * PENDING: waiting for its first or next attempt (or for an earlier event of the same resource);
 * SUCCEEDED: a 2xx was received; FAILED: retries exhausted (about 24 h);
 * SKIPPED: no endpoint was configured when the event happened (redeliver sends it). Wire values: frozen.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'SKIPPED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_ATTEMPT_TRIGGERS = ['SCHEDULED', 'MANUAL'] as const;
export type WebhookAttemptTrigger = (typeof WEBHOOK_ATTEMPT_TRIGGERS)[number];
