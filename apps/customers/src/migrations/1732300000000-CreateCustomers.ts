import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCustomers1732300000000 implements MigrationInterface {
  name = 'CreateCustomers1732300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE customer (
        id text NOT NULL,
        platform_id text NOT NULL,
        platform_customer_id text NOT NULL,
        customer_type text NOT NULL,
        full_name text,
        birth_date date,
        nationality text,
        email text,
        phone_number text,
        address jsonb,
        business_info jsonb,
        kyc_status text,
        kyb_status text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_customer PRIMARY KEY (id),
        CONSTRAINT ck_customer_type CHECK (customer_type IN ('INDIVIDUAL', 'BUSINESS')),
        CONSTRAINT ck_customer_kyc_status CHECK (kyc_status IS NULL OR kyc_status IN ('PENDING', 'APPROVED', 'REJECTED')),
        CONSTRAINT ck_customer_kyb_status CHECK (kyb_status IS NULL OR kyb_status IN ('PENDING', 'APPROVED', 'REJECTED'))
      )`);
    await q.query(`CREATE INDEX ix_customer_platform_created ON customer (platform_id, id DESC)`);
    await q.query(`CREATE INDEX ix_customer_platform_customer_id ON customer (platform_id, platform_customer_id)`);
    await q.query(`
      CREATE TABLE platform_config (
        platform_id text NOT NULL,
        regulated boolean NOT NULL DEFAULT false,
        uma_domain text NOT NULL,
        supported_currencies jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_platform_config PRIMARY KEY (platform_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform_config`);
    await q.query(`DROP TABLE customer`);
  }
}
