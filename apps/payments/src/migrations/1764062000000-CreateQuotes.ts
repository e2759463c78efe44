import { MigrationInterface, QueryRunner } from 'typeorm';

const OLD_PURPOSES = `'HOLDING', 'SANDBOX_FUNDING', 'EXTERNAL_CLEARING', 'CARD_SETTLEMENT'`;
const NEW_PURPOSES = `${OLD_PURPOSES}, 'FX_CONVERSION', 'FEES'`;
const OLD_KINDS = `'SANDBOX_FUNDING', 'HOLD_CAPTURE', 'HOLD_REFUND', 'TRANSFER_OUT', 'TRANSFER_IN', 'CARD_CREDIT'`;
const NEW_KINDS = `${OLD_KINDS}, 'QUOTE_EXECUTION', 'QUOTE_PAYOUT', 'QUOTE_REFUND', 'QUOTE_RETURN', 'UMA_RECEIVE'`;

/**
 * Cross-currency quotes. A quote locks a corridor's rate and fees until it expires and executes
 * at most once (its status moves PENDING -> PROCESSING by one conditional update). Its money
 * moves through two new contra purposes: FX_CONVERSION (one per currency: the source leg pays
 * into it, the destination leg pays out of it, so every entry balances in its own currency) and
 * FEES. A transaction of a quote records the received currency and amount beside the sent ones,
 * and its counterparty account is absent for a UMA receiver.
 */
export class CreateQuotes1764062000000 implements MigrationInterface {
  name = 'CreateQuotes1764062000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_account DROP CONSTRAINT ck_ledger_account_purpose`);
    await q.query(`ALTER TABLE ledger_account ADD CONSTRAINT ck_ledger_account_purpose CHECK (purpose IN (${NEW_PURPOSES}))`);
    await q.query(`ALTER TABLE journal_entry DROP CONSTRAINT ck_journal_entry_kind`);
    await q.query(`ALTER TABLE journal_entry ADD CONSTRAINT ck_journal_entry_kind CHECK (kind IN (${NEW_KINDS}))`);

    await q.query(`
      CREATE TABLE quote (
        id text NOT NULL,
        platform_id text NOT NULL,
        status text NOT NULL,
        source_type text NOT NULL,
        source_account_id text,
        funding_account_id text,
        customer_id text,
        source_currency text NOT NULL,
        crypto_network text,
        destination_type text NOT NULL,
        destination_kind text NOT NULL,
        destination_account_id text,
        destination_uma_address text,
        destination_currency text NOT NULL,
        payment_rail text NOT NULL,
        locked_side text NOT NULL,
        sending_amount bigint NOT NULL,
        receiving_amount bigint NOT NULL,
        service_fee bigint NOT NULL,
        platform_fee bigint NOT NULL,
        rate_micros bigint NOT NULL,
        fixed_fee bigint NOT NULL,
        variable_fee_bps integer NOT NULL,
        transaction_id text NOT NULL,
        sandbox_outcome text,
        funding_reference text,
        description text,
        extra jsonb NOT NULL DEFAULT '{}'::jsonb,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        executed_at timestamptz,
        CONSTRAINT pk_quote PRIMARY KEY (id),
        CONSTRAINT uq_quote_transaction UNIQUE (transaction_id),
        CONSTRAINT uq_quote_funding_reference UNIQUE (funding_reference),
        CONSTRAINT ck_quote_status CHECK (status IN ('PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
        CONSTRAINT ck_quote_source_type CHECK (source_type IN ('ACCOUNT', 'REALTIME_FUNDING')),
        CONSTRAINT ck_quote_source_account CHECK ((source_type = 'ACCOUNT') = (source_account_id IS NOT NULL)),
        CONSTRAINT ck_quote_funding_account CHECK ((source_type = 'REALTIME_FUNDING') = (funding_account_id IS NOT NULL)),
        CONSTRAINT ck_quote_destination_type CHECK (destination_type IN ('ACCOUNT', 'UMA_ADDRESS')),
        CONSTRAINT ck_quote_destination_kind CHECK (destination_kind IN ('INTERNAL_ACCOUNT', 'EXTERNAL_ACCOUNT', 'UMA_SANDBOX', 'UMA_CUSTOMER')),
        CONSTRAINT ck_quote_locked_side CHECK (locked_side IN ('SENDING', 'RECEIVING')),
        CONSTRAINT ck_quote_amounts CHECK (sending_amount > 0 AND receiving_amount > 0 AND service_fee >= 0 AND platform_fee >= 0 AND service_fee + platform_fee < sending_amount),
        CONSTRAINT ck_quote_rate CHECK (rate_micros > 0),
        CONSTRAINT ck_quote_failure CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX ix_quote_platform ON quote (platform_id, id DESC)`);

