import { ApiPropertyOptional } from '@nestjs/swagger';
import { MatchesPattern } from '@paykit/validation';
import { ArrayMaxSize, IsArray, IsISO8601, IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';

export const WEBHOOK_REPLAY_ID_TYPE = 'WebhookReplay';
export const WEBHOOK_REPLAY_ID_EXAMPLE = 'WebhookReplay:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
/** The header that marks a replayed webhook: the replay's id. The body, its `id` and its signature are the original's. */
export const WEBHOOK_REPLAY_HEADER = 'x-paykit-replay';
/** Most webhooks one replay sends: narrow the filter for more. */
export const MAX_WEBHOOK_REPLAY_SIZE = 1_000;

/** RUNNING until every webhook of the replay has had its one attempt, then COMPLETED. Wire values: frozen. */
export const WEBHOOK_REPLAY_STATUSES = ['RUNNING', 'COMPLETED'] as const;
export type WebhookReplayStatus = (typeof WEBHOOK_REPLAY_STATUSES)[number];
/** Each replayed webhook: PENDING, then DELIVERED (2xx) or FAILED (anything else; not retried). Wire values: frozen. */
export const WEBHOOK_REPLAY_ITEM_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type WebhookReplayItemStatus = (typeof WEBHOOK_REPLAY_ITEM_STATUSES)[number];

const EVENT_TYPE = /^[A-Z0-9_]+(\.[A-Z0-9_]+)+$/;

/** Body of `POST /sandbox/webhooks/replay`: which of the platform's webhooks to send again, and where. */
export class ReplayWebhooksRequest {
  @ApiPropertyOptional({ description: 'Only webhooks of these types', type: [String], example: ['OUTGOING_PAYMENT.COMPLETED'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @MatchesPattern(EVENT_TYPE, 'an event type such as CUSTOMER.KYC_PENDING', { each: true })
  types?: string[];

  @ApiPropertyOptional({ description: 'Only webhooks about this resource', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  resourceId?: string;

  @ApiPropertyOptional({
    description: 'Only webhooks of events that happened at or after this time (the payload `timestamp`)',
    format: 'date-time',
    example: '2026-11-25T16:00:00.000Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ description: 'Only webhooks of events that happened before this time', format: 'date-time', example: '2026-11-25T17:00:00.000Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({
    description: "Where to send them (an http or https URL, loopback allowed: a local listener such as `npm run webhooks:listen`); default the platform's webhook endpoint",
    example: 'http://127.0.0.1:4242/webhooks',
  })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false, disallow_auth: true, allow_underscores: true })
  @MaxLength(2048)
  url?: string;
}

export class WebhookReplayIdRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  replayId!: string;
}

export interface WebhookReplayItem {
  /** 1-based position: the original order (when the events happened, then when they were received). */
  position: number;
  /** The original delivery, whose payload (same `id`, same bytes) is sent. */
  deliveryId: string;
  type: string;
  resourceId: string;
  occurredAt: string;
  status: WebhookReplayItemStatus;
  statusCode?: number;
  error?: string;
  attemptedAt?: string;
}

export interface WebhookReplay {
  id: string;
  status: WebhookReplayStatus;
  url: string;
  filter: { types?: string[]; resourceId?: string; from?: string; to?: string };
  total: number;
  delivered: number;
  failed: number;
  createdAt: string;
  completedAt?: string;
  items: WebhookReplayItem[];
}
