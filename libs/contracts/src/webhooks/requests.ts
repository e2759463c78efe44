import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOneOf, MatchesPattern } from '@paykit/validation';
import { IsNotEmpty, IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';
import { PageQuery } from '../common';
import { WEBHOOK_DELIVERY_STATUSES, WebhookDeliveryStatus } from './enums';

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
    description: 'Where webhooks are POSTed: an http or https URL without credentials; loopback addresses are allowed (local receivers). `null` removes it.',
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
