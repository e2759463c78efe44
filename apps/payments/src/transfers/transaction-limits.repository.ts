import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { amountFromColumn, amountToColumn } from '@paykit/persistence';

/**
 * The limits payments count against: a customer's velocity limits (count and amount a day per
 * currency) and the platform's daily volume limit per currency, always scoped by platform. Each
 * count is taken under a lock on its limit row, so concurrent payments are counted one by one.
 */
@Injectable()
export class TransactionLimitsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Count and amount of a customer's transfers in a currency over the last 24 hours, taken
   * under a lock on the customer's limit row so concurrent transfers are counted one by one.
   * An agent's transfer waiting for approval counts only once approved (it moves nothing before).
   * Undefined when the customer has no limit in that currency.
   */
  async lockVelocity(
    manager: EntityManager,
    platformId: string,
    customerId: string,
    currency: string,
  ): Promise<{ maxCount: number | null; maxAmount: bigint | null; count: number; amount: bigint } | undefined> {
    const limits = await manager.query<Array<{ max_count_per_day: number | null; max_amount_per_day: string | null }>>(
      `SELECT max_count_per_day, max_amount_per_day FROM velocity_limit WHERE platform_id = $1 AND customer_id = $2 AND currency_code = $3 FOR UPDATE`,
      [platformId, customerId, currency],
    );
    if (limits.length === 0) return undefined;
    const usage = await manager.query<Array<{ count: number; amount: string }>>(
      `SELECT count(*)::int AS count, coalesce(sum(amount), 0)::text AS amount FROM payment_transaction
        WHERE platform_id = $1 AND customer_id = $2 AND currency_code = $3 AND status <> 'FAILED' AND created_at > now() - interval '1 day'
          AND NOT EXISTS (SELECT 1 FROM agent_action a WHERE a.transaction_id = payment_transaction.id AND a.status = 'PENDING_APPROVAL')`,
      [platformId, customerId, currency],
    );
    return {
      maxCount: limits[0].max_count_per_day,
      maxAmount: limits[0].max_amount_per_day === null ? null : amountFromColumn(limits[0].max_amount_per_day),
      count: Number(usage[0].count),
      amount: amountFromColumn(usage[0].amount),
    };
  }

  /**
   * Adds `amount` to the platform's volume of `day` in `currency` under a lock on its limit row,
   * unless it would pass the limit. Undefined when no limit is set; else whether it was added,
   * with the limit and what was left before.
   */
  async reserveDailyVolume(
    manager: EntityManager,
    platformId: string,
    currency: string,
    day: string,
    amount: bigint,
  ): Promise<{ added: boolean; limit: bigint; remaining: bigint } | undefined> {
    const rows = await manager.query<Array<{ limit_amount: string; day: string; used: string }>>(
      `SELECT limit_amount::text, day, used::text FROM daily_volume_limit WHERE platform_id = $1 AND currency_code = $2 FOR UPDATE`,
      [platformId, currency],
    );
    if (rows.length === 0) return undefined;
    const limit = amountFromColumn(rows[0].limit_amount);
    const used = rows[0].day === day ? amountFromColumn(rows[0].used) : 0n;
    const remaining = limit > used ? limit - used : 0n;
    if (amount > remaining) return { added: false, limit, remaining };
    await manager.query(`UPDATE daily_volume_limit SET day = $3, used = $4 WHERE platform_id = $1 AND currency_code = $2`, [
      platformId,
      currency,
      day,
      amountToColumn(used + amount),
    ]);
    return { added: true, limit, remaining };
  }

  /** Gives back a reservation of `day` whose payment did not go ahead (a later day's total is left alone). */
  async releaseDailyVolume(manager: EntityManager, platformId: string, currency: string, day: string, amount: bigint): Promise<void> {
    await manager.query(`UPDATE daily_volume_limit SET used = GREATEST(used - $4, 0) WHERE platform_id = $1 AND currency_code = $2 AND day = $3`, [
      platformId,
      currency,
      day,
      amountToColumn(amount),
    ]);
  }

  async setDailyVolumeLimit(platformId: string, currency: string, maxAmount: bigint | null): Promise<void> {
    if (maxAmount === null) {
      await this.dataSource.query(`DELETE FROM daily_volume_limit WHERE platform_id = $1 AND currency_code = $2`, [platformId, currency]);
      return;
    }
    await this.dataSource.query(
      `INSERT INTO daily_volume_limit (platform_id, currency_code, limit_amount) VALUES ($1, $2, $3)
       ON CONFLICT (platform_id, currency_code) DO UPDATE SET limit_amount = $3, updated_at = now()`,
      [platformId, currency, amountToColumn(maxAmount)],
    );
  }

  async setVelocityLimit(platformId: string, customerId: string, currency: string, maxCount: number | null, maxAmount: bigint | null): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO velocity_limit (platform_id, customer_id, currency_code, max_count_per_day, max_amount_per_day) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (platform_id, customer_id, currency_code) DO UPDATE SET max_count_per_day = $4, max_amount_per_day = $5, updated_at = now()`,
      [platformId, customerId, currency, maxCount, maxAmount === null ? null : amountToColumn(maxAmount)],
    );
  }
}
