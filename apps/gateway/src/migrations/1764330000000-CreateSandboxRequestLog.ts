import { MigrationInterface, QueryRunner } from 'typeorm';

/** The sandbox request log: one row per request of a sandbox platform, read newest first per platform. */
export class CreateSandboxRequestLog1764330000000 implements MigrationInterface {
  name = 'CreateSandboxRequestLog1764330000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sandbox_request_log (
      id text PRIMARY KEY,
      platform_id text NOT NULL,
      method text NOT NULL,
      route text,
      path text NOT NULL,
      status integer NOT NULL,
      error_code text,
      duration_ms integer NOT NULL,
      request_id text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX ix_sandbox_request_log_platform_id ON sandbox_request_log (platform_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_request_log`);
  }
}
