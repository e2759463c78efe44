import { MigrationInterface, QueryRunner } from 'typeorm';

/** Transfers to wallet destinations record the network and the on-chain transfer's hash (existing rows: none). */
export class RecordCryptoNetwork1764072100000 implements MigrationInterface {
  name = 'RecordCryptoNetwork1764072100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_transaction ADD COLUMN crypto_network text, ADD COLUMN onchain_transaction_hash text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_transaction DROP COLUMN onchain_transaction_hash, DROP COLUMN crypto_network`);
  }
}
