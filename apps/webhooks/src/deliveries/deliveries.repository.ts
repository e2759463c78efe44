import { Injectable } from '@nestjs/common';
import { DataSource, FindOptionsWhere, LessThan, LessThanOrEqual } from 'typeorm';
import { WebhookAttemptTrigger, WebhookDeliveryStatus } from '@paykit/contracts';
import { DeadLetterStore, ParkRequest, returningRows } from '@paykit/persistence';
import { WebhookDeliveryAttemptEntity } from './entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

/** The dead-letter consumer name of webhook deliveries that could not be attempted. */
export const DELIVERY_WORKER = 'webhook-delivery-worker';

export interface DeliveryFilter {
  type?: string;
  status?: WebhookDeliveryStatus;
  resourceId?: string;
  /** Only deliveries received before this one (cursor pagination, newest first). */
  beforeSeq?: string;
}

/** A delivery leased to this worker for one attempt, with the retry state the attempt starts from. */
export interface ClaimedDelivery {
  id: string;
  platformId: string;
  type: string;
  body: string;
  endpointUrl: string | null;
  /** When the platform last asked for a redelivery (the attempt is then MANUAL); a change while in flight is honoured. */
  redeliverRequestedAt: Date | null;
  roundFailures: number;
  roundStartedAt: Date | null;
}

/** What a claim leased, and whether due deliveries were left for want of room (their platform's or this worker's). */
export interface DueClaim {
  leased: ClaimedDelivery[];
  waitingForRoom: boolean;
}

/** What a statement that leases deliveries may take (DeliveryWorker.lease). */
export interface LeaseTerms {
  now: Date;
  leaseToken: string;
  leaseUntil: Date;
  /** Attempts in flight per platform, across replicas. */
  perPlatform: number;
  /** Deliveries this process may still start. */
  limit: number;
  /** This worker's leased deliveries whose receiver already answered (the attempt being recorded): they take no slot. */
  answered: string[];
}

/** One finished attempt and where it moves its delivery if the lease still holds and no redelivery came meanwhile. */
export interface AttemptRecord {
  deliveryId: string;
  leaseToken: string;
  /** `redeliverRequestedAt` as claimed: another value now means a redelivery was requested during the attempt. */
  claimedRedeliverRequestedAt: Date | null;
  trigger: WebhookAttemptTrigger;
  attemptedAt: Date;
  endpoint: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  succeeded: boolean;
  now: Date;
  /** The delivery's state after this outcome (SUCCEEDED, PENDING with the retry time, or FAILED). */
  next: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null; roundFailures: number; roundStartedAt: Date | null };
}

/** What recording an attempt did to its delivery, and the attempt's number. */
export interface RecordedAttempt {
  effect: 'MOVED' | 'REDELIVERY_REQUESTED' | 'LEASE_LOST';
  number: number;
}

/** How far the platform of the row `alias` runs ahead of real time (its sandbox test clock). */
const PLATFORM_AHEAD = (alias: string): string => `COALESCE((SELECT c.offset_seconds FROM platform_clock c WHERE c.platform_id = ${alias}.platform_id), 0) * interval '1 second'`;

/**
 * Leases due deliveries: per platform up to `perPlatform` minus its attempts in flight (leases
 * across every replica, but for this worker's attempts already answered), oldest due first,
 * each the head of its resource's queue — a delivery waits while an earlier event of the same
 * resource is pending (in flight or waiting to be retried), so a resource's webhooks arrive in
 * the order its events happened. The UPDATE re-checks each row, so a row another worker leased
 * meanwhile is skipped. Due-ness is in the delivery's platform time (a retry's `next_attempt_at` is in
 * it: real time plus the platform's test-clock offset); leases are in real time. One row at least:
 * the leased deliveries (none: a row of nulls), each with how many deliveries were due and free to go
 * but for room (`due_count`, at most `perPlatform` a platform), so the worker knows whether a slot
 * freed later is worth another claim.
 */