    // Receiver lookups a quote may reference by id, and the UMA addresses of this deployment's customers.
    await q.query(`
      CREATE TABLE receiver_lookup (
        id text NOT NULL,
        platform_id text NOT NULL,
        kind text NOT NULL,
        target text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_receiver_lookup PRIMARY KEY (id),
        CONSTRAINT ck_receiver_lookup_kind CHECK (kind IN ('UMA_ADDRESS', 'EXTERNAL_ACCOUNT'))
      )`);
    await q.query(`
      CREATE TABLE uma_directory (
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        uma_address text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_uma_directory PRIMARY KEY (platform_id, customer_id)
      )`);
    await q.query(`CREATE INDEX ix_uma_directory_address ON uma_directory (uma_address)`);

    await q.query(`
      CREATE TABLE invitation (
        code text NOT NULL,
        platform_id text NOT NULL,
        inviter_uma text NOT NULL,
        inviter_customer_id text NOT NULL,
        invitee_uma text,
        first_name text,
        amount_to_send bigint,
        amount_currency text,
        status text NOT NULL DEFAULT 'PENDING',
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        claimed_at timestamptz,
        cancelled_at timestamptz,
        CONSTRAINT pk_invitation PRIMARY KEY (code),
        CONSTRAINT ck_invitation_status CHECK (status IN ('PENDING', 'CLAIMED', 'CANCELLED')),
        CONSTRAINT ck_invitation_claimed CHECK ((status = 'CLAIMED') = (claimed_at IS NOT NULL AND invitee_uma IS NOT NULL)),
        CONSTRAINT ck_invitation_amount CHECK ((amount_to_send IS NULL) = (amount_currency IS NULL) AND (amount_to_send IS NULL OR amount_to_send > 0))
      )`);
    await q.query(`CREATE INDEX ix_invitation_platform ON invitation (platform_id, created_at DESC)`);

    await q.query(`ALTER TABLE payment_transaction ALTER COLUMN external_account_id DROP NOT NULL`);
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN quote_id text`);
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN received_currency_code text`);
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN received_amount bigint`);
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN counterparty_uma_address text`);
    await q.query(
      `ALTER TABLE payment_transaction ADD CONSTRAINT ck_payment_transaction_received CHECK ((received_currency_code IS NULL) = (received_amount IS NULL) AND (received_amount IS NULL OR received_amount > 0))`,
    );
    await q.query(
      `ALTER TABLE payment_transaction ADD CONSTRAINT ck_payment_transaction_counterparty CHECK (external_account_id IS NOT NULL OR counterparty_uma_address IS NOT NULL)`,
    );
    await q.query(`CREATE UNIQUE INDEX ux_payment_transaction_quote ON payment_transaction (quote_id) WHERE quote_id IS NOT NULL`);
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN receipt_delivery_confirmed_at timestamptz`);
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN counterparty_information jsonb`);

    // Transactions that wait for the platform's decision (incoming payments): decided once, by the platform or by the deadline.
    await q.query(`
      CREATE TABLE payment_decision (
        transaction_id text NOT NULL,
        platform_id text NOT NULL,
        status text NOT NULL DEFAULT 'AWAITING',
        decide_by timestamptz NOT NULL,
        requested_fields jsonb NOT NULL DEFAULT '[]'::jsonb,
        receiver_customer_info jsonb,
        reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        CONSTRAINT pk_payment_decision PRIMARY KEY (transaction_id),
        CONSTRAINT fk_payment_decision_transaction FOREIGN KEY (transaction_id) REFERENCES payment_transaction (id),
        CONSTRAINT ck_payment_decision_status CHECK (status IN ('AWAITING', 'APPROVED', 'REJECTED', 'TIMED_OUT')),
        CONSTRAINT ck_payment_decision_decided CHECK ((status = 'AWAITING') = (decided_at IS NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payment_decision`);
    await q.query(`ALTER TABLE payment_transaction DROP COLUMN counterparty_information`);
    await q.query(`ALTER TABLE payment_transaction DROP COLUMN receipt_delivery_confirmed_at`);
    await q.query(`DROP INDEX ux_payment_transaction_quote`);
    await q.query(`ALTER TABLE payment_transaction DROP CONSTRAINT ck_payment_transaction_counterparty`);
    await q.query(`ALTER TABLE payment_transaction DROP CONSTRAINT ck_payment_transaction_received`);
    for (const column of ['counterparty_uma_address', 'received_amount', 'received_currency_code', 'quote_id']) {
      await q.query(`ALTER TABLE payment_transaction DROP COLUMN ${column}`);
    }
    await q.query(`ALTER TABLE payment_transaction ALTER COLUMN external_account_id SET NOT NULL`);
    await q.query(`DROP TABLE quote`);
    await q.query(`DROP TABLE invitation`);
    await q.query(`DROP TABLE uma_directory`);
    await q.query(`DROP TABLE receiver_lookup`);
    await q.query(`ALTER TABLE journal_entry DROP CONSTRAINT ck_journal_entry_kind`);
    await q.query(`ALTER TABLE journal_entry ADD CONSTRAINT ck_journal_entry_kind CHECK (kind IN (${OLD_KINDS}))`);
    await q.query(`ALTER TABLE ledger_account DROP CONSTRAINT ck_ledger_account_purpose`);
    await q.query(`ALTER TABLE ledger_account ADD CONSTRAINT ck_ledger_account_purpose CHECK (purpose IN (${OLD_PURPOSES}))`);
  }
}
