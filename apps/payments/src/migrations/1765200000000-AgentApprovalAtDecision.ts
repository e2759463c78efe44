import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An agent action waiting for approval holds nothing: its balance and limits are checked when
 * the platform approves it (the agents guide). The action keeps the policy it was submitted
 * under (the limits its approval is checked against), whether its usage is counted (only once
 * approved; rows written before this migration counted theirs at submission) and why it FAILED.
 */
export class AgentApprovalAtDecision1765200000000 implements MigrationInterface {
  name = 'AgentApprovalAtDecision1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent_action ADD COLUMN policy jsonb, ADD COLUMN failure_reason text, ADD COLUMN usage_counted boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent_action DROP COLUMN policy, DROP COLUMN failure_reason, DROP COLUMN usage_counted`);
  }
}
