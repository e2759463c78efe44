import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reference currencies, internal accounts on a double-entry ledger, holds, transactions and
 * velocity limits. The database backs every ledger invariant the code keeps:
 * - an entry's postings sum to zero (deferred constraint trigger, checked at commit);
 * - postings and entries are immutable (triggers refuse UPDATE and DELETE);
 * - a checked account's available balance (posted - held) never goes below zero (CHECK);
 * - a posting is in its account's currency (composite foreign key).
 */
export class CreateLedger1732300300000 implements MigrationInterface {
  name = 'CreateLedger1732300300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE currency (
        code text NOT NULL,
        name text NOT NULL,
        symbol text NOT NULL,
        decimals integer NOT NULL,
        is_crypto boolean NOT NULL,
        max_transfer_amount bigint NOT NULL,
        CONSTRAINT pk_currency PRIMARY KEY (code),
        CONSTRAINT ck_currency_decimals CHECK (decimals >= 0),
        CONSTRAINT ck_currency_max_transfer CHECK (max_transfer_amount > 0)
      )`);
    const currencies: Array<[string, string, string, number, boolean, string]> = [
      ['USD', 'US Dollar', '$', 2, false, '100000000'],
      ['EUR', 'Euro', '€', 2, false, '100000000'],
      ['GBP', 'Pound Sterling', '£', 2, false, '100000000'],
      ['MXN', 'Mexican Peso', '$', 2, false, '2000000000'],
      ['BRL', 'Brazilian Real', 'R$', 2, false, '500000000'],
      ['PHP', 'Philippine Peso', '₱', 2, false, '5000000000'],
      ['COP', 'Colombian Peso', '$', 2, false, '400000000000'],
      ['INR', 'Indian Rupee', '₹', 2, false, '8000000000'],
      ['NGN', 'Nigerian Naira', '₦', 2, false, '150000000000'],
      ['ZAR', 'South African Rand', 'R', 2, false, '2000000000'],
      ['KES', 'Kenyan Shilling', 'KSh', 2, false, '15000000000'],
      ['TZS', 'Tanzanian Shilling', 'TSh', 2, false, '250000000000'],
      ['ZMW', 'Zambian Kwacha', 'ZK', 2, false, '2500000000'],
      ['RWF', 'Rwandan Franc', 'FRw', 0, false, '1300000000'],
      ['MWK', 'Malawian Kwacha', 'MK', 2, false, '170000000000'],
      ['UGX', 'Ugandan Shilling', 'USh', 0, false, '3700000000'],
      ['XOF', 'West African CFA Franc', 'CFA', 0, false, '600000000'],
      ['XAF', 'Central African CFA Franc', 'FCFA', 0, false, '600000000'],
      ['BWP', 'Botswana Pula', 'P', 2, false, '1300000000'],
      ['CAD', 'Canadian Dollar', '$', 2, false, '140000000'],
      ['DKK', 'Danish Krone', 'kr', 2, false, '700000000'],
      ['HKD', 'Hong Kong Dollar', 'HK$', 2, false, '780000000'],
      ['IDR', 'Indonesian Rupiah', 'Rp', 2, false, '1600000000000'],
      ['MYR', 'Malaysian Ringgit', 'RM', 2, false, '470000000'],
      ['SGD', 'Singapore Dollar', 'S$', 2, false, '135000000'],
      ['THB', 'Thai Baht', '฿', 2, false, '3500000000'],
      ['VND', 'Vietnamese Dong', '₫', 0, false, '25000000000'],
      ['AED', 'UAE Dirham', 'د.إ', 2, false, '370000000'],
      ['BTC', 'Bitcoin', '₿', 8, true, '1000000000'],
      ['USDC', 'USD Coin', 'USDC', 6, true, '1000000000000'],
      ['USDT', 'Tether USD', 'USDT', 6, true, '1000000000000'],
    ];
    for (const [code, name, symbol, decimals, isCrypto, max] of currencies) {
      await q.query(`INSERT INTO currency (code, name, symbol, decimals, is_crypto, max_transfer_amount) VALUES ($1, $2, $3, $4, $5, $6)`, [
        code,
        name,
        symbol,
        decimals,
        isCrypto,
        max,
      ]);
    }

    await q.query(`
      CREATE TABLE ledger_account (
        id text NOT NULL,
        platform_id text NOT NULL,
        currency_code text NOT NULL,
        purpose text NOT NULL,
        checked boolean NOT NULL,
        posted bigint NOT NULL DEFAULT 0,
        held bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_ledger_account PRIMARY KEY (id),
        CONSTRAINT uq_ledger_account_id_currency UNIQUE (id, currency_code),
        CONSTRAINT fk_ledger_account_currency FOREIGN KEY (currency_code) REFERENCES currency (code),
        CONSTRAINT ck_ledger_account_purpose CHECK (purpose IN ('HOLDING', 'SANDBOX_FUNDING', 'EXTERNAL_CLEARING', 'CARD_SETTLEMENT')),
        CONSTRAINT ck_ledger_account_held CHECK (held >= 0),
        CONSTRAINT ck_ledger_account_available CHECK (NOT checked OR posted - held >= 0),
        CONSTRAINT ck_ledger_account_unchecked_totals CHECK (checked OR (posted = 0 AND held = 0))
      )`);
    await q.query(`CREATE UNIQUE INDEX ux_ledger_account_system ON ledger_account (platform_id, currency_code, purpose) WHERE purpose <> 'HOLDING'`);

    await q.query(`
      CREATE TABLE internal_account (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text,
        type text NOT NULL,
        status text NOT NULL,
        currency_code text NOT NULL,
        wallet_email text,
        private_enabled boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_internal_account PRIMARY KEY (id),
        CONSTRAINT fk_internal_account_ledger FOREIGN KEY (id, currency_code) REFERENCES ledger_account (id, currency_code) DEFERRABLE INITIALLY DEFERRED,
        CONSTRAINT uq_internal_account_owner UNIQUE NULLS NOT DISTINCT (platform_id, customer_id, currency_code, type),
        CONSTRAINT ck_internal_account_type CHECK (type IN ('INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET')),
        CONSTRAINT ck_internal_account_status CHECK (status IN ('PENDING', 'ACTIVE', 'FROZEN', 'CLOSED'))
      )`);
    await q.query(`CREATE INDEX ix_internal_account_owner ON internal_account (platform_id, customer_id, id DESC)`);

    await q.query(`
      CREATE TABLE journal_entry (
        id text NOT NULL,
        platform_id text NOT NULL,
        kind text NOT NULL,
        reference_id text NOT NULL,
        currency_code text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_journal_entry PRIMARY KEY (id),
        CONSTRAINT ck_journal_entry_kind CHECK (kind IN ('SANDBOX_FUNDING', 'HOLD_CAPTURE', 'HOLD_REFUND', 'TRANSFER_OUT', 'TRANSFER_IN'))
      )`);
    await q.query(`CREATE INDEX ix_journal_entry_reference ON journal_entry (platform_id, reference_id)`);
    await q.query(`
      CREATE TABLE posting (
        id bigint GENERATED ALWAYS AS IDENTITY,
        entry_id text NOT NULL,
        account_id text NOT NULL,
        currency_code text NOT NULL,
        amount bigint NOT NULL,
        CONSTRAINT pk_posting PRIMARY KEY (id),
        CONSTRAINT fk_posting_entry FOREIGN KEY (entry_id) REFERENCES journal_entry (id),
        CONSTRAINT fk_posting_account FOREIGN KEY (account_id, currency_code) REFERENCES ledger_account (id, currency_code),
        CONSTRAINT ck_posting_amount CHECK (amount <> 0)
      )`);
    await q.query(`CREATE INDEX ix_posting_entry ON posting (entry_id)`);
    await q.query(`CREATE INDEX ix_posting_account ON posting (account_id)`);
    // Balanced entries: checked at commit, once every posting of the entry is in.
    await q.query(`
      CREATE FUNCTION ledger_entry_must_balance() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE total numeric; lines integer;
      BEGIN
        SELECT coalesce(sum(amount), 0), count(*) INTO total, lines FROM posting WHERE entry_id = NEW.entry_id;
        IF total <> 0 OR lines < 2 THEN
          RAISE EXCEPTION 'journal entry % is not balanced (sum %, % postings)', NEW.entry_id, total, lines USING ERRCODE = '23514';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER tr_posting_balanced AFTER INSERT ON posting
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entry_must_balance()`);
    // Immutable history: corrections are new, reversing entries.
    await q.query(`
      CREATE FUNCTION ledger_row_is_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME USING ERRCODE = '55000';
      END $$`);
    await q.query(`CREATE TRIGGER tr_posting_immutable BEFORE UPDATE OR DELETE ON posting FOR EACH ROW EXECUTE FUNCTION ledger_row_is_immutable()`);
    await q.query(`CREATE TRIGGER tr_journal_entry_immutable BEFORE UPDATE OR DELETE ON journal_entry FOR EACH ROW EXECUTE FUNCTION ledger_row_is_immutable()`);

    await q.query(`
      CREATE TABLE hold (
        id text NOT NULL,
        platform_id text NOT NULL,
        account_id text NOT NULL,
        currency_code text NOT NULL,
        caller_key text NOT NULL,
        amount bigint NOT NULL,
        status text NOT NULL DEFAULT 'PENDING',
        captured_amount bigint NOT NULL DEFAULT 0,
        refunded_amount bigint NOT NULL DEFAULT 0,
        resolution_key text,
        reference text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz,
        CONSTRAINT pk_hold PRIMARY KEY (id),
        CONSTRAINT uq_hold_caller_key UNIQUE (platform_id, caller_key),
        CONSTRAINT fk_hold_account FOREIGN KEY (account_id, currency_code) REFERENCES ledger_account (id, currency_code),
        CONSTRAINT ck_hold_amount CHECK (amount > 0),
        CONSTRAINT ck_hold_status CHECK (status IN ('PENDING', 'CAPTURED', 'RELEASED')),
        CONSTRAINT ck_hold_resolution CHECK ((status = 'PENDING') = (resolved_at IS NULL)),
        CONSTRAINT ck_hold_captured CHECK (captured_amount >= 0 AND (status = 'CAPTURED' OR captured_amount = 0)),
        CONSTRAINT ck_hold_refunded CHECK (refunded_amount >= 0 AND refunded_amount <= captured_amount)
      )`);
    await q.query(`
      CREATE TABLE hold_refund (
        id text NOT NULL,
        platform_id text NOT NULL,
        hold_id text NOT NULL,
        caller_key text NOT NULL,
        amount bigint NOT NULL,
        entry_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_hold_refund PRIMARY KEY (id),
        CONSTRAINT uq_hold_refund_caller_key UNIQUE (platform_id, caller_key),
        CONSTRAINT fk_hold_refund_hold FOREIGN KEY (hold_id) REFERENCES hold (id),
        CONSTRAINT fk_hold_refund_entry FOREIGN KEY (entry_id) REFERENCES journal_entry (id),
        CONSTRAINT ck_hold_refund_amount CHECK (amount > 0)
      )`);

    await q.query(`
      CREATE TABLE payment_transaction (
        id text NOT NULL,
        platform_id text NOT NULL,
        type text NOT NULL,
        status text NOT NULL,
        customer_id text,
        internal_account_id text NOT NULL,
        external_account_id text NOT NULL,
        currency_code text NOT NULL,
        amount bigint NOT NULL,
        hold_id text,
        description text,
        failure_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz,
        CONSTRAINT pk_payment_transaction PRIMARY KEY (id),
        CONSTRAINT fk_payment_transaction_account FOREIGN KEY (internal_account_id) REFERENCES internal_account (id),
        CONSTRAINT fk_payment_transaction_hold FOREIGN KEY (hold_id) REFERENCES hold (id),
        CONSTRAINT ck_payment_transaction_type CHECK (type IN ('OUTGOING', 'INCOMING')),
        CONSTRAINT ck_payment_transaction_status CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
        CONSTRAINT ck_payment_transaction_failure CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL)),
        CONSTRAINT ck_payment_transaction_amount CHECK (amount > 0)
      )`);
    await q.query(`CREATE INDEX ix_payment_transaction_platform ON payment_transaction (platform_id, id DESC)`);
    await q.query(`CREATE INDEX ix_payment_transaction_customer ON payment_transaction (platform_id, customer_id, created_at)`);
    await q.query(`CREATE INDEX ix_payment_transaction_internal ON payment_transaction (platform_id, internal_account_id, id DESC)`);
    await q.query(`CREATE INDEX ix_payment_transaction_external ON payment_transaction (platform_id, external_account_id, id DESC)`);

    await q.query(`
      CREATE TABLE velocity_limit (
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        currency_code text NOT NULL,
        max_count_per_day integer,
        max_amount_per_day bigint,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_velocity_limit PRIMARY KEY (platform_id, customer_id, currency_code),
        CONSTRAINT ck_velocity_limit_values CHECK ((max_count_per_day IS NULL OR max_count_per_day >= 0) AND (max_amount_per_day IS NULL OR max_amount_per_day >= 0))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['velocity_limit', 'payment_transaction', 'hold_refund', 'hold', 'posting', 'journal_entry', 'internal_account', 'ledger_account', 'currency']) {
      await q.query(`DROP TABLE ${table}`);
    }
    await q.query(`DROP FUNCTION ledger_row_is_immutable()`);
    await q.query(`DROP FUNCTION ledger_entry_must_balance()`);
  }
}
