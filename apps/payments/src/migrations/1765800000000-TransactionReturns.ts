import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the receiving bank returned a payout that had completed (COMPLETED, then FAILED with
 * PAYOUT_RETURNED): shown as the destination's `railDetails` (status RETURNED, `returnedAt`).
 * Null for every payment that was not returned; only a failed payment can have one.
 */
export class TransactionReturns1765800000000 implements MigrationInterface {
  name = 'TransactionReturns1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_transaction
        ADD COLUMN returned_at timestamptz,
        ADD CONSTRAINT ck_payment_transaction_returned_failed CHECK (returned_at IS NULL OR status = 'FAILED')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_transaction DROP CONSTRAINT ck_payment_transaction_returned_failed, DROP COLUMN returned_at`);
  }
}
