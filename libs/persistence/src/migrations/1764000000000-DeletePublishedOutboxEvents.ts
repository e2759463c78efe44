import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relay deletes an outbox row once the bus has the event (the bus and the consumers keep
 * it from there): the table holds only what is still to publish, instead of growing forever
 * and rewriting each row twice.
 */
export class DeletePublishedOutboxEvents1764000000000 implements MigrationInterface {
  name = 'DeletePublishedOutboxEvents1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM outbox_event WHERE published_at IS NOT NULL`);
    await q.query(`DROP INDEX ix_outbox_event_unpublished`);
    await q.query(`ALTER TABLE outbox_event DROP COLUMN published_at`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_event ADD COLUMN published_at timestamptz`);
    await q.query(`CREATE INDEX ix_outbox_event_unpublished ON outbox_event (seq) WHERE published_at IS NULL`);
  }
}
