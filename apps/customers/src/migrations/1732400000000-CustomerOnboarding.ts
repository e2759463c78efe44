import { MigrationInterface, QueryRunner } from 'typeorm';

/** Everything onboarding adds to the customers slice: EDD and UMA fields, verifications, contact codes, KYC links, beneficial owners, documents, bulk imports. */
export class CustomerOnboarding1732400000000 implements MigrationInterface {
  name = 'CustomerOnboarding1732400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE customer
        ADD COLUMN uma_address text,
        ADD COLUMN source_of_wealth_categories jsonb,
        ADD COLUMN purpose_of_account text,
        ADD COLUMN annual_income_range text,
        ADD COLUMN contact_verification jsonb`);
    await q.query(`CREATE UNIQUE INDEX uq_customer_platform_uma_address ON customer (platform_id, uma_address) WHERE uma_address IS NOT NULL`);
    await q.query(`CREATE INDEX ix_customer_platform_type ON customer (platform_id, customer_type, id DESC)`);
    await q.query(`
      CREATE TABLE verification (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        verification_status text NOT NULL,
        errors jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_verification PRIMARY KEY (id),
        CONSTRAINT fk_verification_customer FOREIGN KEY (customer_id) REFERENCES customer (id),
        CONSTRAINT ck_verification_status CHECK (verification_status IN ('IN_PROGRESS', 'REJECTED', 'RESOLVE_ERRORS'))
      )`);
    await q.query(`CREATE INDEX ix_verification_customer ON verification (platform_id, customer_id, id DESC)`);
    await q.query(`
      CREATE TABLE contact_code (
        customer_id text NOT NULL,
        channel text NOT NULL,
        destination text NOT NULL,
        code_hash text NOT NULL,
        sent_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0,
        CONSTRAINT pk_contact_code PRIMARY KEY (customer_id, channel),
        CONSTRAINT fk_contact_code_customer FOREIGN KEY (customer_id) REFERENCES customer (id),
        CONSTRAINT ck_contact_code_channel CHECK (channel IN ('email', 'phone'))
      )`);
    await q.query(`
      CREATE TABLE kyc_link (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        environment text NOT NULL,
        token_hash text NOT NULL,
        redirect_uri text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_kyc_link PRIMARY KEY (id),
        CONSTRAINT uq_kyc_link_token_hash UNIQUE (token_hash),
        CONSTRAINT fk_kyc_link_customer FOREIGN KEY (customer_id) REFERENCES customer (id),
        CONSTRAINT ck_kyc_link_environment CHECK (environment IN ('sandbox', 'production'))
      )`);
    await q.query(`
      CREATE TABLE beneficial_owner (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        roles jsonb NOT NULL,
        ownership_percentage integer,
        personal_info jsonb NOT NULL,
        kyc_status text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_beneficial_owner PRIMARY KEY (id),
        CONSTRAINT fk_beneficial_owner_customer FOREIGN KEY (customer_id) REFERENCES customer (id),
        CONSTRAINT ck_beneficial_owner_kyc_status CHECK (kyc_status IN ('PENDING', 'APPROVED', 'REJECTED')),
        CONSTRAINT ck_beneficial_owner_ownership CHECK (ownership_percentage IS NULL OR ownership_percentage BETWEEN 0 AND 100)
      )`);
    await q.query(`CREATE INDEX ix_beneficial_owner_customer ON beneficial_owner (platform_id, customer_id, id DESC)`);
    await q.query(`
      CREATE TABLE document (
        id text NOT NULL,
        platform_id text NOT NULL,
        customer_id text NOT NULL,
        beneficial_owner_id text,
        document_type text NOT NULL,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size_bytes bigint NOT NULL DEFAULT 0,
        sha256 text,
        status text NOT NULL,
        rejection_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_document PRIMARY KEY (id),
        CONSTRAINT fk_document_customer FOREIGN KEY (customer_id) REFERENCES customer (id),
        CONSTRAINT fk_document_beneficial_owner FOREIGN KEY (beneficial_owner_id) REFERENCES beneficial_owner (id),
        CONSTRAINT ck_document_status CHECK (status IN ('UPLOADING', 'PENDING', 'APPROVED', 'REJECTED')),
        CONSTRAINT ck_document_content_type CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
        CONSTRAINT ck_document_size CHECK (size_bytes BETWEEN 0 AND 10485760)
      )`);
    await q.query(`CREATE INDEX ix_document_customer ON document (platform_id, customer_id, id DESC)`);
    await q.query(`
      CREATE TABLE document_chunk (
        document_id text NOT NULL,
        chunk_index integer NOT NULL,
        data bytea NOT NULL,
        CONSTRAINT pk_document_chunk PRIMARY KEY (document_id, chunk_index),
        CONSTRAINT fk_document_chunk_document FOREIGN KEY (document_id) REFERENCES document (id)
      )`);
    await q.query(`
      CREATE TABLE bulk_import_job (
        id text NOT NULL,
        platform_id text NOT NULL,
        file_name text,
        status text NOT NULL,
        processed_rows integer NOT NULL DEFAULT 0,
        successful_rows integer NOT NULL DEFAULT 0,
        failed_rows integer NOT NULL DEFAULT 0,
        error_count integer NOT NULL DEFAULT 0,
        failure text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT pk_bulk_import_job PRIMARY KEY (id),
        CONSTRAINT ck_bulk_import_job_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED'))
      )`);
    await q.query(`
      CREATE TABLE bulk_import_error (
        job_id text NOT NULL,
        seq integer NOT NULL,
        row_number integer NOT NULL,
        field text NOT NULL,
        message text NOT NULL,
        CONSTRAINT pk_bulk_import_error PRIMARY KEY (job_id, seq),
        CONSTRAINT fk_bulk_import_error_job FOREIGN KEY (job_id) REFERENCES bulk_import_job (id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['bulk_import_error', 'bulk_import_job', 'document_chunk', 'document', 'beneficial_owner', 'kyc_link', 'contact_code', 'verification']) {
      await q.query(`DROP TABLE ${table}`);
    }
    await q.query(`DROP INDEX ix_customer_platform_type`);
    await q.query(`DROP INDEX uq_customer_platform_uma_address`);
    await q.query(`
      ALTER TABLE customer
        DROP COLUMN contact_verification, DROP COLUMN annual_income_range, DROP COLUMN purpose_of_account,
        DROP COLUMN source_of_wealth_categories, DROP COLUMN uma_address`);
  }
}
