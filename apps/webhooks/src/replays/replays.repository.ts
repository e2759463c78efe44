import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MAX_WEBHOOK_REPLAY_SIZE, WebhookReplay, WebhookReplayItemStatus, WebhookReplayStatus } from '@paykit/contracts';
import { returningRows, TransactionRunner } from '@paykit/persistence';

export interface ReplayFilter {
  types?: string[];
  resourceId?: string;
  from?: string;
  to?: string;
}

/** A replay leased to this worker, with the platform it sends for. */
export interface LeasedReplay {
  id: string;
  platformId: string;
  url: string;
}

/** The next webhook of a leased replay: the original delivery's bytes. */
export interface PendingReplayItem {
  position: number;
  deliveryId: string;
  body: string;
}

interface ReplayRow {
  id: string;
  status: WebhookReplayStatus;
  url: string;
  filter: ReplayFilter;
  total: number;
  created_at: Date | string;
  completed_at: Date | string | null;
}

interface ItemRow {
  position: number;
  delivery_id: string;
  type: string;
  resource_id: string;
  occurred_at: Date | string;
  status: WebhookReplayItemStatus;
  status_code: number | null;
  error: string | null;
  attempted_at: Date | string | null;
}

/** The deliveries a filter selects, `$1` the platform; `$2..$5` types, resource, from, to (null: any). */
const MATCHING = `
  FROM webhook_delivery d
 WHERE d.platform_id = $1
   AND ($2::text[] IS NULL OR d.type = ANY($2::text[]))
   AND ($3::text IS NULL OR d.resource_id = $3)
   AND ($4::timestamptz IS NULL OR d.occurred_at >= $4)
   AND ($5::timestamptz IS NULL OR d.occurred_at < $5)`;

/**
 * Replays of a platform's webhooks. Platform-facing reads and writes take the platform first and
 * filter by it; the worker's lease spans platforms, then works within the leased replay's.
 */
