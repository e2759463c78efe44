import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

export const WEBHOOKS_SUBJECTS = {
  listReceivedEvents: 'webhooks.received-event.list',
} as const;

/** The durable consumer name of the webhooks service on the event stream. */
export const WEBHOOKS_CONSUMER = 'webhooks';
/** Every service's events. */
export const ALL_EVENTS_FILTER = '*.events.>';

export class ListReceivedEventsRequest {
  @ApiPropertyOptional({ description: 'Only events about this resource' })
  @IsOptional()
  @IsString()
  resourceId?: string;
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
}
