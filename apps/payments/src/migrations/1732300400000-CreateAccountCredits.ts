import { MigrationInterface, QueryRunner } from 'typeorm';

/** Keyed credits to an internal account from the card settlement account (card credits and advices). */
export class CreateAccountCredits1732300400000 implements MigrationInterface {
  name = 'CreateAccountCredits1732300400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE journal_entry DROP CONSTRAINT ck_journal_entry_kind`);
    await q.query(
      `ALTER TABLE journal_entry ADD CONSTRAINT ck_journal_entry_kind CHECK (kind IN ('SANDBOX_FUNDING', 'HOLD_CAPTURE', 'HOLD_REFUND', 'TRANSFER_OUT', 'TRANSFER_IN', 'CARD_CREDIT'))`,
    );
    await q.query(`
      CREATE TABLE account_credit (
        id text NOT NULL,
        platform_id text NOT NULL,
        account_id text NOT NULL,
        currency_code text NOT NULL,
        caller_key text NOT NULL,
        amount bigint NOT NULL,
        reference text,
        entry_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_account_credit PRIMARY KEY (id),
        CONSTRAINT uq_account_credit_caller_key UNIQUE (platform_id, caller_key),
        CONSTRAINT fk_account_credit_account FOREIGN KEY (account_id, currency_code) REFERENCES ledger_account (id, currency_code),
        CONSTRAINT fk_account_credit_entry FOREIGN KEY (entry_id) REFERENCES journal_entry (id),
        CONSTRAINT ck_account_credit_amount CHECK (amount > 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE account_credit`);
    await q.query(`ALTER TABLE journal_entry DROP CONSTRAINT ck_journal_entry_kind`);
    await q.query(
      `ALTER TABLE journal_entry ADD CONSTRAINT ck_journal_entry_kind CHECK (kind IN ('SANDBOX_FUNDING', 'HOLD_CAPTURE', 'HOLD_REFUND', 'TRANSFER_OUT', 'TRANSFER_IN'))`,
    );
  }
}