const CLAIM_DUE_SQL = `
  WITH busy AS (
    SELECT platform_id, count(*)::int AS in_flight FROM webhook_delivery
     WHERE status = 'PENDING' AND locked_until > $1 AND id <> ALL($6::text[])
     GROUP BY platform_id
  ), candidate AS (
    SELECT c.id, c.next_attempt_at,
           row_number() OVER (PARTITION BY p.platform_id ORDER BY c.next_attempt_at) AS rank,
           $2::int - COALESCE(b.in_flight, 0) AS room
      FROM webhook_platform p
      LEFT JOIN busy b ON b.platform_id = p.platform_id
     CROSS JOIN LATERAL (
       SELECT d.id, d.next_attempt_at FROM webhook_delivery d
        WHERE d.platform_id = p.platform_id AND d.status = 'PENDING' AND d.next_attempt_at <= $1::timestamptz + ${PLATFORM_AHEAD('p')}
          AND (d.locked_until IS NULL OR d.locked_until <= $1)
          AND NOT EXISTS (
            SELECT 1 FROM webhook_delivery e
             WHERE e.platform_id = d.platform_id AND e.resource_id = d.resource_id AND e.status = 'PENDING'
               AND (e.occurred_at, e.seq) < (d.occurred_at, d.seq))
        ORDER BY d.next_attempt_at
        LIMIT $2::int) c
  ), chosen AS (
    SELECT id FROM candidate WHERE rank <= room ORDER BY next_attempt_at LIMIT $3::int
  ), leased AS (
    UPDATE webhook_delivery d SET locked_until = $4, lease_token = $5
      FROM chosen, webhook_platform p
     WHERE d.id = chosen.id AND p.platform_id = d.platform_id
       AND d.status = 'PENDING' AND d.next_attempt_at <= $1::timestamptz + ${PLATFORM_AHEAD('d')} AND (d.locked_until IS NULL OR d.locked_until <= $1)
    RETURNING d.id, d.platform_id, d.type, d.body, p.endpoint_url, d.redeliver_requested_at, d.round_failures, d.round_started_at
  )
  SELECT l.*, (SELECT count(*) FROM candidate)::int AS due_count
    FROM (VALUES (1)) AS one LEFT JOIN leased l ON true`;

/**
 * Records attempts and moves their deliveries on, in one statement for a batch (atomic without a
 * transaction): each row is locked, its attempt numbered from it, and the delivery updated. Only
 * the lease holder moves a delivery on (a stale worker's attempt is recorded and nothing more); a
 * redelivery requested while the attempt was in flight makes the delivery due now, as MANUAL.
 * Outside those two cases the row's retry state is the one claimed (only the lease holder and a
 * redelivery request change it), so the outcome's next state computed from the claim applies.
 * Timestamps travel as ISO strings with milliseconds, the precision they are stored with.
 */
const RECORD_ATTEMPTS_SQL = `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS t(
      delivery_id text, lease_token uuid, claimed_redeliver_requested_at timestamptz, trigger text,
      attempted_at timestamptz, endpoint text, status_code int, latency_ms int, error text, succeeded boolean,
      now timestamptz, status text, next_attempt_at timestamptz, round_failures int, round_started_at timestamptz)
  ), current AS (
    SELECT d.id, d.attempt_count,
           d.lease_token IS NOT DISTINCT FROM i.lease_token AS holder,
           d.redeliver_requested_at IS DISTINCT FROM i.claimed_redeliver_requested_at AS redelivery_requested
      FROM webhook_delivery d JOIN input i ON i.delivery_id = d.id
     ORDER BY d.id
       FOR UPDATE OF d
  ), attempt AS (
    INSERT INTO webhook_delivery_attempt (delivery_id, number, trigger, attempted_at, endpoint, status_code, latency_ms, error, succeeded)
    SELECT c.id, c.attempt_count + 1, i.trigger, i.attempted_at, i.endpoint, i.status_code, i.latency_ms, i.error, i.succeeded
      FROM current c JOIN input i ON i.delivery_id = c.id
  )
  UPDATE webhook_delivery d SET
    attempt_count = c.attempt_count + 1, last_attempt_at = i.attempted_at, last_status_code = i.status_code, last_error = i.error, updated_at = i.now,
    locked_until = CASE WHEN c.holder THEN NULL ELSE d.locked_until END,
    lease_token = CASE WHEN c.holder THEN NULL ELSE d.lease_token END,
    status = CASE WHEN NOT c.holder THEN d.status WHEN c.redelivery_requested THEN 'PENDING' ELSE i.status END,
    next_attempt_at = CASE WHEN NOT c.holder THEN d.next_attempt_at WHEN c.redelivery_requested THEN i.now ELSE i.next_attempt_at END,
    round_failures = CASE WHEN NOT c.holder THEN d.round_failures WHEN c.redelivery_requested THEN 0 ELSE i.round_failures END,
    round_started_at = CASE WHEN NOT c.holder THEN d.round_started_at WHEN c.redelivery_requested THEN NULL ELSE i.round_started_at END,
    redeliver_requested_at = CASE WHEN NOT c.holder OR c.redelivery_requested THEN d.redeliver_requested_at END,
    delivered_at = CASE WHEN c.holder AND NOT c.redelivery_requested AND i.succeeded THEN i.attempted_at ELSE d.delivered_at END
    FROM current c JOIN input i ON i.delivery_id = c.id
   WHERE d.id = c.id
  RETURNING d.id, c.holder, c.redelivery_requested, d.attempt_count`;

