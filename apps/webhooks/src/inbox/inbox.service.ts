import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ALL_EVENTS_FILTER, CallerContext, DomainEvent, newId, ReceivedEvent, WEBHOOKS_CONSUMER } from '@paykit/contracts';
import { returningRows } from '@paykit/persistence';
import { EVENT_BUS, EventBus } from '@paykit/transport';
import { webhookBody } from '../deliveries/delivery.mapper';
import { DeliveryWorker } from '../deliveries/delivery.worker';
import { ReceivedEventEntity } from './entities/received-event.entity';

/**
 * One statement, so it is atomic without a transaction: the event is stored once (repeats only
 * bump a counter), and an event announced to the platform (`webhookType`) becomes exactly one
 * delivery (unique event id). Without an endpoint the delivery is recorded as SKIPPED.
 */
const RECEIVE_SQL = `
  WITH received AS (
    INSERT INTO received_event (event_id, subject, platform_id, resource_id, webhook_type, event)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (event_id) DO UPDATE SET redeliveries = received_event.redeliveries + 1
    RETURNING event_id
  ), endpoint AS (
    SELECT EXISTS (SELECT 1 FROM webhook_platform WHERE platform_id = $3 AND endpoint_url IS NOT NULL) AS configured
  )
  INSERT INTO webhook_delivery (id, event_id, platform_id, resource_id, type, body, occurred_at, status, next_attempt_at, updated_at)
  SELECT $7, received.event_id, $3, $4, $5, $8, $9,
         CASE WHEN endpoint.configured THEN 'PENDING' ELSE 'SKIPPED' END,
         CASE WHEN endpoint.configured THEN $10::timestamptz END,
         $10
    FROM received, endpoint
   WHERE $5::text IS NOT NULL
  ON CONFLICT (event_id) DO NOTHING
  RETURNING status`;

/** Events stored at once (each one statement); the bus keeps each resource's events in order. */
const RECEIVE_CONCURRENCY = 32;

/**
 * The webhooks service's durable subscription to every service's events. The bus delivers
 * at least once; this is where repeats stop.
 */
@Injectable()
export class InboxService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private accepting = false;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly worker: DeliveryWorker,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.accepting = true;
    await this.bus.consume(WEBHOOKS_CONSUMER, ALL_EVENTS_FILTER, (event) => this.receive(event), { concurrency: RECEIVE_CONCURRENCY });
  }

  beforeApplicationShutdown(): void {
    // Refused events stay with the bus (unacknowledged) until a running instance takes them.
    this.accepting = false;
  }

  async receive(event: DomainEvent): Promise<void> {
    if (!this.accepting) throw new Error('The webhooks service is stopping');
    const deliveryId = newId('Webhook');
    // The payload's `timestamp` is when the event happened; `data` is the resource as its GET returns it.
    const body = event.webhookType ? webhookBody({ id: deliveryId, type: event.webhookType, timestamp: event.occurredAt, data: event.data }) : null;
    const rows = await returningRows<{ status: string }>(this.dataSource, RECEIVE_SQL, [
      event.eventId,
      event.subject,
      event.platformId,
      event.resourceId,
      event.webhookType ?? null,
      JSON.stringify(event),
      deliveryId,
      body,
      event.occurredAt,
      new Date(),
    ]);
    if (rows.some((row) => row.status === 'PENDING')) this.worker.kick();
  }

  async list(ctx: CallerContext, resourceId?: string): Promise<ReceivedEvent[]> {
    const rows = await this.dataSource.getRepository(ReceivedEventEntity).find({
      where: { platformId: ctx.platformId, ...(resourceId ? { resourceId } : {}) },
      order: { receivedAt: 'ASC' },
      take: 500,
    });
    return rows.map((row) => ({
      eventId: row.eventId,
      subject: row.subject,
      ...(row.webhookType ? { webhookType: row.webhookType } : {}),
      resourceId: row.resourceId,
      receivedAt: row.receivedAt.toISOString(),
      redeliveries: row.redeliveries,
    }));
  }
}
