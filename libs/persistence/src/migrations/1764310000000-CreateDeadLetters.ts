import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every service's dead-letter table (one shape for all): a message or job that kept failing with
 * a non-transient error is parked here instead of holding up what comes after it. A parked job
 * keeps its scheduled_job row, marked DEAD, so its dedupe key stays taken.
 */
export class CreateDeadLetters1764310000000 implements MigrationInterface {
  name = 'CreateDeadLetters1764310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dead_letter (
        id uuid NOT NULL,
        source text NOT NULL,
        consumer text NOT NULL,
        message_id text NOT NULL,
        subject text NOT NULL,
        resource_key text,
        platform_id text,
        payload jsonb NOT NULL,
        error text NOT NULL,
        error_stack text,
        attempts integer NOT NULL,
        first_failed_at timestamptz NOT NULL,
        last_failed_at timestamptz NOT NULL,
        parked_count integer NOT NULL DEFAULT 1,
        replay_requested_at timestamptz,
        replay_claimed_until timestamptz,
        replayed_at timestamptz,
        CONSTRAINT pk_dead_letter PRIMARY KEY (id),
        CONSTRAINT uq_dead_letter_message UNIQUE (source, consumer, message_id),
        CONSTRAINT ck_dead_letter_source CHECK (source IN ('event-consumer', 'outbox-relay', 'scheduler', 'webhook-delivery'))
      )`);
    await q.query(`CREATE INDEX ix_dead_letter_last_failed ON dead_letter (last_failed_at DESC)`);
    await q.query(`CREATE INDEX ix_dead_letter_replay_requested ON dead_letter (replay_requested_at) WHERE replay_requested_at IS NOT NULL`);
    await q.query(`ALTER TABLE scheduled_job DROP CONSTRAINT ck_scheduled_job_status`);
    await q.query(`ALTER TABLE scheduled_job ADD CONSTRAINT ck_scheduled_job_status CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'DEAD'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE scheduled_job SET status = 'FAILED' WHERE status = 'DEAD'`);
    await q.query(`ALTER TABLE scheduled_job DROP CONSTRAINT ck_scheduled_job_status`);
    await q.query(`ALTER TABLE scheduled_job ADD CONSTRAINT ck_scheduled_job_status CHECK (status IN ('PENDING', 'RUNNING', 'DONE', 'FAILED'))`);
    await q.query(`DROP TABLE dead_letter`);
  }
}
