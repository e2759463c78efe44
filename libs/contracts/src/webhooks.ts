import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { IsOneOf, MatchesPattern } from '@paykit/validation';
import { Page, PageQuery } from './common';

// ---- Subjects (wire values: frozen) ----
export const WEBHOOKS_SUBJECTS = {
  listReceivedEvents: 'webhooks.received-event.list',
  getConfig: 'webhooks.config.get',
  updateConfig: 'webhooks.config.update',
  listDeliveries: 'webhooks.delivery.list',
  getDelivery: 'webhooks.delivery.get',
  redeliver: 'webhooks.delivery.redeliver',
  sendTest: 'webhooks.sandbox.test',
} as const;

/** The durable consumer name of the webhooks service on the event stream. */
export const WEBHOOKS_CONSUMER = 'webhooks';
/** Every service's events. */
export const ALL_EVENTS_FILTER = '*.events.>';

/** Header carrying `{"v":"1","s":"<base64 DER ECDSA P-256/SHA-256 signature of the raw body>"}` (INTEROP.md). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Service-Signature';
export const WEBHOOK_SIGNATURE_VERSION = '1';
/** Event type of the sandbox test webhook (POST /sandbox/webhooks/test). Wire value: frozen. */
export const WEBHOOK_TEST_EVENT_TYPE = 'WEBHOOK.TEST';

/**
 * PENDING: waiting for its first or next attempt (or for an earlier event of the same resource);
 * SUCCEEDED: a 2xx was received; FAILED: retries exhausted (about 24 h);
 * SKIPPED: no endpoint was configured when the event happened (redeliver sends it). Wire values: frozen.
 */
export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'SKIPPED'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_ATTEMPT_TRIGGERS = ['SCHEDULED', 'MANUAL'] as const;
export type WebhookAttemptTrigger = (typeof WEBHOOK_ATTEMPT_TRIGGERS)[number];

const EVENT_TYPE = /^[A-Z0-9_]+(\.[A-Z0-9_]+)+$/;
export const WEBHOOK_DELIVERY_ID_EXAMPLE = 'Webhook:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

// ---- Request payloads ----
export class ListReceivedEventsRequest {
  @ApiPropertyOptional({ description: 'Only events about this resource' })
  @IsOptional()
  @IsString()
  resourceId?: string;
}

export class UpdateWebhookConfigRequest {
  @ApiPropertyOptional({
    description:
      'Where webhooks are POSTed: an http or https URL without credentials; loopback addresses are allowed (local receivers). `null` removes it.',
    example: 'https://platform.example.com/webhooks/paykit',
    nullable: true,
    type: String,
  })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false, disallow_auth: true, allow_underscores: true })
  @MaxLength(2048)
  webhookEndpoint?: string | null;
}

export class ListWebhookDeliveriesRequest extends PageQuery {
  @ApiPropertyOptional({ description: 'Only deliveries of this event type', example: 'CUSTOMER.KYC_PENDING' })
  @IsOptional()
  @MatchesPattern(EVENT_TYPE, 'an event type such as CUSTOMER.KYC_PENDING')
  type?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATUSES, description: 'Only deliveries in this status', example: 'FAILED' })
  @IsOptional()
  @IsOneOf(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;

  @ApiPropertyOptional({ description: 'Only deliveries about this resource', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  resourceId?: string;
}

export class WebhookDeliveryIdRequest {
  @ApiProperty({ description: 'Delivery id (the `id` of the webhook payload)', example: WEBHOOK_DELIVERY_ID_EXAMPLE })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  deliveryId!: string;
}

// ---- Replies ----
/** The webhooks service's part of `GET /config`. */
export interface WebhooksPlatformConfig {
  /** Absent until the platform sets one. */
  webhookEndpoint?: string;
  /** PEM (SPKI) P-256 public key that verifies `X-Service-Signature`. */
  webhookPublicKey: string;
}

/** The body POSTed to the platform's endpoint (INTEROP.md). */
export interface WebhookPayload<D = unknown> {
  id: string;
  type: string;
  timestamp: string;
  data: D;
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
}

export interface WebhookTestResult {
  id: string;
  type: string;
  endpoint: string;
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

export interface WebhooksContract {
  [WEBHOOKS_SUBJECTS.listReceivedEvents]: { request: ListReceivedEventsRequest; reply: ReceivedEvent[] };
  [WEBHOOKS_SUBJECTS.getConfig]: { request: Record<string, never>; reply: WebhooksPlatformConfig };
  [WEBHOOKS_SUBJECTS.updateConfig]: { request: UpdateWebhookConfigRequest; reply: WebhooksPlatformConfig };
  [WEBHOOKS_SUBJECTS.listDeliveries]: { request: ListWebhookDeliveriesRequest; reply: Page<WebhookDelivery> };
  [WEBHOOKS_SUBJECTS.getDelivery]: { request: WebhookDeliveryIdRequest; reply: WebhookDeliveryDetail };
  [WEBHOOKS_SUBJECTS.redeliver]: { request: WebhookDeliveryIdRequest; reply: WebhookDelivery };
  [WEBHOOKS_SUBJECTS.sendTest]: { request: Record<string, never>; reply: WebhookTestResult };
}
