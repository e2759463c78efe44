import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePlatformsAndTokens1732300200000 implements MigrationInterface {
  name = 'CreatePlatformsAndTokens1732300200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform (
        id text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_platform PRIMARY KEY (id)
      )`);
    await q.query(`
      CREATE TABLE api_token (
        id text NOT NULL,
        platform_id text NOT NULL,
        environment text NOT NULL,
        label text NOT NULL,
        secret_sha256 text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        CONSTRAINT pk_api_token PRIMARY KEY (id),
        CONSTRAINT fk_api_token_platform FOREIGN KEY (platform_id) REFERENCES platform (id),
        CONSTRAINT ck_api_token_environment CHECK (environment IN ('sandbox', 'production'))
      )`);
    await q.query(`CREATE INDEX ix_api_token_platform ON api_token (platform_id)`);
    await q.query(`
      CREATE TABLE agent_access_token (
        id text NOT NULL,
        platform_id text NOT NULL,
        environment text NOT NULL,
        agent_id text NOT NULL,
        customer_id text NOT NULL,
        token_sha256 text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        CONSTRAINT pk_agent_access_token PRIMARY KEY (id),
        CONSTRAINT uq_agent_access_token_digest UNIQUE (token_sha256),
        CONSTRAINT fk_agent_access_token_platform FOREIGN KEY (platform_id) REFERENCES platform (id),
        CONSTRAINT ck_agent_access_token_environment CHECK (environment IN ('sandbox', 'production'))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE agent_access_token`);
    await q.query(`DROP TABLE api_token`);
    await q.query(`DROP TABLE platform`);
  }
}
