import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transaction's refund (the API's `refund` object), tracked apart from its status: the refund's
 * reference, status, reason and times. All null until a refund is initiated; the checks keep
 * the five columns together (a status needs its reference, reason and start; only a refund that
 * ended has a settlement time).
 */
export class TransactionRefunds1765300000000 implements MigrationInterface {
  name = 'TransactionRefunds1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_transaction
        ADD COLUMN refund_reference text,
        ADD COLUMN refund_status text,
        ADD COLUMN refund_reason text,
        ADD COLUMN refund_initiated_at timestamptz,
        ADD COLUMN refund_settled_at timestamptz,
        ADD CONSTRAINT ck_payment_transaction_refund_status CHECK (refund_status IN ('PENDING', 'COMPLETED', 'FAILED')),
        ADD CONSTRAINT ck_payment_transaction_refund_reason CHECK (refund_reason IN ('TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT')),
        ADD CONSTRAINT ck_payment_transaction_refund_whole CHECK (
          (refund_status IS NULL AND refund_reference IS NULL AND refund_reason IS NULL AND refund_initiated_at IS NULL AND refund_settled_at IS NULL)
          OR (refund_status IS NOT NULL AND refund_reference IS NOT NULL AND refund_reason IS NOT NULL AND refund_initiated_at IS NOT NULL
              AND (refund_settled_at IS NULL) = (refund_status = 'PENDING')))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_transaction
        DROP CONSTRAINT ck_payment_transaction_refund_whole,
        DROP CONSTRAINT ck_payment_transaction_refund_reason,
        DROP CONSTRAINT ck_payment_transaction_refund_status,
        DROP COLUMN refund_settled_at,
        DROP COLUMN refund_initiated_at,
        DROP COLUMN refund_reason,
        DROP COLUMN refund_status,
        DROP COLUMN refund_reference`);
  }
}
