import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returningRows } from '@paykit/persistence';

/** One counter: a key (what is counted) in one fixed window (its start, epoch ms). */
export interface WindowCounter {
  key: string;
  windowStart: number;
  /** When the row may be swept: the window's end. */
  expiresAt: Date;
}

/**
 * The fixed-window counters in the gateway's database, so every replica counts against the
 * same totals. One upsert per reservation or failure; rows outlive their window only until the
 * next sweep.
 */
@Injectable()
export class RateLimitStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Adds `amount` to a counter and answers its new total. */
  async add(counter: WindowCounter, amount: number): Promise<number> {
    const rows = await returningRows<{ hits: string | number }>(
      this.dataSource,
      `INSERT INTO rate_limit_window (key, window_start, hits, expires_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_window.hits + EXCLUDED.hits
       RETURNING hits`,
      [counter.key, counter.windowStart, amount, counter.expiresAt],
    );
    return Number(rows[0].hits);
  }

  /** Adds one to each counter and answers their new totals, by key. */
  async increment(counters: WindowCounter[]): Promise<Map<string, number>> {
    const values: unknown[] = [];
    const tuples = counters.map((counter, i) => {
      values.push(counter.key, counter.windowStart, counter.expiresAt);
      return `($${i * 3 + 1}, $${i * 3 + 2}, 1, $${i * 3 + 3})`;
    });
    const rows = await returningRows<{ key: string; hits: string | number }>(
      this.dataSource,
      `INSERT INTO rate_limit_window (key, window_start, hits, expires_at) VALUES ${tuples.join(', ')}
       ON CONFLICT (key, window_start) DO UPDATE SET hits = rate_limit_window.hits + 1
       RETURNING key, hits`,
      values,
    );
    return new Map(rows.map((row) => [row.key, Number(row.hits)]));
  }

  /** Deletes the counters of windows that have ended (any replica may; they race harmlessly). */
  async sweep(now: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM rate_limit_window WHERE expires_at < $1`, [now]);
  }
}
