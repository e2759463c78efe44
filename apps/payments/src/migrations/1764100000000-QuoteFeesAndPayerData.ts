import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A cross-currency transaction states the fees its quote locked (`fees`, `platformFees`; null for
 * other transactions), and a receiver lookup keeps the payer data its receiver asked for, so a
 * quote naming the lookup can refuse a sender that lacks it.
 */
export class QuoteFeesAndPayerData1764100000000 implements MigrationInterface {
  name = 'QuoteFeesAndPayerData1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN fees bigint, ADD COLUMN platform_fees bigint`);
    await q.query(`ALTER TABLE receiver_lookup ADD COLUMN required_payer_data_fields jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE receiver_lookup DROP COLUMN required_payer_data_fields`);
    await q.query(`ALTER TABLE payment_transaction DROP COLUMN platform_fees, DROP COLUMN fees`);
  }
}
