import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sandbox faults on API operations: each takes the next `remaining` matching calls of its platform. */
export class CreateSandboxFaults1765100000000 implements MigrationInterface {
  name = 'CreateSandboxFaults1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sandbox_fault (
      id text NOT NULL,
      platform_id text NOT NULL,
      operation text,
      path_prefix text,
      effect text NOT NULL,
      status integer,
      delay_ms integer,
      count integer NOT NULL,
      remaining integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_sandbox_fault PRIMARY KEY (id),
      CONSTRAINT ck_sandbox_fault_effect CHECK (effect IN ('ERROR', 'TIMEOUT', 'DELAY')),
      CONSTRAINT ck_sandbox_fault_match CHECK ((operation IS NULL) <> (path_prefix IS NULL)),
      CONSTRAINT ck_sandbox_fault_remaining CHECK (remaining >= 0 AND remaining <= count)
    )`);
    await q.query(`CREATE INDEX ix_sandbox_fault_platform_active ON sandbox_fault (platform_id, id) WHERE remaining > 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_fault`);
  }
}
