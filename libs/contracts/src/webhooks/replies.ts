import { WebhookAttemptTrigger, WebhookDeliveryStatus } from './enums';
import { WebhookPayload } from './events';

/** The webhooks service's part of `GET /config`. */
export interface WebhooksPlatformConfig {
  /** Absent until the platform sets one. */
  webhookEndpoint?: string;
  /** PEM (SPKI) P-256 public key that verifies `X-Service-Signature`. */
  webhookPublicKey: string;
}

export interface WebhookDelivery {
  /** `Webhook:<uuid>`: also the payload `id`, the receiver's idempotency key. */
  id: string;
  type: string;
  resourceId: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  /** When the event happened (the payload's `timestamp`). */
  occurredAt: string;
  nextAttemptAt?: string;
  lastAttemptAt?: string;
  lastStatusCode?: number;
  lastError?: string;
  deliveredAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDeliveryAttempt {
  number: number;
  trigger: WebhookAttemptTrigger;
  attemptedAt: string;
  endpoint: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
  succeeded: boolean;
}

export interface WebhookDeliveryDetail extends WebhookDelivery {
  /** The exact payload sent (every attempt sends the same bytes). */
  payload: WebhookPayload;
  attempts: WebhookDeliveryAttempt[];
  /** The exact bytes every attempt POSTs (UTF-8 JSON), for checking `signature` over them. */
  body?: string;
  /** An `X-Service-Signature` value over `body` made now with the platform's signing key (each attempt signs afresh; any of them verifies). */
  signature?: string;
}

export interface WebhookTestResult {
  /** The endpoint the test webhook was POSTed to. */
  url: string;
  /** The HTTP status the endpoint answered (the API's snake_case names). */
  response_status: number;
  /** What the endpoint answered, as text (at most 64 KiB). */
  response_body?: string;
  /** The test payload id. */
  id: string;
  type: string;
  /** Same as `url` (kept for earlier clients). */
  endpoint: string;
  /** Same as `response_status` (kept for earlier clients). */
  statusCode: number;
  latencyMs: number;
}

export interface ReceivedEvent {
  eventId: string;
  subject: string;
  webhookType?: string;
  resourceId: string;
  receivedAt: string;
  /** How many times the bus delivered this event after the first (at-least-once delivery). */
  redeliveries: number;
}
