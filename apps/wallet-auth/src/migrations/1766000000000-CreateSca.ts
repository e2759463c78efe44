import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Strong Customer Authentication of SCA-regulated customers: enrolled factors (TOTP secrets
 * sealed, passkey public keys), challenges (login, money movement, beneficiary trust), login
 * sessions, the login-security state (failed attempts, lock), trusted beneficiaries and 2FA resets.
 */
export class CreateSca1766000000000 implements MigrationInterface {
  name = 'CreateSca1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sca_factor (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        type text NOT NULL,
        status text NOT NULL,
        secret_sealed text,
        secret_digest text,
        enrollment_challenge text,
        credential_id text,
        public_key text,
        counter bigint NOT NULL DEFAULT 0,
        recovery_code_digests jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_sca_factor PRIMARY KEY (id),
        CONSTRAINT ck_sca_factor_type CHECK (type IN ('TOTP', 'PASSKEY')),
        CONSTRAINT ck_sca_factor_status CHECK (status IN ('PENDING', 'ACTIVE', 'DELETED')),
        CONSTRAINT ck_sca_factor_totp CHECK (type <> 'TOTP' OR (secret_sealed IS NOT NULL AND secret_digest IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ix_sca_factor_customer ON sca_factor (platform_id, customer_id, status)`);
    // One active factor of each kind per customer (one passkey, one authenticator app).
    await q.query(`CREATE UNIQUE INDEX ux_sca_factor_active ON sca_factor (platform_id, customer_id, type) WHERE status = 'ACTIVE'`);

    await q.query(`
      CREATE TABLE sca_challenge (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        purpose text NOT NULL,
        subject_id text NOT NULL,
        factor text NOT NULL,
        available_factors jsonb NOT NULL,
        binding_digest text NOT NULL,
        code_digest text,
        status text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        sent_at timestamptz,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        satisfied_at timestamptz,
        CONSTRAINT pk_sca_challenge PRIMARY KEY (id),
        CONSTRAINT ck_sca_challenge_status CHECK (status IN ('PENDING', 'SATISFIED', 'INVALIDATED')),
        CONSTRAINT ck_sca_challenge_factor CHECK (factor IN ('SMS_OTP', 'TOTP', 'PASSKEY'))
      )`);
    await q.query(`CREATE INDEX ix_sca_challenge_subject ON sca_challenge (platform_id, subject_id, created_at)`);

    await q.query(`
      CREATE TABLE sca_session (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        factor text NOT NULL,
        end_user_ip text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        CONSTRAINT pk_sca_session PRIMARY KEY (id)
      )`);
    await q.query(`CREATE INDEX ix_sca_session_customer ON sca_session (platform_id, customer_id, expires_at)`);

    await q.query(`
      CREATE TABLE sca_login_security (
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0,
        lock_level integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        suspended boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_sca_login_security PRIMARY KEY (platform_id, customer_id),
        CONSTRAINT ck_sca_login_security_level CHECK (lock_level BETWEEN 0 AND 5)
      )`);

    await q.query(`
      CREATE TABLE sca_trusted_beneficiary (
        platform_id text NOT NULL,
        external_account_id text NOT NULL,
        customer_id text NOT NULL,
        trusted boolean NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_sca_trusted_beneficiary PRIMARY KEY (platform_id, external_account_id)
      )`);

    await q.query(`
      CREATE TABLE sca_reset (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        factor text NOT NULL,
        status text NOT NULL,
        liveness_token_digest text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz,
        CONSTRAINT pk_sca_reset PRIMARY KEY (id),
        CONSTRAINT ck_sca_reset_status CHECK (status IN ('INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED', 'COMPLETED', 'REJECTED')),
        CONSTRAINT ck_sca_reset_completed CHECK ((status = 'COMPLETED') = (completed_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ix_sca_reset_customer ON sca_reset (platform_id, customer_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['sca_reset', 'sca_trusted_beneficiary', 'sca_login_security', 'sca_session', 'sca_challenge', 'sca_factor']) await q.query(`DROP TABLE ${table}`);
  }
}
