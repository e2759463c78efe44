import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sandbox faults on webhook deliveries: each fails the platform's next `remaining` attempts. */
export class CreateDeliveryFaults1765100000000 implements MigrationInterface {
  name = 'CreateDeliveryFaults1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_delivery_fault (
      id text NOT NULL,
      platform_id text NOT NULL,
      status integer NOT NULL,
      count integer NOT NULL,
      remaining integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT pk_webhook_delivery_fault PRIMARY KEY (id),
      CONSTRAINT ck_webhook_delivery_fault_remaining CHECK (remaining >= 0 AND remaining <= count)
    )`);
    await q.query(`CREATE INDEX ix_webhook_delivery_fault_platform_active ON webhook_delivery_fault (platform_id, id) WHERE remaining > 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_fault`);
  }
}
