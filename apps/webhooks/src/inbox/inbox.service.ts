import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ALL_EVENTS_FILTER, CallerContext, DomainEvent, newId, ReceivedEvent, WEBHOOKS_CONSUMER } from '@paykit/contracts';
import { returningRows, StatementBatcher } from '@paykit/persistence';
import { EVENT_BUS, EventBus } from '@paykit/transport';
import { webhookBody } from '../deliveries/delivery.mapper';
import { LeaseTerms } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery.worker';
import { ReceivedEventEntity } from './entities/received-event.entity';

/**
 * One statement for a batch of events, so it is atomic without a transaction: each event is
 * stored once (repeats only bump a counter), and an event announced to the platform
 * (`webhook_type`) becomes exactly one delivery (unique event id), in receipt order. Without an
 * endpoint the delivery is recorded as SKIPPED. The batch travels as one JSON array.
 *
 * A new delivery that can go out at once is leased to the worker here, saving the claim's round
 * trip: its platform has an endpoint, room (as the claim counts it) and no due delivery waiting
 * (those go first, oldest first, through the claim), and nothing of its resource is pending.
 * The rest wait, PENDING, for the worker's claim.
 */
const RECEIVE_SQL = `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
      ord int, event_id uuid, subject text, platform_id text, resource_id text, webhook_type text,
      event jsonb, delivery_id text, body text, occurred_at timestamptz)
  ), received AS (
    INSERT INTO received_event (event_id, subject, platform_id, resource_id, webhook_type, event)
    SELECT event_id, subject, platform_id, resource_id, webhook_type, event FROM input ORDER BY ord
    ON CONFLICT (event_id) DO UPDATE SET redeliveries = received_event.redeliveries + 1
    RETURNING event_id
  ), configured AS (
    SELECT platform_id, endpoint_url FROM webhook_platform
     WHERE endpoint_url IS NOT NULL AND platform_id IN (SELECT platform_id FROM input)
  ), busy AS (
    SELECT platform_id, count(*)::int AS in_flight FROM webhook_delivery
     WHERE status = 'PENDING' AND locked_until > $2 AND id <> ALL($7::text[]) AND platform_id IN (SELECT platform_id FROM input)
     GROUP BY platform_id
  ), fresh AS (
    SELECT i.*, c.platform_id IS NOT NULL AS deliverable,
           c.platform_id IS NOT NULL
             AND row_number() OVER (PARTITION BY i.platform_id, i.resource_id ORDER BY i.ord) = 1
             AND NOT EXISTS (
               SELECT 1 FROM webhook_delivery e
                WHERE e.platform_id = i.platform_id AND e.resource_id = i.resource_id AND e.status = 'PENDING')
             AND NOT EXISTS (
               SELECT 1 FROM webhook_delivery w
                WHERE w.platform_id = i.platform_id AND w.status = 'PENDING' AND w.next_attempt_at <= $2
                  AND (w.locked_until IS NULL OR w.locked_until <= $2)) AS startable
      FROM input i
      JOIN received r ON r.event_id = i.event_id
      LEFT JOIN configured c ON c.platform_id = i.platform_id
     WHERE i.webhook_type IS NOT NULL
  ), ranked AS (
    SELECT f.*,
           f.startable
             AND row_number() OVER (PARTITION BY f.startable, f.platform_id ORDER BY f.ord) <= $3::int - COALESCE(b.in_flight, 0)
             AND row_number() OVER (PARTITION BY f.startable ORDER BY f.ord) <= $4::int AS leased
      FROM fresh f
      LEFT JOIN busy b ON b.platform_id = f.platform_id
  ), inserted AS (
    INSERT INTO webhook_delivery (id, event_id, platform_id, resource_id, type, body, occurred_at, status, next_attempt_at, updated_at, locked_until, lease_token)
    SELECT delivery_id, event_id, platform_id, resource_id, webhook_type, body, occurred_at,
           CASE WHEN deliverable THEN 'PENDING' ELSE 'SKIPPED' END,
           CASE WHEN deliverable THEN $2::timestamptz END,
           $2,
           CASE WHEN leased THEN $5::timestamptz END,
           CASE WHEN leased THEN $6::uuid END
      FROM ranked
     ORDER BY ord
    ON CONFLICT (event_id) DO NOTHING
    RETURNING id, platform_id, type, body, status, lease_token IS NOT NULL AS leased
  )
  SELECT inserted.*, c.endpoint_url FROM inserted LEFT JOIN configured c ON c.platform_id = inserted.platform_id`;

