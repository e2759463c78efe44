import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sandbox test clocks: each service keeps every advanced platform's offset in its own database
 * (replicas agree), and a scheduled job knows its platform, so it is due in that platform's time.
 */
export class CreatePlatformClocks1764500000000 implements MigrationInterface {
  name = 'CreatePlatformClocks1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE platform_clock (
      platform_id text PRIMARY KEY,
      offset_seconds bigint NOT NULL CHECK (offset_seconds >= 0),
      updated_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`ALTER TABLE scheduled_job ADD COLUMN platform_id text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE scheduled_job DROP COLUMN platform_id`);
    await q.query(`DROP TABLE platform_clock`);
  }
}
