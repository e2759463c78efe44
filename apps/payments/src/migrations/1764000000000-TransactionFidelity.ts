import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transactions as the API shows them: the customer's platform-side id, and for payouts the rail
 * (and whether the request chose it), the remittance information and the purpose of payment.
 * Transactions written before keep their customer id as the platform-side id (this database
 * never held the other); their payout rail stays unknown (null).
 */
export class TransactionFidelity1764000000000 implements MigrationInterface {
  name = 'TransactionFidelity1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_transaction
        ADD COLUMN platform_customer_id text,
        ADD COLUMN payment_rail text,
        ADD COLUMN rail_selection_mode text,
        ADD COLUMN remittance_information text,
        ADD COLUMN purpose_of_payment text,
        ADD CONSTRAINT ck_payment_transaction_rail_selection CHECK (rail_selection_mode IS NULL OR rail_selection_mode IN ('AUTO', 'MANUAL')),
        ADD CONSTRAINT ck_payment_transaction_remittance CHECK (remittance_information IS NULL OR char_length(remittance_information) <= 80),
        ADD CONSTRAINT ck_payment_transaction_outgoing_fields CHECK (
          type = 'OUTGOING' OR (payment_rail IS NULL AND rail_selection_mode IS NULL AND remittance_information IS NULL AND purpose_of_payment IS NULL))`);
    await q.query(`UPDATE payment_transaction SET platform_customer_id = customer_id WHERE customer_id IS NOT NULL`);
    await q.query(`CREATE INDEX ix_payment_transaction_platform_customer ON payment_transaction (platform_id, platform_customer_id, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_payment_transaction_platform_customer`);
    await q.query(`
      ALTER TABLE payment_transaction
        DROP CONSTRAINT ck_payment_transaction_outgoing_fields,
        DROP CONSTRAINT ck_payment_transaction_remittance,
        DROP CONSTRAINT ck_payment_transaction_rail_selection,
        DROP COLUMN purpose_of_payment,
        DROP COLUMN remittance_information,
        DROP COLUMN rail_selection_mode,
        DROP COLUMN payment_rail,
        DROP COLUMN platform_customer_id`);
  }
}
