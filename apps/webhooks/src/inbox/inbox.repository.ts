import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BATCH_PLAN_MAX_AGE_MS, preparedStatement, returningRows } from '@paykit/persistence';
import { LeaseTerms } from '../deliveries/deliveries.repository';
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
 * The rest wait, PENDING, for the worker's claim. Prepared, and replanned as the tables grow: its
 * planning cost more than its run (1.2-2 ms against 1-2.5 ms for a batch of 15).
 */
const RECEIVE_SQL = preparedStatement(
  `
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
  SELECT inserted.*, c.endpoint_url FROM inserted LEFT JOIN configured c ON c.platform_id = inserted.platform_id`,
  { replanAfterMs: BATCH_PLAN_MAX_AGE_MS },
);

/** A stored event's delivery, as the receiving statement answers it. */
export interface StoredDelivery {
  id: string;
  platform_id: string;
  type: string;
  body: string;
  status: string;
  leased: boolean;
  endpoint_url: string | null;
}

@Injectable()
export class InboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores a batch of events (a JSON array of rows, in receipt order) and their deliveries, leasing those `terms` allow. */
  storeAndLease(batch: string, terms: LeaseTerms): Promise<StoredDelivery[]> {
    return returningRows<StoredDelivery>(this.dataSource, RECEIVE_SQL, [batch, terms.now, terms.perPlatform, terms.limit, terms.leaseUntil, terms.leaseToken, terms.answered]);
  }

  /** The platform's received events, oldest first (at most 500). */
  list(platformId: string, resourceId?: string): Promise<ReceivedEventEntity[]> {
    return this.dataSource.getRepository(ReceivedEventEntity).find({
      where: { platformId, ...(resourceId ? { resourceId } : {}) },
      order: { receivedAt: 'ASC' },
      take: 500,
    });
  }
}
