import { MigrationInterface, QueryRunner } from 'typeorm';

/** Platform webhook settings and signing keys; one delivery per event id; every attempt. */
export class CreateWebhookDeliveries1761000000000 implements MigrationInterface {
  name = 'CreateWebhookDeliveries1761000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_platform (
        platform_id text NOT NULL,
        endpoint_url text,
        public_key_pem text NOT NULL,
        sealed_private_key text NOT NULL,
        key_encryption_key_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_webhook_platform PRIMARY KEY (platform_id)
      )`);
    await q.query(`
      CREATE TABLE webhook_delivery (
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        event_id uuid NOT NULL,
        platform_id text NOT NULL,
        resource_id text NOT NULL,
        type text NOT NULL,
        body text NOT NULL,
        occurred_at timestamptz NOT NULL,
        status text NOT NULL,
        attempt_count integer NOT NULL DEFAULT 0,
        round_failures integer NOT NULL DEFAULT 0,
        round_started_at timestamptz,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        lease_token uuid,
        redeliver_requested_at timestamptz,
        last_attempt_at timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_webhook_delivery PRIMARY KEY (id),
        CONSTRAINT uq_webhook_delivery_seq UNIQUE (seq),
        CONSTRAINT uq_webhook_delivery_event UNIQUE (event_id),
        CONSTRAINT ck_webhook_delivery_status CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'SKIPPED')),
        CONSTRAINT ck_webhook_delivery_pending_has_next CHECK (status <> 'PENDING' OR next_attempt_at IS NOT NULL)
      )`);
    // The worker's two questions: what is due per platform, and is an earlier event of the same resource still pending.
    await q.query(`CREATE INDEX ix_webhook_delivery_due ON webhook_delivery (platform_id, next_attempt_at) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX ix_webhook_delivery_resource_queue ON webhook_delivery (platform_id, resource_id, occurred_at, seq) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX ix_webhook_delivery_leased ON webhook_delivery (platform_id, locked_until) WHERE status = 'PENDING' AND locked_until IS NOT NULL`);
    // The delivery log, newest first.
    await q.query(`CREATE INDEX ix_webhook_delivery_platform_seq ON webhook_delivery (platform_id, seq DESC)`);
    await q.query(`CREATE INDEX ix_webhook_delivery_platform_resource ON webhook_delivery (platform_id, resource_id, seq DESC)`);
    await q.query(`
      CREATE TABLE webhook_delivery_attempt (
        delivery_id text NOT NULL,
        number integer NOT NULL,
        trigger text NOT NULL,
        attempted_at timestamptz NOT NULL,
        endpoint text NOT NULL,
        status_code integer,
        latency_ms integer NOT NULL,
        error text,
        succeeded boolean NOT NULL,
        CONSTRAINT pk_webhook_delivery_attempt PRIMARY KEY (delivery_id, number),
        CONSTRAINT fk_webhook_delivery_attempt_delivery FOREIGN KEY (delivery_id) REFERENCES webhook_delivery (id),
        CONSTRAINT ck_webhook_delivery_attempt_trigger CHECK (trigger IN ('SCHEDULED', 'MANUAL'))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempt`);
    await q.query(`DROP TABLE webhook_delivery`);
    await q.query(`DROP TABLE webhook_platform`);
  }
}
