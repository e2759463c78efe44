import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agents (a platform's delegate for one customer, with its policy) and their device codes
 * (digests only). Agent access tokens already have their table; a token is looked up with its
 * agent in one statement, so pausing or deleting an agent stops its tokens at once.
 */
export class CreateAgents1764320000000 implements MigrationInterface {
  name = 'CreateAgents1764320000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent (
        id text NOT NULL,
        platform_id text NOT NULL,
        environment text NOT NULL,
        name text NOT NULL,
        customer_id text NOT NULL,
        policy jsonb NOT NULL,
        is_paused boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz,
        CONSTRAINT pk_agent PRIMARY KEY (id),
        CONSTRAINT fk_agent_platform FOREIGN KEY (platform_id) REFERENCES platform (id),
        CONSTRAINT ck_agent_environment CHECK (environment IN ('sandbox', 'production'))
      )`);
    await q.query(`CREATE INDEX ix_agent_platform_id ON agent (platform_id, id)`);
    await q.query(`
      CREATE TABLE agent_device_code (
        code_sha256 text NOT NULL,
        platform_id text NOT NULL,
        agent_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        redeemed_at timestamptz,
        voided_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_agent_device_code PRIMARY KEY (code_sha256),
        CONSTRAINT fk_agent_device_code_agent FOREIGN KEY (agent_id) REFERENCES agent (id)
      )`);
    await q.query(`CREATE INDEX ix_agent_device_code_agent ON agent_device_code (agent_id)`);
    await q.query(`CREATE INDEX ix_agent_access_token_agent ON agent_access_token (agent_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_agent_access_token_agent`);
    await q.query(`DROP TABLE agent_device_code`);
    await q.query(`DROP TABLE agent`);
  }
}