/**
 * Events handled at once (the bus keeps each resource's events in order); those that arrive
 * together are stored by one statement, at most this many.
 */
const RECEIVE_CONCURRENCY = 64;

/**
 * How long a received event waits for others to share its statement. The statement's planning
 * and commit cost more than storing a row (measured: 3 ms a statement, about five events each
 * when sent at once under 1,000 events/s), and a delivery has half a second to spare.
 */
const RECEIVE_GATHER_MS = 20;

/** Terms under which the statement leases nothing. */
function nothingToLease(): LeaseTerms {
  const now = new Date();
  return { now, leaseToken: '00000000-0000-0000-0000-000000000000', leaseUntil: now, perPlatform: 0, limit: 0, answered: [] };
}

/**
 * The webhooks service's durable subscription to every service's events. The bus delivers
 * at least once; this is where repeats stop. An event is acknowledged once its batch committed.
 */
@Injectable()
export class InboxService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private accepting = false;
  private readonly receipts = new StatementBatcher<DomainEvent, void>({
    run: (events) => this.store(events),
    keyOf: (event) => event.eventId,
    maxBatch: RECEIVE_CONCURRENCY,
    maxInFlight: 2,
    gatherMs: RECEIVE_GATHER_MS,
  });

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly worker: DeliveryWorker,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.accepting = true;
    await this.bus.consume(WEBHOOKS_CONSUMER, ALL_EVENTS_FILTER, (event) => this.receive(event), { concurrency: RECEIVE_CONCURRENCY });
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Refused events stay with the bus (unacknowledged) until a running instance takes them;
    // batches being stored finish before the database closes.
    this.accepting = false;
    await this.receipts.close(new Error('The webhooks service is stopping'));
  }

  receive(event: DomainEvent): Promise<void> {
    if (!this.accepting) return Promise.reject(new Error('The webhooks service is stopping'));
    return this.receipts.add(event);
  }

  /** Stores the events and their deliveries; those that can go out at once start now, the worker looks for the others. */
  private store(events: DomainEvent[]): Promise<void[]> {
    const rows = events.map((event, ord) => {
      const deliveryId = newId('Webhook');
      return {
        ord,
        event_id: event.eventId,
        subject: event.subject,
        platform_id: event.platformId,
        resource_id: event.resourceId,
        webhook_type: event.webhookType ?? null,
        event,
        delivery_id: deliveryId,
        // The payload's `timestamp` is when the event happened; `data` is the resource as its GET returns it.
        body: event.webhookType ? webhookBody({ id: deliveryId, type: event.webhookType, timestamp: event.occurredAt, data: event.data }) : null,
        occurred_at: event.occurredAt,
      };
    });
    const batch = JSON.stringify(rows);
    const storeAndLease = async (terms: LeaseTerms) => {
      const stored = await returningRows<{ id: string; platform_id: string; type: string; body: string; status: string; leased: boolean; endpoint_url: string | null }>(
        this.dataSource,
        RECEIVE_SQL,
        [batch, terms.now, terms.perPlatform, terms.limit, terms.leaseUntil, terms.leaseToken, terms.answered],
      );
      if (stored.some((row) => row.status === 'PENDING' && !row.leased)) this.worker.kick();
      const leased = stored
        .filter((row) => row.leased)
        .map((row) => ({ id: row.id, platformId: row.platform_id, type: row.type, body: row.body, endpointUrl: row.endpoint_url, redeliverRequestedAt: null, roundFailures: 0, roundStartedAt: null }));
      return { leased, result: events.map(() => undefined) };
    };
    // Events the platform is not told about make no delivery: their batch need not wait its turn to lease.
    if (events.some((event) => event.webhookType)) return this.worker.lease(storeAndLease);
    return storeAndLease(nothingToLease()).then(({ result }) => result);
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
