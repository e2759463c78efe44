import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateReceivedEvents1732300100000 implements MigrationInterface {
  name = 'CreateReceivedEvents1732300100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE received_event (
        event_id uuid NOT NULL,
        subject text NOT NULL,
        platform_id text NOT NULL,
        resource_id text NOT NULL,
        webhook_type text,
        event jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        redeliveries integer NOT NULL DEFAULT 0,
        CONSTRAINT pk_received_event PRIMARY KEY (event_id)
      )`);
    await q.query(`CREATE INDEX ix_received_event_resource ON received_event (platform_id, resource_id, received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE received_event`);
  }
}
