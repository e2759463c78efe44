import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere, LessThan } from 'typeorm';
import { WebhookDeliveryStatus } from '@paykit/contracts';
import { returningRows } from '@paykit/persistence';
import { WebhookDeliveryAttemptEntity } from './entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';

export interface DeliveryFilter {
  type?: string;
  status?: WebhookDeliveryStatus;
  resourceId?: string;
  /** Only deliveries received before this one (cursor pagination, newest first). */
  beforeSeq?: string;
}

/** A delivery the worker may attempt now, with its platform's in-flight count. */
export interface DueDelivery {
  id: string;
  platformId: string;
  inFlight: number;
}

/** A delivery leased to this worker for one attempt. */
export interface ClaimedDelivery {
  id: string;
  platformId: string;
  type: string;
  body: string;
  endpointUrl: string | null;
  redeliverRequested: boolean;
}

/** The state a recorded attempt starts from (row locked). */
export interface DeliveryAttemptState {
  attemptCount: number;
  leaseToken: string | null;
  roundFailures: number;
  roundStartedAt: Date | null;
  redeliverRequestedAt: Date | null;
}

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

  attemptsOf(deliveryId: string): Promise<WebhookDeliveryAttemptEntity[]> {
    return this.dataSource.manager.find(WebhookDeliveryAttemptEntity, { where: { deliveryId }, order: { number: 'ASC' } });
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

  /**
   * Up to `perPlatform` due deliveries of each platform, oldest due first, each the head of its
   * resource's queue: a delivery waits while an earlier event of the same resource is pending
   * (in flight or waiting to be retried), so a resource's webhooks arrive in the order its events happened.
   */
  async due(now: Date, perPlatform: number): Promise<DueDelivery[]> {
    const rows: Array<{ id: string; platform_id: string; in_flight: number }> = await this.dataSource.query(
      `SELECT c.id, p.platform_id,
              (SELECT count(*)::int FROM webhook_delivery l
                WHERE l.platform_id = p.platform_id AND l.status = 'PENDING' AND l.locked_until > $1) AS in_flight
         FROM webhook_platform p
         CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at FROM webhook_delivery d
            WHERE d.platform_id = p.platform_id AND d.status = 'PENDING' AND d.next_attempt_at <= $1
              AND (d.locked_until IS NULL OR d.locked_until <= $1)
              AND NOT EXISTS (
                SELECT 1 FROM webhook_delivery e
                 WHERE e.platform_id = d.platform_id AND e.resource_id = d.resource_id AND e.status = 'PENDING'
                   AND (e.occurred_at, e.seq) < (d.occurred_at, d.seq))
            ORDER BY d.next_attempt_at
            LIMIT $2) c
        ORDER BY c.next_attempt_at`,
      [now, perPlatform],
    );
    return rows.map((row) => ({ id: row.id, platformId: row.platform_id, inFlight: Number(row.in_flight) }));
  }

  /** Leases the given deliveries to one worker; a row another worker leased meanwhile is skipped. */
  async claim(ids: string[], now: Date, leaseUntil: Date, leaseToken: string): Promise<ClaimedDelivery[]> {
    if (ids.length === 0) return [];
    const rows = await returningRows<{ id: string; platform_id: string; type: string; body: string; endpoint_url: string | null; redeliver_requested_at: Date | null }>(
      this.dataSource,
      `UPDATE webhook_delivery d SET locked_until = $2, lease_token = $3
         FROM webhook_platform p
        WHERE p.platform_id = d.platform_id AND d.id IN (${ids.map((_, i) => `$${i + 4}`).join(', ')})
          AND d.status = 'PENDING' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until <= $1)
        RETURNING d.id, d.platform_id, d.type, d.body, p.endpoint_url, d.redeliver_requested_at`,
      [now, leaseUntil, leaseToken, ...ids],
    );
    return rows.map((row) => ({
      id: row.id,
      platformId: row.platform_id,
      type: row.type,
      body: row.body,
      endpointUrl: row.endpoint_url,
      redeliverRequested: row.redeliver_requested_at !== null,
    }));
  }

  async lockForAttempt(manager: EntityManager, id: string): Promise<DeliveryAttemptState> {
    const rows: Array<{ attempt_count: number; lease_token: string | null; round_failures: number; round_started_at: Date | string | null; redeliver_requested_at: Date | string | null }> =
      await manager.query(
        `SELECT attempt_count, lease_token, round_failures, round_started_at, redeliver_requested_at FROM webhook_delivery WHERE id = $1 FOR UPDATE`,
        [id],
      );
    const row = rows[0];
    if (!row) throw new Error(`Webhook delivery ${id} vanished`);
    return {
      attemptCount: row.attempt_count,
      leaseToken: row.lease_token,
      roundFailures: row.round_failures,
      roundStartedAt: toDate(row.round_started_at),
      redeliverRequestedAt: toDate(row.redeliver_requested_at),
    };
  }

  async insertAttempt(manager: EntityManager, attempt: WebhookDeliveryAttemptEntity): Promise<void> {
    await manager.insert(WebhookDeliveryAttemptEntity, attempt);
  }

  async update(manager: EntityManager, id: string, changes: Partial<WebhookDeliveryEntity>): Promise<void> {
    await manager.update(WebhookDeliveryEntity, { id }, changes);
  }

  /** Gives leases back without an attempt (e.g. a claim the worker could not start). */
  async release(id: string, leaseToken: string): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_delivery SET locked_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2`, [id, leaseToken]);
  }
}

function toDate(value: Date | string | null): Date | null {
  return value === null ? null : value instanceof Date ? value : new Date(value);
}
