import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What payments and wallet-auth have set up for each customer, as their events tell it, and the
 * bulk import that created a customer (its job counts the ready ones). Customers created before
 * this release were provisioned by then: they start with their accounts ready and no wallet owed.
 */
export class CustomerProvisioning1732700000000 implements MigrationInterface {
  name = 'CustomerProvisioning1732700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE customer_provisioning (
      platform_id text NOT NULL,
      customer_id text NOT NULL,
      accounts_ready_at timestamptz,
      wallet_expected boolean NOT NULL DEFAULT false,
      wallet_ready_at timestamptz,
      PRIMARY KEY (platform_id, customer_id)
    )`);
    await q.query(`INSERT INTO customer_provisioning (platform_id, customer_id, accounts_ready_at) SELECT platform_id, id, created_at FROM customer`);
    await q.query(`ALTER TABLE customer ADD COLUMN bulk_import_job_id text`);
    await q.query(`CREATE INDEX customer_bulk_import_job ON customer (bulk_import_job_id) WHERE bulk_import_job_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX customer_bulk_import_job`);
    await q.query(`ALTER TABLE customer DROP COLUMN bulk_import_job_id`);
    await q.query(`DROP TABLE customer_provisioning`);
  }
}
