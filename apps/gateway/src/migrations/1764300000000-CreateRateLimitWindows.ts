import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fixed-window counters shared by every gateway replica: requests per API token and failed
 * authentications per token id and per client address (apps/gateway/src/rate-limits).
 */
export class CreateRateLimitWindows1764300000000 implements MigrationInterface {
  name = 'CreateRateLimitWindows1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE rate_limit_window (
        key text NOT NULL,
        window_start bigint NOT NULL,
        hits integer NOT NULL,
        expires_at timestamptz NOT NULL,
        CONSTRAINT pk_rate_limit_window PRIMARY KEY (key, window_start)
      )`);
    await q.query(`CREATE INDEX ix_rate_limit_window_expires_at ON rate_limit_window (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE rate_limit_window`);
  }
}
