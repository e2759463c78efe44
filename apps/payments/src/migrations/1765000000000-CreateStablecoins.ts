import { MigrationInterface, QueryRunner } from 'typeorm';

const OLD_PURPOSES = `'HOLDING', 'SANDBOX_FUNDING', 'EXTERNAL_CLEARING', 'CARD_SETTLEMENT', 'FX_CONVERSION', 'FEES'`;
const NEW_PURPOSES = `${OLD_PURPOSES}, 'STABLECOIN_SUPPLY', 'STABLECOIN_RESERVE'`;
const OLD_KINDS = `'SANDBOX_FUNDING', 'HOLD_CAPTURE', 'HOLD_REFUND', 'TRANSFER_OUT', 'TRANSFER_IN', 'CARD_CREDIT', 'QUOTE_EXECUTION', 'QUOTE_PAYOUT', 'QUOTE_REFUND', 'QUOTE_RETURN', 'UMA_RECEIVE'`;
const NEW_KINDS = `${OLD_KINDS}, 'STABLECOIN_MINT', 'STABLECOIN_BURN'`;

/**
 * Stablecoin issuance. A platform links provider credentials (the secret sealed), registers a coin
 * the provider created, and mints and burns it. Money moves through two new contra purposes, one
 * per currency: STABLECOIN_SUPPLY in the coin (minting debits it, burning credits it, so minus its
 * balance is the supply outstanding) and STABLECOIN_RESERVE in the base currency (the fiat backing
 * the supply). An enabled coin becomes a row of `currency`, with `pegged_to` naming its base
 * currency; a coin's symbol is unique in the deployment while it may still be enabled.
 */
export class CreateStablecoins1765000000000 implements MigrationInterface {
  name = 'CreateStablecoins1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_account DROP CONSTRAINT ck_ledger_account_purpose`);
    await q.query(`ALTER TABLE ledger_account ADD CONSTRAINT ck_ledger_account_purpose CHECK (purpose IN (${NEW_PURPOSES}))`);
    await q.query(`ALTER TABLE journal_entry DROP CONSTRAINT ck_journal_entry_kind`);
    await q.query(`ALTER TABLE journal_entry ADD CONSTRAINT ck_journal_entry_kind CHECK (kind IN (${NEW_KINDS}))`);
    await q.query(`ALTER TABLE currency ADD COLUMN pegged_to text`);

    await q.query(`
      CREATE TABLE stablecoin_provider_account (
        id text NOT NULL,
        platform_id text NOT NULL,
        provider text NOT NULL,
        provider_account_id text NOT NULL,
        environment text NOT NULL,
        status text NOT NULL,
        api_client_id text NOT NULL,
        sealed_client_secret text NOT NULL,
        last_verified_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_stablecoin_provider_account PRIMARY KEY (id),
        CONSTRAINT ck_stablecoin_provider_account_provider CHECK (provider IN ('BRALE')),
        CONSTRAINT ck_stablecoin_provider_account_environment CHECK (environment IN ('SANDBOX', 'PRODUCTION')),
        CONSTRAINT ck_stablecoin_provider_account_status CHECK (status IN ('ACTIVE', 'INVALID', 'REVOKED'))
      )`);
    await q.query(`CREATE INDEX ix_stablecoin_provider_account_platform ON stablecoin_provider_account (platform_id, id)`);

    await q.query(`
      CREATE TABLE stablecoin (
        id text NOT NULL,
        platform_id text NOT NULL,
        provider_account_id text NOT NULL,
        provider text NOT NULL,
        environment text NOT NULL,
        name text NOT NULL,
        symbol text NOT NULL,
        base_currency text NOT NULL,
        network text NOT NULL,
        decimals integer NOT NULL,
        provider_token_identifier text NOT NULL,
        network_token_identifier text NOT NULL,
        issuance_status text NOT NULL,
        service_operations_status text NOT NULL,
        currency text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_stablecoin PRIMARY KEY (id),
        CONSTRAINT fk_stablecoin_provider_account FOREIGN KEY (provider_account_id) REFERENCES stablecoin_provider_account (id),
        CONSTRAINT ck_stablecoin_issuance_status CHECK (issuance_status IN ('PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED')),
        CONSTRAINT ck_stablecoin_service_operations_status CHECK (service_operations_status IN ('NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED')),
        CONSTRAINT ck_stablecoin_network CHECK (network IN ('SPARK')),
        CONSTRAINT ck_stablecoin_decimals CHECK (decimals >= 2 AND decimals <= 18),
        CONSTRAINT ck_stablecoin_currency CHECK (service_operations_status <> 'ENABLED' OR currency IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX ix_stablecoin_platform ON stablecoin (platform_id, id)`);
    // A symbol names one coin in the deployment (it becomes a currency code) unless its registration ended.
    await q.query(`CREATE UNIQUE INDEX uq_stablecoin_symbol ON stablecoin (symbol) WHERE issuance_status NOT IN ('REJECTED', 'FAILED')`);

    await q.query(`
      CREATE TABLE stablecoin_operation (
        id text NOT NULL,
        platform_id text NOT NULL,
        stablecoin_id text NOT NULL,
        operation_type text NOT NULL,
        status text NOT NULL,
        amount bigint NOT NULL,
        fiat_amount bigint NOT NULL,
        fiat_currency text NOT NULL,
        provider_account_id text NOT NULL,
        source jsonb NOT NULL,
        destination jsonb NOT NULL,
        funding_instructions jsonb,
        estimated_delivery jsonb,
        hold_id text,
        outcome_key text NOT NULL,
        expires_at timestamptz,
        provider_status text,
        failure_reason text,
        description text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT pk_stablecoin_operation PRIMARY KEY (id),
        CONSTRAINT fk_stablecoin_operation_stablecoin FOREIGN KEY (stablecoin_id) REFERENCES stablecoin (id),
        CONSTRAINT ck_stablecoin_operation_type CHECK (operation_type IN ('MINT', 'BURN')),
        CONSTRAINT ck_stablecoin_operation_status CHECK (status IN ('CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
        CONSTRAINT ck_stablecoin_operation_amount CHECK (amount > 0 AND fiat_amount > 0),
        CONSTRAINT ck_stablecoin_operation_failure CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ix_stablecoin_operation_stablecoin ON stablecoin_operation (platform_id, stablecoin_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE stablecoin_operation`);
    await q.query(`DROP TABLE stablecoin`);
    await q.query(`DROP TABLE stablecoin_provider_account`);
    await q.query(`DELETE FROM currency WHERE pegged_to IS NOT NULL`);
    await q.query(`ALTER TABLE currency DROP COLUMN pegged_to`);
    await q.query(`ALTER TABLE journal_entry DROP CONSTRAINT ck_journal_entry_kind`);
    await q.query(`ALTER TABLE journal_entry ADD CONSTRAINT ck_journal_entry_kind CHECK (kind IN (${OLD_KINDS}))`);
    await q.query(`ALTER TABLE ledger_account DROP CONSTRAINT ck_ledger_account_purpose`);
    await q.query(`ALTER TABLE ledger_account ADD CONSTRAINT ck_ledger_account_purpose CHECK (purpose IN (${OLD_PURPOSES}))`);
  }
}
