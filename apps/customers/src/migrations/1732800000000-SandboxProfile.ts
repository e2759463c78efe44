import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A platform's sandbox profile (SPEC, the default: SPEC.md's tables; HOSTED: the hosted sandbox's
 * current guides), and the verification statuses the HOSTED profile answers.
 */
export class SandboxProfile1732800000000 implements MigrationInterface {
  name = 'SandboxProfile1732800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE platform_config ADD COLUMN sandbox_profile text NOT NULL DEFAULT 'SPEC',
        ADD CONSTRAINT ck_platform_config_sandbox_profile CHECK (sandbox_profile IN ('SPEC', 'HOSTED'))`,
    );
    await q.query(`ALTER TABLE verification DROP CONSTRAINT ck_verification_status`);
    await q.query(
      `ALTER TABLE verification ADD CONSTRAINT ck_verification_status
        CHECK (verification_status IN ('IN_PROGRESS', 'REJECTED', 'RESOLVE_ERRORS', 'PENDING_MANUAL_REVIEW', 'APPROVED'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verification DROP CONSTRAINT ck_verification_status`);
    await q.query(`ALTER TABLE verification ADD CONSTRAINT ck_verification_status CHECK (verification_status IN ('IN_PROGRESS', 'REJECTED', 'RESOLVE_ERRORS'))`);
    await q.query(`ALTER TABLE platform_config DROP CONSTRAINT ck_platform_config_sandbox_profile, DROP COLUMN sandbox_profile`);
  }
}