/**
 * Platform-facing reads and writes take the platform first and filter by it: another
 * platform's delivery does not exist here. The worker's queries span every platform.
 */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(platformId: string, id: string): Promise<WebhookDeliveryEntity | null> {
    return this.dataSource.manager.findOne(WebhookDeliveryEntity, { where: { platformId, id } });
  }

  /**
   * The delivery's attempts up to its `attemptCount` as read: an attempt recorded after the
   * delivery row was read (one statement writes both) is left out, so the two agree.
   */
  attemptsOf(delivery: Pick<WebhookDeliveryEntity, 'id' | 'attemptCount'>): Promise<WebhookDeliveryAttemptEntity[]> {
    return this.dataSource.manager.find(WebhookDeliveryAttemptEntity, {
      where: { deliveryId: delivery.id, number: LessThanOrEqual(delivery.attemptCount) },
      order: { number: 'ASC' },
    });
  }

  list(platformId: string, filter: DeliveryFilter, take: number): Promise<WebhookDeliveryEntity[]> {
    const where: FindOptionsWhere<WebhookDeliveryEntity> = { platformId };
    if (filter.type) where.type = filter.type;
    if (filter.status) where.status = filter.status;
    if (filter.resourceId) where.resourceId = filter.resourceId;
    if (filter.beforeSeq) where.seq = LessThan(filter.beforeSeq);
    return this.dataSource.manager.find(WebhookDeliveryEntity, { where, order: { seq: 'DESC' }, take });
  }

  /** Makes a delivery due now with a fresh retry round; the next attempt is marked MANUAL. */
  async requestRedelivery(platformId: string, id: string, now: Date): Promise<WebhookDeliveryEntity | undefined> {
    const rows = await returningRows<{ id: string }>(
      this.dataSource,
      `UPDATE webhook_delivery SET status = 'PENDING', next_attempt_at = $3, round_failures = 0, round_started_at = NULL,
              redeliver_requested_at = $3, updated_at = $3
        WHERE platform_id = $1 AND id = $2
        RETURNING id`,
      [platformId, id, now],
    );
    if (rows.length === 0) return undefined;
    return (await this.findById(platformId, id)) ?? undefined;
  }

  /** Leases due deliveries to one worker (at most `limit`, and each platform's room): see CLAIM_DUE_SQL. */
  async claimDue(terms: LeaseTerms): Promise<DueClaim> {
    const rows = await returningRows<{
      due_count: number;
      id: string | null;
      platform_id: string;
      type: string;
      body: string;
      endpoint_url: string | null;
      redeliver_requested_at: Date | string | null;
      round_failures: number;
      round_started_at: Date | string | null;
    }>(this.dataSource, CLAIM_DUE_SQL, [terms.now, terms.perPlatform, terms.limit, terms.leaseUntil, terms.leaseToken, terms.answered]);
    const leased = rows.flatMap((row) => (row.id === null ? [] : [{ ...row, id: row.id }]));
    const claimed = leased.map((row) => ({
      id: row.id,
      platformId: row.platform_id,
      type: row.type,
      body: row.body,
      endpointUrl: row.endpoint_url,
      redeliverRequestedAt: toDate(row.redeliver_requested_at),
      roundFailures: row.round_failures,
      roundStartedAt: toDate(row.round_started_at),
    }));
    return { leased: claimed, waitingForRoom: (rows[0]?.due_count ?? 0) > claimed.length };
  }

  /** Records attempts (of distinct deliveries) and moves their deliveries on: see RECORD_ATTEMPTS_SQL. One answer per record, in order. */
  async recordAttempts(records: AttemptRecord[]): Promise<RecordedAttempt[]> {
    const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
    const input = records.map((record) => ({
      delivery_id: record.deliveryId,
      lease_token: record.leaseToken,
      claimed_redeliver_requested_at: iso(record.claimedRedeliverRequestedAt),
      trigger: record.trigger,
      attempted_at: iso(record.attemptedAt),
      endpoint: record.endpoint,
      status_code: record.statusCode,
      latency_ms: record.latencyMs,
      error: record.error,
      succeeded: record.succeeded,
      now: iso(record.now),
      status: record.next.status,
      next_attempt_at: iso(record.next.nextAttemptAt),
      round_failures: record.next.roundFailures,
      round_started_at: iso(record.next.roundStartedAt),
    }));
    const rows = await returningRows<{ id: string; holder: boolean; redelivery_requested: boolean; attempt_count: number }>(this.dataSource, RECORD_ATTEMPTS_SQL, [
      JSON.stringify(input),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return records.map((record) => {
      const row = byId.get(record.deliveryId);
      if (!row) throw new Error(`Webhook delivery ${record.deliveryId} vanished`);
      return { effect: !row.holder ? 'LEASE_LOST' : row.redelivery_requested ? 'REDELIVERY_REQUESTED' : 'MOVED', number: row.attempt_count };
    });
  }

  /** Gives leases back without an attempt (e.g. a claim the worker could not start). */
  async release(id: string, leaseToken: string): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_delivery SET locked_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2`, [id, leaseToken]);
  }

  /** Gives a delivery that could not be attempted back, due again at `retryAt` (not at once: no spinning on it). */
  async postpone(id: string, leaseToken: string, retryAt: Date): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_delivery SET locked_until = NULL, lease_token = NULL, next_attempt_at = $3 WHERE id = $1 AND lease_token = $2`, [
      id,
      leaseToken,
      retryAt,
    ]);
  }

  /**
   * Parks a delivery that could never be attempted: FAILED (so its resource's later webhooks go
   * out) and a dead letter, in one transaction; false when the lease was lost meanwhile.
   */
  async park(
    delivery: ClaimedDelivery,
    leaseToken: string,
    deadLetters: DeadLetterStore,
    failure: Omit<ParkRequest, 'source' | 'consumer' | 'messageId' | 'subject' | 'platformId' | 'payload'>,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const owned = await returningRows<{ resource_id: string | null }>(
        manager,
        `UPDATE webhook_delivery SET status = 'FAILED', next_attempt_at = NULL, locked_until = NULL, lease_token = NULL, updated_at = now()
          WHERE id = $1 AND lease_token = $2 AND status = 'PENDING' RETURNING resource_id`,
        [delivery.id, leaseToken],
      );
      if (owned.length === 0) return false;
      await deadLetters.park(
        {
          ...failure,
          source: 'webhook-delivery',
          consumer: DELIVERY_WORKER,
          messageId: delivery.id,
          subject: delivery.type,
          resourceKey: owned[0].resource_id,
          platformId: delivery.platformId,
          // The webhook body stays in webhook_delivery: the dead letter names it, it does not copy it.
          payload: { deliveryId: delivery.id, type: delivery.type },
        },
        manager,
      );
      return true;
    });
  }

  /** A replayed dead letter: the delivery is due again now, a fresh retry round, attempted as MANUAL. */
  async revive(id: string, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_delivery SET status = 'PENDING', next_attempt_at = $2, round_failures = 0, round_started_at = NULL, redeliver_requested_at = $2, updated_at = $2
        WHERE id = $1 AND status = 'FAILED'`,
      [id, now],
    );
  }
}

function toDate(value: Date | string | null): Date | null {
  return value === null ? null : value instanceof Date ? value : new Date(value);
}
