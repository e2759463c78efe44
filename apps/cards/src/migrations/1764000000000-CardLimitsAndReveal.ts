import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-authorization spending limit, the issuer's 3-D Secure password hash and the secret seed its
 * card number and security code derive from (never returned, only shown on the reveal page); the
 * cardholder's platform id on cards and card transactions; balance inquiries (zero-amount
 * authorizations); the counter that keys re-sizing and return-reversal ledger steps; the reveal
 * tokens of the card-details page (hashed, short-lived, used once).
 *
 * Rows written before this migration had no platform customer id: they get the one customers
 * are given when the platform sets none (the uuid part of the customer id). Expand only: every
 * new column is nullable or has a default, so the previous release keeps working during a roll.
 */
export class CardLimitsAndReveal1764000000000 implements MigrationInterface {
  name = 'CardLimitsAndReveal1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE card
        ADD COLUMN max_spend_per_transaction bigint,
        ADD COLUMN platform_customer_id text,
        ADD COLUMN three_ds_password_hash text,
        ADD COLUMN details_seed text,
        ADD CONSTRAINT ck_card_max_spend CHECK (max_spend_per_transaction IS NULL OR max_spend_per_transaction > 0)`);
    await q.query(`UPDATE card SET platform_customer_id = substring(cardholder_id FROM length('Customer:') + 1) WHERE platform_customer_id IS NULL`);
    await q.query(`
      ALTER TABLE card_transaction
        ADD COLUMN platform_customer_id text,
        ADD COLUMN adjustment_count integer NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE card_transaction t SET platform_customer_id = c.platform_customer_id
        FROM card c WHERE c.id = t.card_id AND t.platform_customer_id IS NULL`);
    await q.query(`ALTER TABLE card_transaction DROP CONSTRAINT ck_card_transaction_type`);
    await q.query(`
      ALTER TABLE card_transaction ADD CONSTRAINT ck_card_transaction_type CHECK (type IN (
        'AUTHORIZATION', 'BALANCE_INQUIRY', 'CREDIT_AUTHORIZATION', 'FINANCIAL_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE'))`);
    await q.query(`ALTER TABLE card_transaction DROP CONSTRAINT ck_card_transaction_amounts`);
    await q.query(`
      ALTER TABLE card_transaction ADD CONSTRAINT ck_card_transaction_amounts CHECK (
        (authorized_amount > 0 OR (type = 'BALANCE_INQUIRY' AND authorized_amount = 0))
        AND settled_amount >= 0 AND refunded_amount >= 0 AND refunded_amount <= settled_amount)`);
    // The transaction list reads a platform's card transactions across its cards, newest first.
    await q.query(`CREATE INDEX ix_card_transaction_platform ON card_transaction (platform_id, id DESC)`);
    await q.query(`
      CREATE TABLE card_reveal (
        token_hash text NOT NULL,
        platform_id text NOT NULL,
        card_id text NOT NULL,
        expires_at timestamptz NOT NULL,
        redeemed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_card_reveal PRIMARY KEY (token_hash),
        CONSTRAINT fk_card_reveal_card FOREIGN KEY (card_id) REFERENCES card (id)
      )`);
    await q.query(`CREATE INDEX ix_card_reveal_expires ON card_reveal (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_reveal`);
    await q.query(`DROP INDEX ix_card_transaction_platform`);
    await q.query(`ALTER TABLE card_transaction DROP CONSTRAINT ck_card_transaction_amounts`);
    await q.query(`DELETE FROM card_transaction WHERE type = 'BALANCE_INQUIRY'`);
    await q.query(
      `ALTER TABLE card_transaction ADD CONSTRAINT ck_card_transaction_amounts CHECK (authorized_amount > 0 AND settled_amount >= 0 AND refunded_amount >= 0 AND refunded_amount <= settled_amount)`,
    );
    await q.query(`ALTER TABLE card_transaction DROP CONSTRAINT ck_card_transaction_type`);
    await q.query(
      `ALTER TABLE card_transaction ADD CONSTRAINT ck_card_transaction_type CHECK (type IN ('AUTHORIZATION', 'CREDIT_AUTHORIZATION', 'FINANCIAL_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE'))`,
    );
    await q.query(`ALTER TABLE card_transaction DROP COLUMN adjustment_count, DROP COLUMN platform_customer_id`);
    await q.query(
      `ALTER TABLE card DROP CONSTRAINT ck_card_max_spend, DROP COLUMN details_seed, DROP COLUMN three_ds_password_hash, DROP COLUMN platform_customer_id, DROP COLUMN max_spend_per_transaction`,
    );
  }
}
