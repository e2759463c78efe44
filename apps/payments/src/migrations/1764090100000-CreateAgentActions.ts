import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agents' actions and usage. The gateway owns agents and their policies and sends the policy
 * with each money movement; payments checks it where the money moves and keeps what it counted:
 * one usage row per agent (locked to reserve, so concurrent actions cannot overrun a limit) and
 * one row per action (what it counted, so a rejection or failure gives it back).
 */
export class CreateAgentActions1764090100000 implements MigrationInterface {
  name = 'CreateAgentActions1764090100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agent_usage (
        agent_id text NOT NULL,
        platform_id text NOT NULL,
        day text NOT NULL,
        daily_count integer NOT NULL DEFAULT 0,
        daily_spend bigint NOT NULL DEFAULT 0,
        month text NOT NULL,
        monthly_spend bigint NOT NULL DEFAULT 0,
        CONSTRAINT pk_agent_usage PRIMARY KEY (agent_id)
      )`);
    await q.query(`
      CREATE TABLE agent_action (
        id text NOT NULL,
        platform_id text NOT NULL,
        agent_id text NOT NULL,
        customer_id text NOT NULL,
        platform_customer_id text NOT NULL,
        status text NOT NULL,
        type text NOT NULL,
        transfer_details jsonb,
        transaction_id text,
        quote_id text,
        rejection_reason text,
        usage_day text NOT NULL,
        usage_month text NOT NULL,
        usage_amount bigint NOT NULL,
        pending_steps jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_agent_action PRIMARY KEY (id),
        CONSTRAINT uq_agent_action_transaction UNIQUE (transaction_id),
        CONSTRAINT uq_agent_action_quote UNIQUE (quote_id),
        CONSTRAINT ck_agent_action_status CHECK (status IN ('PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED')),
        CONSTRAINT ck_agent_action_type CHECK (type IN ('EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'))
      )`);
    await q.query(`CREATE INDEX ix_agent_action_agent ON agent_action (platform_id, agent_id, id)`);
    await q.query(`CREATE INDEX ix_agent_action_status ON agent_action (platform_id, status, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_action`);
    await q.query(`DROP TABLE agent_usage`);
  }
}
