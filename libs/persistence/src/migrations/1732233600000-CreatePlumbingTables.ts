import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables every service owns: the transactional outbox, the job scheduler, idempotency records. */
export class CreatePlumbingTables1732233600000 implements MigrationInterface {
  name = 'CreatePlumbingTables1732233600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_event (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id uuid NOT NULL,
        subject text NOT NULL,
        event jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        claimed_until timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        CONSTRAINT pk_outbox_event PRIMARY KEY (seq),
        CONSTRAINT uq_outbox_event_id UNIQUE (id)
      )`);
    await q.query(`CREATE INDEX ix_outbox_event_unpublished ON outbox_event (seq) WHERE published_at IS NULL`);
    await q.query(`
      CREATE TABLE scheduled_job (
        id uuid NOT NULL,
        kind text NOT NULL,
        payload jsonb NOT NULL,
        run_at timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'PENDING',
        attempts integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        last_error text,
        dedupe_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_scheduled_job PRIMARY KEY (id),
        CONSTRAINT uq_scheduled_job_dedupe_key UNIQUE (dedupe_key),
        CONSTRAINT ck_scheduled_job_status CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED'))
      )`);
    await q.query(`CREATE INDEX ix_scheduled_job_due ON scheduled_job (run_at) WHERE status IN ('PENDING', 'RUNNING')`);
    await q.query(`
      CREATE TABLE idempotency_record (
        platform_id text NOT NULL,
        idempotency_key text NOT NULL,
        request_hash text NOT NULL,
        response jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_idempotency_record PRIMARY KEY (platform_id, idempotency_key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_record`);
    await q.query(`DROP TABLE scheduled_job`);
    await q.query(`DROP TABLE outbox_event`);
  }
}
