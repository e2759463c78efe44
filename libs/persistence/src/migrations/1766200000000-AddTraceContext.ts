import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Traces across the commit: an outbox row and a scheduled job keep the W3C `traceparent` of the
 * work that wrote them (null when tracing is off), so the relay's publish and the job's run
 * continue that trace.
 */
export class AddTraceContext1766200000000 implements MigrationInterface {
  name = 'AddTraceContext1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_event ADD COLUMN trace_context text`);
    await q.query(`ALTER TABLE scheduled_job ADD COLUMN trace_context text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE scheduled_job DROP COLUMN trace_context`);
    await q.query(`ALTER TABLE outbox_event DROP COLUMN trace_context`);
  }
}
