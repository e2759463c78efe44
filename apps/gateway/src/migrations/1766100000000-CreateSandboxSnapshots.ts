import { MigrationInterface, QueryRunner } from 'typeorm';

/** Named snapshots of a platform's sandbox state across every service (the gateway orchestrates them). */
export class CreateSandboxSnapshots1766100000000 implements MigrationInterface {
  name = 'CreateSandboxSnapshots1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sandbox_snapshot (
      platform_id text NOT NULL,
      name text NOT NULL,
      state text NOT NULL,
      row_counts jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_sandbox_snapshot PRIMARY KEY (platform_id, name)
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_snapshot`);
  }
}
