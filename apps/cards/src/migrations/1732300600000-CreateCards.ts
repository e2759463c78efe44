import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Cards, their funding-source bindings (history: a binding is detached, never deleted) and
 * card transactions. Amounts are bigint minor units; statuses are checked by the database.
 */
export class CreateCards1732300600000 implements MigrationInterface {
  name = 'CreateCards1732300600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card (
        id text NOT NULL,
        platform_id text NOT NULL,
        cardholder_id text NOT NULL,
        platform_card_id text,
        form text NOT NULL,
        state text NOT NULL,
        state_reason text,
        funding_sources text[] NOT NULL,
        currency_code text NOT NULL,
        last4 text NOT NULL,
        brand text NOT NULL,
        exp_month integer NOT NULL,
        exp_year integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        CONSTRAINT pk_card PRIMARY KEY (id),
        CONSTRAINT ck_card_form CHECK (form IN ('VIRTUAL')),
        CONSTRAINT ck_card_state CHECK (state IN ('PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED')),
        CONSTRAINT ck_card_state_reason CHECK (state_reason IS NULL OR state_reason IN ('CLOSED_BY_PLATFORM', 'ISSUER_REJECTED')),
        CONSTRAINT ck_card_last4 CHECK (last4 ~ '^[0-9]{4}$'),
        CONSTRAINT ck_card_exp_month CHECK (exp_month BETWEEN 1 AND 12),
        CONSTRAINT ck_card_funding CHECK (state = 'CLOSED' OR cardinality(funding_sources) >= 1)
      )`);
    await q.query(`CREATE INDEX ix_card_platform_created ON card (platform_id, id DESC)`);
    await q.query(`CREATE INDEX ix_card_platform_cardholder ON card (platform_id, cardholder_id, id DESC)`);
    await q.query(`
      CREATE TABLE card_funding_binding (
        id bigint GENERATED ALWAYS AS IDENTITY,
        card_id text NOT NULL,
        platform_id text NOT NULL,
        account_id text NOT NULL,
        position integer NOT NULL,
        bound_at timestamptz NOT NULL DEFAULT now(),
        detached_at timestamptz,
        CONSTRAINT pk_card_funding_binding PRIMARY KEY (id),
        CONSTRAINT fk_card_funding_binding_card FOREIGN KEY (card_id) REFERENCES card (id),
        CONSTRAINT ck_card_funding_binding_position CHECK (position >= 0)
      )`);
    await q.query(`CREATE UNIQUE INDEX ux_card_funding_binding_live ON card_funding_binding (card_id, position) WHERE detached_at IS NULL`);
    await q.query(`
      CREATE TABLE card_transaction (
        id text NOT NULL,
        platform_id text NOT NULL,
        card_id text NOT NULL,
        customer_id text NOT NULL,
        account_id text NOT NULL,
        issuer_transaction_token text NOT NULL,
        type text NOT NULL,
        direction text NOT NULL,
        status text NOT NULL,
        merchant jsonb NOT NULL,
        currency jsonb NOT NULL,
        authorized_amount bigint NOT NULL,
        settled_amount bigint NOT NULL DEFAULT 0,
        refunded_amount bigint NOT NULL DEFAULT 0,
        return_count integer NOT NULL DEFAULT 0,
        hold_id text,
        decline_reason text,
        expiry_reason text,
        exception jsonb,
        force_posted boolean NOT NULL DEFAULT false,
        credit_claimed_at timestamptz,
        authorized_at timestamptz NOT NULL,
        settled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_card_transaction PRIMARY KEY (id),
        CONSTRAINT fk_card_transaction_card FOREIGN KEY (card_id) REFERENCES card (id),
        CONSTRAINT uq_card_transaction_token UNIQUE (platform_id, issuer_transaction_token),
        CONSTRAINT ck_card_transaction_type CHECK (type IN ('AUTHORIZATION', 'CREDIT_AUTHORIZATION', 'FINANCIAL_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE')),
        CONSTRAINT ck_card_transaction_direction CHECK (direction IN ('DEBIT', 'CREDIT')),
        CONSTRAINT ck_card_transaction_status CHECK (status IN ('PENDING', 'CONFIRMED', 'SETTLED', 'REFUNDED', 'DECLINED', 'EXPIRED', 'EXCEPTION')),
        CONSTRAINT ck_card_transaction_amounts CHECK (authorized_amount > 0 AND settled_amount >= 0 AND refunded_amount >= 0 AND refunded_amount <= settled_amount)
      )`);
    await q.query(`CREATE INDEX ix_card_transaction_card ON card_transaction (platform_id, card_id, id DESC)`);
    await q.query(`CREATE INDEX ix_card_transaction_open ON card_transaction (card_id) WHERE status IN ('PENDING', 'CONFIRMED')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_transaction`);
    await q.query(`DROP TABLE card_funding_binding`);
    await q.query(`DROP TABLE card`);
  }
}
