import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Page,
  WEBHOOK_ATTEMPT_TRIGGERS,
  WEBHOOK_DELIVERY_ID_EXAMPLE,
  WEBHOOK_DELIVERY_STATUSES,
  WebhookAttemptTrigger,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookDeliveryDetail,
  WebhookDeliveryStatus,
  WebhookPayload,
  WebhookTestResult,
} from '@paykit/contracts';

const AT = '2025-10-13T12:00:00.000Z';

export class WebhookDeliveryDto implements WebhookDelivery {
  @ApiProperty({ description: 'Delivery id; also the `id` of the payload, for the receiver to deduplicate', example: WEBHOOK_DELIVERY_ID_EXAMPLE })
  id!: string;

  @ApiProperty({ description: 'Event type', example: 'CUSTOMER.KYC_PENDING' })
  type!: string;

  @ApiProperty({ description: 'The resource the event is about (the payload `data.id`)', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  resourceId!: string;

  @ApiProperty({
    enum: WEBHOOK_DELIVERY_STATUSES,
    description:
      'PENDING: waiting for its first or next attempt, or for an earlier event of the same resource; SUCCEEDED: the endpoint answered 2xx; ' +
      'FAILED: retried for 7 days without success, or not retried (the endpoint answered 409, a duplicate; or a TEST or INCOMING_PAYMENT.PENDING webhook failed); SKIPPED: no endpoint was configured when the event happened (redeliver sends it)',
    example: 'SUCCEEDED',
  })
  status!: WebhookDeliveryStatus;

  @ApiProperty({ description: 'Attempts made so far', example: 1 })
  attemptCount!: number;

  @ApiProperty({ description: 'When the event happened (the payload `timestamp`)', example: AT })
  occurredAt!: string;

  @ApiPropertyOptional({ description: 'PENDING only: when the next attempt is due', example: AT })
  nextAttemptAt?: string;

  @ApiPropertyOptional({ example: AT }) lastAttemptAt?: string;

  @ApiPropertyOptional({ description: 'HTTP status of the last attempt, when the endpoint answered', example: 200 })
  lastStatusCode?: number;

  @ApiPropertyOptional({ description: 'Why the last attempt failed', example: 'Receiver answered HTTP 500' })
  lastError?: string;

  @ApiPropertyOptional({ description: 'When a 2xx was received', example: AT })
  deliveredAt?: string;

  @ApiProperty({ example: AT }) createdAt!: string;
  @ApiProperty({ example: AT }) updatedAt!: string;
}

export class WebhookDeliveryAttemptDto implements WebhookDeliveryAttempt {
  @ApiProperty({ description: '1 for the first attempt', example: 1 }) number!: number;

  @ApiProperty({ enum: WEBHOOK_ATTEMPT_TRIGGERS, description: 'SCHEDULED (first try and retries) or MANUAL (redelivery on demand)', example: 'SCHEDULED' })
  trigger!: WebhookAttemptTrigger;

  @ApiProperty({ example: AT }) attemptedAt!: string;
  @ApiProperty({ description: 'The URL the attempt was POSTed to', example: 'https://platform.example.com/webhooks/paykit' }) endpoint!: string;
  @ApiPropertyOptional({ description: 'HTTP status answered, absent when no answer came (timeout, refused connection...)', example: 500 }) statusCode?: number;
  @ApiProperty({ description: 'Time until the answer (or the failure), in milliseconds', example: 42 }) latencyMs!: number;
  @ApiPropertyOptional({ example: 'Timed out after 10000 ms' }) error?: string;
  @ApiProperty({ example: false }) succeeded!: boolean;
}

export class WebhookPayloadDto implements WebhookPayload {
  @ApiProperty({ example: WEBHOOK_DELIVERY_ID_EXAMPLE }) id!: string;
  @ApiProperty({ example: 'CUSTOMER.KYC_PENDING' }) type!: string;
  @ApiProperty({ description: 'When the event happened', example: AT }) timestamp!: string;
  @ApiProperty({
    description: 'The resource exactly as its GET returns it',
    type: 'object',
    additionalProperties: true,
    example: { id: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69', kycStatus: 'PENDING' },
  })
  data!: Record<string, unknown>;
}

export class WebhookDeliveryDetailDto extends WebhookDeliveryDto implements WebhookDeliveryDetail {
  @ApiProperty({ type: WebhookPayloadDto, description: 'The exact payload every attempt sends' })
  payload!: WebhookPayloadDto;

  @ApiProperty({ type: [WebhookDeliveryAttemptDto], description: 'Every attempt, oldest first' })
  attempts!: WebhookDeliveryAttemptDto[];

  @ApiPropertyOptional({
    description: 'The exact bytes every attempt POSTs (UTF-8 JSON): verify `signature` over these',
    example: '{"id":"Webhook:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69"}',
  })
  body?: string;

  @ApiPropertyOptional({
    description:
      'An `X-Service-Signature` value over `body`, made now with the platform signing key: it verifies with the `webhookPublicKey` of `GET /config` exactly as a received webhook does ' +
      '(ECDSA signatures differ on every signing; each attempt carried its own)',
    example: '{"v":"1","s":"MEUCIQ..."}',
  })
  signature?: string;
}

export class WebhookDeliveryPageDto implements Page<WebhookDelivery> {
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'Newest first' }) data!: WebhookDeliveryDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page', example: 'ZDQy' }) nextCursor?: string;
}

export class WebhookTestResultDto implements WebhookTestResult {
  @ApiProperty({ description: 'The endpoint the test webhook was POSTed to', format: 'uri', example: 'https://platform.example.com/webhooks/paykit' }) url!: string;
  @ApiProperty({ description: 'The HTTP status the endpoint answered (2xx)', type: 'integer', example: 200 }) response_status!: number;
  @ApiPropertyOptional({ description: 'What the endpoint answered, as text (at most 64 KiB)', example: 'ok' }) response_body?: string;
  @ApiProperty({ description: 'The test payload id', example: WEBHOOK_DELIVERY_ID_EXAMPLE }) id!: string;
  @ApiProperty({ description: 'The payload type', example: 'TEST' }) type!: string;
  @ApiProperty({ description: 'Same as `url`', example: 'https://platform.example.com/webhooks/paykit' }) endpoint!: string;
  @ApiProperty({ description: 'Same as `response_status`', type: 'integer', example: 200 }) statusCode!: number;
  @ApiProperty({ description: 'How long the endpoint took to answer, in milliseconds', example: 37 }) latencyMs!: number;
}
