import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A platform's daily volume limit per currency (the reference's DAILY_VOLUME_LIMIT_EXCEEDED):
 * the most that may leave in that currency (withdrawals, quotes sending it) in one day of the
 * platform's time, with the day's running total kept on the same row (locked to reserve).
 */
export class DailyVolumeLimits1765400000000 implements MigrationInterface {
  name = 'DailyVolumeLimits1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE daily_volume_limit (
        platform_id text NOT NULL,
        currency_code text NOT NULL,
        limit_amount bigint NOT NULL,
        day text NOT NULL DEFAULT '',
        used bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_daily_volume_limit PRIMARY KEY (platform_id, currency_code),
        CONSTRAINT ck_daily_volume_limit_amounts CHECK (limit_amount >= 0 AND used >= 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE daily_volume_limit`);
  }
}
