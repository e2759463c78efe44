import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fingerprint of a quote executed at its creation without an Idempotency-Key (`POST /quotes`
 * with `immediatelyExecute`, and an agent's): the same scheme as a keyless transfer's
 * (RequestFingerprints), kept on the quote because an agent's quote is executed as an action,
 * perhaps only once approved, while its transaction is written at execution. A client library's
 * automatic retry answers the most recent quote with the same fingerprint of the last 24 hours.
 */
export class QuoteRequestFingerprints1765760000000 implements MigrationInterface {
  name = 'QuoteRequestFingerprints1765760000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE quote ADD COLUMN request_fingerprint text`);
    await q.query(`CREATE INDEX ix_quote_request_fingerprint ON quote (platform_id, request_fingerprint, created_at DESC) WHERE request_fingerprint IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ix_quote_request_fingerprint`);
    await q.query(`ALTER TABLE quote DROP COLUMN request_fingerprint`);
  }
}
