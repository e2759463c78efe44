import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWalletAuth1732300400000 implements MigrationInterface {
  name = 'CreateWalletAuth1732300400000';

  async up(q: QueryRunner): Promise<void> {
    // The deployment's enclave key (signs OTP target bundles, seals secrets at rest). One row.
    await q.query(`
      CREATE TABLE enclave_key (
        id text NOT NULL,
        private_key_hex text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_enclave_key PRIMARY KEY (id)
      )`);
    // Embedded wallet accounts as the payments service announced them (a local projection).
    await q.query(`
      CREATE TABLE wallet_account (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text,
        wallet_email text,
        wallet_key_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_wallet_account PRIMARY KEY (id)
      )`);
    await q.query(`CREATE INDEX ix_wallet_account_customer ON wallet_account (platform_id, customer_id)`);
    await q.query(`
      CREATE TABLE auth_credential (
        id text NOT NULL,
        platform_id text NOT NULL,
        account_id text NOT NULL,
        type text NOT NULL,
        nickname text NOT NULL,
        email text,
        phone_number text,
        tied_customer_id text,
        passkey_credential_id text,
        passkey_public_key bytea,
        passkey_counter bigint,
        passkey_transports jsonb,
        oidc_issuer text,
        oidc_audience text,
        oidc_subject text,
        status text NOT NULL DEFAULT 'ACTIVE',
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_auth_credential PRIMARY KEY (id),
        CONSTRAINT ck_auth_credential_type CHECK (type IN ('EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH')),
        CONSTRAINT ck_auth_credential_status CHECK (status IN ('ACTIVE', 'REVOKED')),
        CONSTRAINT ck_auth_credential_revoked CHECK ((status = 'REVOKED') = (revoked_at IS NOT NULL)),
        CONSTRAINT ck_auth_credential_passkey CHECK (type <> 'PASSKEY' OR (passkey_credential_id IS NOT NULL AND passkey_public_key IS NOT NULL AND passkey_counter IS NOT NULL)),
        CONSTRAINT ck_auth_credential_oauth CHECK (type <> 'OAUTH' OR (oidc_issuer IS NOT NULL AND oidc_audience IS NOT NULL AND oidc_subject IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ix_auth_credential_account ON auth_credential (platform_id, account_id, id)`);
    await q.query(`CREATE INDEX ix_auth_credential_tied_customer ON auth_credential (platform_id, tied_customer_id) WHERE tied_customer_id IS NOT NULL`);
    // The spec's limits, enforced by the database so concurrent requests cannot break them.
    await q.query(`CREATE UNIQUE INDEX ux_auth_credential_email_otp ON auth_credential (account_id) WHERE type = 'EMAIL_OTP' AND status = 'ACTIVE'`);
    await q.query(`CREATE UNIQUE INDEX ux_auth_credential_sms_otp ON auth_credential (account_id) WHERE type = 'SMS_OTP' AND status = 'ACTIVE'`);
    await q.query(`CREATE UNIQUE INDEX ux_auth_credential_passkey ON auth_credential (account_id, passkey_credential_id) WHERE type = 'PASSKEY' AND status = 'ACTIVE'`);
    await q.query(`CREATE UNIQUE INDEX ux_auth_credential_oauth ON auth_credential (account_id, oidc_issuer, oidc_subject) WHERE type = 'OAUTH' AND status = 'ACTIVE'`);

    await q.query(`
      CREATE TABLE otp_challenge (
        id text NOT NULL,
        platform_id text NOT NULL,
        credential_id text NOT NULL,
        target_key_sealed text,
        code_digest text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL,
        expires_at timestamptz NOT NULL,
        verified_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_otp_challenge PRIMARY KEY (id),
        CONSTRAINT ck_otp_challenge_attempts CHECK (attempts >= 0 AND attempts <= max_attempts)
      )`);
    await q.query(`CREATE INDEX ix_otp_challenge_credential ON otp_challenge (credential_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE passkey_challenge (
        request_id text NOT NULL,
        platform_id text NOT NULL,
        credential_id text NOT NULL,
        challenge text NOT NULL,
        client_public_key text NOT NULL,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_passkey_challenge PRIMARY KEY (request_id)
      )`);

    await q.query(`
      CREATE TABLE auth_session (
        id text NOT NULL,
        platform_id text NOT NULL,
        account_id text NOT NULL,
        credential_id text NOT NULL,
        public_key text NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_auth_session PRIMARY KEY (id)
      )`);
    await q.query(`CREATE INDEX ix_auth_session_account ON auth_session (platform_id, account_id, id)`);
    await q.query(`CREATE INDEX ix_auth_session_key ON auth_session (account_id, public_key) WHERE revoked_at IS NULL`);
    await q.query(`CREATE INDEX ix_auth_session_credential ON auth_session (credential_id) WHERE revoked_at IS NULL`);

    await q.query(`
      CREATE TABLE signed_retry_challenge (
        request_id text NOT NULL,
        platform_id text NOT NULL,
        account_id text NOT NULL,
        operation text NOT NULL,
        request_digest text NOT NULL,
        payload_to_sign text NOT NULL,
        signer_public_key text,
        context jsonb,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        consumed_by_session_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_signed_retry_challenge PRIMARY KEY (request_id)
      )`);
    await q.query(`CREATE INDEX ix_signed_retry_challenge_expiry ON signed_retry_challenge (expires_at)`);

    // OIDC tokens seen (by digest), so a replayed token is refused.
    await q.query(`
      CREATE TABLE oidc_token_use (
        token_digest text NOT NULL,
        platform_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_oidc_token_use PRIMARY KEY (token_digest)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['oidc_token_use', 'signed_retry_challenge', 'auth_session', 'passkey_challenge', 'otp_challenge', 'auth_credential', 'wallet_account', 'enclave_key']) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
