import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fingerprint of a transfer requested without an Idempotency-Key (the platform, the route and
 * its validated body, hashed): a client library's automatic retry of it (`X-Stainless-Retry-Count`
 * 1 or more) answers the most recent transfer with the same fingerprint of the last 24 hours
 * instead of moving the money again. Written with the transfer, in its transaction.
 */
export class RequestFingerprints1765700000000 implements MigrationInterface {
  name = 'RequestFingerprints1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN request_fingerprint text`);
    await q.query(
      `CREATE INDEX ix_payment_transaction_request_fingerprint ON payment_transaction (platform_id, request_fingerprint, created_at DESC) WHERE request_fingerprint IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_payment_transaction_request_fingerprint`);
    await q.query(`ALTER TABLE payment_transaction DROP COLUMN request_fingerprint`);
  }
}