@Injectable()
export class ReplaysRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  /**
   * Stores a replay of every delivery the filter selects, numbered in their original order (when the
   * event happened, then when it was received), in one transaction; undefined when more than
   * MAX_WEBHOOK_REPLAY_SIZE match (nothing stored).
   */
  async create(platformId: string, id: string, url: string, filter: ReplayFilter): Promise<{ total: number } | undefined> {
    const params = [platformId, filter.types ?? null, filter.resourceId ?? null, filter.from ?? null, filter.to ?? null];
    return this.transactions.run(async (manager) => {
      const [{ count }] = await manager.query<{ count: number }[]>(`SELECT count(*)::int AS count ${MATCHING}`, params);
      if (count > MAX_WEBHOOK_REPLAY_SIZE) return undefined;
      await manager.query(`INSERT INTO webhook_replay (id, platform_id, url, filter, status, total) VALUES ($1, $2, $3, $4::jsonb, $5, $6)`, [
        id,
        platformId,
        url,
        JSON.stringify(filter),
        count === 0 ? 'COMPLETED' : 'RUNNING',
        count,
      ]);
      await manager.query(
        `INSERT INTO webhook_replay_item (replay_id, position, delivery_id, status)
         SELECT $6, row_number() OVER (ORDER BY d.occurred_at, d.seq), d.id, 'PENDING' ${MATCHING}`,
        [...params, id],
      );
      if (count === 0) await manager.query(`UPDATE webhook_replay SET completed_at = now() WHERE id = $1`, [id]);
      return { total: count };
    });
  }

  async get(platformId: string, id: string): Promise<WebhookReplay | undefined> {
    const [replay] = await this.dataSource.query<ReplayRow[]>(
      `SELECT id, status, url, filter, total, created_at, completed_at FROM webhook_replay WHERE platform_id = $1 AND id = $2`,
      [platformId, id],
    );
    if (!replay) return undefined;
    const items = await this.dataSource.query<ItemRow[]>(
      `SELECT i.position, i.delivery_id, d.type, d.resource_id, d.occurred_at, i.status, i.status_code, i.error, i.attempted_at
         FROM webhook_replay_item i JOIN webhook_delivery d ON d.id = i.delivery_id
        WHERE i.replay_id = $1 ORDER BY i.position`,
      [id],
    );
    const iso = (value: Date | string) => new Date(value).toISOString();
    return {
      id: replay.id,
      status: replay.status,
      url: replay.url,
      filter: replay.filter,
      total: replay.total,
      delivered: items.filter((item) => item.status === 'DELIVERED').length,
      failed: items.filter((item) => item.status === 'FAILED').length,
      createdAt: iso(replay.created_at),
      ...(replay.completed_at ? { completedAt: iso(replay.completed_at) } : {}),
      items: items.map((item) => ({
        position: item.position,
        deliveryId: item.delivery_id,
        type: item.type,
        resourceId: item.resource_id,
        occurredAt: iso(item.occurred_at),
        status: item.status,
        ...(item.status_code !== null ? { statusCode: item.status_code } : {}),
        ...(item.error !== null ? { error: item.error } : {}),
        ...(item.attempted_at !== null ? { attemptedAt: iso(item.attempted_at) } : {}),
      })),
    };
  }

  /** Leases the oldest running replay no other worker holds (or whose worker died), for `leaseMs`. */
  async lease(leaseToken: string, leaseMs: number): Promise<LeasedReplay | undefined> {
    const rows = await returningRows<{ id: string; platform_id: string; url: string }>(
      this.dataSource,
      `UPDATE webhook_replay SET locked_until = now() + $2 * interval '1 millisecond', lease_token = $1
        WHERE id = (SELECT id FROM webhook_replay WHERE status = 'RUNNING' AND (locked_until IS NULL OR locked_until < now())
                     ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, platform_id, url`,
      [leaseToken, leaseMs],
    );
    return rows[0] ? { id: rows[0].id, platformId: rows[0].platform_id, url: rows[0].url } : undefined;
  }

  /** The replay's first webhook not yet sent, with the original bytes; undefined when all are. */
  async nextItem(replayId: string): Promise<PendingReplayItem | undefined> {
    const [row] = await this.dataSource.query<{ position: number; delivery_id: string; body: string }[]>(
      `SELECT i.position, i.delivery_id, d.body FROM webhook_replay_item i JOIN webhook_delivery d ON d.id = i.delivery_id
        WHERE i.replay_id = $1 AND i.status = 'PENDING' ORDER BY i.position LIMIT 1`,
      [replayId],
    );
    return row ? { position: row.position, deliveryId: row.delivery_id, body: row.body } : undefined;
  }

  /** Records one webhook's attempt and renews the lease, if the lease is still this worker's (false: another took over). */
  async record(
    replayId: string,
    leaseToken: string,
    leaseMs: number,
    position: number,
    outcome: { succeeded: boolean; statusCode?: number; error?: string; attemptedAt: Date },
  ): Promise<boolean> {
    const rows = await returningRows<{ position: number }>(
      this.dataSource,
      `WITH held AS (
         UPDATE webhook_replay SET locked_until = now() + $7 * interval '1 millisecond' WHERE id = $1 AND lease_token = $2 RETURNING id)
       UPDATE webhook_replay_item i SET status = $4, status_code = $5, error = $6, attempted_at = $8
         FROM held WHERE i.replay_id = held.id AND i.position = $3 AND i.status = 'PENDING'
       RETURNING i.position`,
      [replayId, leaseToken, position, outcome.succeeded ? 'DELIVERED' : 'FAILED', outcome.statusCode ?? null, outcome.error ?? null, leaseMs, outcome.attemptedAt],
    );
    return rows.length > 0;
  }

  async complete(replayId: string, leaseToken: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_replay SET status = 'COMPLETED', completed_at = now(), locked_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2`,
      [replayId, leaseToken],
    );
  }
}
