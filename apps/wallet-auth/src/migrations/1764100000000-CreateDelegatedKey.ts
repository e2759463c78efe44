import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDelegatedKey1764100000000 implements MigrationInterface {
  name = 'CreateDelegatedKey1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE delegated_key (
        id text NOT NULL,
        platform_id text NOT NULL,
        account_id text NOT NULL,
        card_id text NOT NULL,
        funding_source_id text NOT NULL,
        public_key text NOT NULL,
        private_key_sealed text NOT NULL,
        nickname text NOT NULL,
        status text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revoked_at timestamptz,
        CONSTRAINT pk_delegated_key PRIMARY KEY (id),
        CONSTRAINT ck_delegated_key_status CHECK (status IN ('PENDING', 'ACTIVE', 'REVOKED')),
        CONSTRAINT ck_delegated_key_revoked CHECK ((status = 'REVOKED') = (revoked_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ix_delegated_key_account ON delegated_key (platform_id, account_id, id)`);
    await q.query(`CREATE INDEX ix_delegated_key_funding_source ON delegated_key (platform_id, funding_source_id, id)`);
    // At most one ACTIVE key per card funding source.
    await q.query(`CREATE UNIQUE INDEX ux_delegated_key_active ON delegated_key (platform_id, funding_source_id) WHERE status = 'ACTIVE'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE delegated_key`);
  }
}
