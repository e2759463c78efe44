import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  WEBHOOK_DELIVERY_ID_EXAMPLE,
  WEBHOOK_REPLAY_ID_EXAMPLE,
  WEBHOOK_REPLAY_ITEM_STATUSES,
  WEBHOOK_REPLAY_STATUSES,
  WebhookReplay,
  WebhookReplayItem,
  WebhookReplayItemStatus,
  WebhookReplayStatus,
} from '@paykit/contracts';

export class WebhookReplayFilterDto {
  @ApiPropertyOptional({ type: [String], example: ['OUTGOING_PAYMENT.COMPLETED'] }) types?: string[];
  @ApiPropertyOptional({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) resourceId?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-25T16:00:00.000Z' }) from?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-25T17:00:00.000Z' }) to?: string;
}

export class WebhookReplayItemDto implements WebhookReplayItem {
  @ApiProperty({ description: '1-based position: the original order of the events', type: 'integer', example: 1 }) position!: number;
  @ApiProperty({ description: 'The original delivery; its payload (same `id`, same bytes) is what is sent', example: WEBHOOK_DELIVERY_ID_EXAMPLE }) deliveryId!: string;
  @ApiProperty({ example: 'CUSTOMER.KYC_PENDING' }) type!: string;
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) resourceId!: string;
  @ApiProperty({ description: 'When the event happened', format: 'date-time', example: '2026-11-25T16:06:00.000Z' }) occurredAt!: string;
  @ApiProperty({ enum: WEBHOOK_REPLAY_ITEM_STATUSES, description: 'PENDING, then DELIVERED (2xx) or FAILED (anything else; not retried)', example: 'DELIVERED' })
  status!: WebhookReplayItemStatus;
  @ApiPropertyOptional({ description: 'What the receiver answered', type: 'integer', example: 200 }) statusCode?: number;
  @ApiPropertyOptional({ description: 'Why the attempt failed', example: 'Receiver answered HTTP 500' }) error?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-25T16:06:01.000Z' }) attemptedAt?: string;
}

export class WebhookReplayDto implements WebhookReplay {
  @ApiProperty({ description: 'Replay id; every replayed webhook carries it in the `X-Paykit-Replay` header', example: WEBHOOK_REPLAY_ID_EXAMPLE }) id!: string;
  @ApiProperty({ enum: WEBHOOK_REPLAY_STATUSES, description: 'RUNNING until every webhook has had its attempt', example: 'RUNNING' }) status!: WebhookReplayStatus;
  @ApiProperty({ description: 'Where the webhooks are sent', example: 'http://127.0.0.1:4242/webhooks' }) url!: string;
  @ApiProperty({ type: WebhookReplayFilterDto, description: 'The filter as given' }) filter!: WebhookReplayFilterDto;
  @ApiProperty({ description: 'Webhooks selected', type: 'integer', example: 3 }) total!: number;
  @ApiProperty({ description: 'Webhooks the receiver accepted', type: 'integer', example: 0 }) delivered!: number;
  @ApiProperty({ description: 'Webhooks the receiver did not accept', type: 'integer', example: 0 }) failed!: number;
  @ApiProperty({ format: 'date-time', example: '2026-11-25T16:06:00.000Z' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-11-25T16:06:02.000Z' }) completedAt?: string;
  @ApiProperty({ type: [WebhookReplayItemDto], description: 'Each selected webhook, in the order it is sent' }) items!: WebhookReplayItemDto[];
}
