import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sandbox webhook replays: a filter's deliveries in their original order, each sent once more to a URL. */
export class CreateWebhookReplays1765110000000 implements MigrationInterface {
  name = 'CreateWebhookReplays1765110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_replay (
      id text NOT NULL,
      platform_id text NOT NULL,
      url text NOT NULL,
      filter jsonb NOT NULL,
      status text NOT NULL,
      total integer NOT NULL,
      locked_until timestamptz,
      lease_token uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz,
      CONSTRAINT pk_webhook_replay PRIMARY KEY (id),
      CONSTRAINT ck_webhook_replay_status CHECK (status IN ('RUNNING', 'COMPLETED'))
    )`);
    await q.query(`CREATE INDEX ix_webhook_replay_running ON webhook_replay (created_at) WHERE status = 'RUNNING'`);
    await q.query(`CREATE TABLE webhook_replay_item (
      replay_id text NOT NULL,
      position integer NOT NULL,
      delivery_id text NOT NULL,
      status text NOT NULL,
      status_code integer,
      error text,
      attempted_at timestamptz,
      CONSTRAINT pk_webhook_replay_item PRIMARY KEY (replay_id, position),
      CONSTRAINT fk_webhook_replay_item_replay FOREIGN KEY (replay_id) REFERENCES webhook_replay (id) ON DELETE CASCADE,
      CONSTRAINT fk_webhook_replay_item_delivery FOREIGN KEY (delivery_id) REFERENCES webhook_delivery (id) ON DELETE CASCADE,
      CONSTRAINT ck_webhook_replay_item_status CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED'))
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_replay_item`);
    await q.query(`DROP TABLE webhook_replay`);
  }
}
