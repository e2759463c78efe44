import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reference document's customer fields and values: new customer columns, every customer given
 * a UMA address, the reference's KYC statuses and enhanced due diligence values (stored values
 * that have no exact counterpart become OTHER with the old value kept in the matching description),
 * beneficial owner roles, verification errors in the reference's shape, document holder and
 * country, and currency entries with amounts, counterparty fields and transaction types.
 */
export class CustomerReferenceFields1732600000000 implements MigrationInterface {
  name = 'CustomerReferenceFields1732600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE customer
        ADD COLUMN region text,
        ADD COLUMN currencies jsonb,
        ADD COLUMN end_user_terms_consent jsonb,
        ADD COLUMN id_type text,
        ADD COLUMN identifier text,
        ADD COLUMN country_of_issuance text,
        ADD COLUMN source_of_funds_categories jsonb,
        ADD COLUMN source_of_funds_other_description text,
        ADD COLUMN source_of_wealth_other_description text,
        ADD COLUMN purpose_of_account_other_description text,
        ADD COLUMN expected_monthly_transaction_count text,
        ADD COLUMN expected_monthly_transaction_volume text,
        ADD COLUMN net_worth_range text,
        ADD COLUMN pep_status text,
        ADD COLUMN deleted_at timestamptz`);
    await q.query(`ALTER TABLE customer DROP CONSTRAINT ck_customer_kyc_status, DROP CONSTRAINT ck_customer_kyb_status`);
    await q.query(`
      ALTER TABLE customer
        ADD CONSTRAINT ck_customer_kyc_status CHECK (kyc_status IS NULL OR kyc_status IN ('UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD')),
        ADD CONSTRAINT ck_customer_kyb_status CHECK (kyb_status IS NULL OR kyb_status IN ('UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'))`);

    // Enhanced due diligence values of the reference.
    await q.query(`
      UPDATE customer SET source_of_wealth_categories = (
        SELECT jsonb_agg(DISTINCT CASE v WHEN 'PENSION' THEN 'RETIREMENT' WHEN 'SALE_OF_PROPERTY' THEN 'PROPERTY_SALE' ELSE v END)
        FROM jsonb_array_elements_text(source_of_wealth_categories) AS v)
      WHERE source_of_wealth_categories IS NOT NULL AND jsonb_array_length(source_of_wealth_categories) > 0`);
    await q.query(`UPDATE customer SET purpose_of_account = 'EMPLOYEE_PAYOUTS' WHERE purpose_of_account = 'PAYROLL'`);
    await q.query(`
      UPDATE customer SET purpose_of_account_other_description = COALESCE(purpose_of_account_other_description, initcap(replace(purpose_of_account, '_', ' '))),
                          purpose_of_account = 'OTHER'
      WHERE purpose_of_account IN ('REMITTANCES', 'BILL_PAYMENTS', 'ONLINE_PURCHASES', 'INVESTMENTS', 'SAVINGS', 'BUSINESS_PAYMENTS')`);
    await q.query(`UPDATE customer SET annual_income_range = 'UNDER_50K' WHERE annual_income_range IN ('RANGE_0_25K', 'RANGE_25K_50K')`);
    await q.query(`UPDATE customer SET annual_income_range = 'OVER_1M' WHERE annual_income_range = 'RANGE_OVER_1M'`);

    // Every customer has a UMA address: customers created without one get $<uuid>@<platform's domain>.
    await q.query(`
      UPDATE customer c SET uma_address = '$' || lower(substring(c.id from 10)) || '@' ||
        COALESCE((SELECT pc.uma_domain FROM platform_config pc WHERE pc.platform_id = c.platform_id),
                 'p-' || right(lower(replace(c.platform_id, '-', '')), 10) || '.uma.sandbox.paykit.dev')
      WHERE c.uma_address IS NULL`);
    await q.query(`ALTER TABLE customer ALTER COLUMN uma_address SET NOT NULL`);

    // Platform configuration: currency entries in the reference's shape, and the new settings.
    await q.query(`
      ALTER TABLE platform_config
        ADD COLUMN embedded_wallet_config jsonb,
        ADD COLUMN card_tokenization_2fa_config jsonb,
        ADD COLUMN fee_configs jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await q.query(`
      UPDATE platform_config SET supported_currencies = (
        SELECT COALESCE(jsonb_agg(jsonb_build_object(
          'currencyCode', entry->>'currencyCode',
          'minAmount', COALESCE((entry->>'minAmount')::bigint, 1),
          'maxAmount', COALESCE((entry->>'maxAmount')::bigint, 100000000),
          'requiredCounterpartyFields', COALESCE(entry->'requiredCounterpartyFields', '[{"name":"FULL_NAME","mandatory":true}]'::jsonb),
          'enabledTransactionTypes', COALESCE(entry->'enabledTransactionTypes', '["OUTGOING","INCOMING"]'::jsonb),
          'providerRequiredCustomerFields', (
            SELECT COALESCE(jsonb_agg(DISTINCT mapped), '[]'::jsonb) FROM (
              SELECT CASE f
                WHEN 'fullName' THEN 'FULL_NAME' WHEN 'businessInfo.legalName' THEN 'FULL_NAME'
                WHEN 'birthDate' THEN 'BIRTH_DATE' WHEN 'nationality' THEN 'NATIONALITY'
                WHEN 'address' THEN 'POSTAL_ADDRESS' WHEN 'email' THEN 'EMAIL' WHEN 'phoneNumber' THEN 'PHONE_NUMBER'
                WHEN 'businessInfo.registrationNumber' THEN 'REGISTRATION_NUMBER' WHEN 'businessInfo.taxId' THEN 'TAX_ID'
                ELSE f END AS mapped
              FROM jsonb_array_elements_text(COALESCE(entry->'providerRequiredCustomerFields', '[]'::jsonb)) AS f) fields)
        ) ORDER BY ordinality), '[]'::jsonb)
        FROM jsonb_array_elements(supported_currencies) WITH ORDINALITY AS entries(entry, ordinality))`);

    // Beneficial owners: the reference's roles; every owner has an ownership percentage (0 for non-owners).
    await q.query(`
      UPDATE beneficial_owner SET roles = (
        SELECT jsonb_agg(DISTINCT CASE v WHEN 'BENEFICIAL_OWNER' THEN 'UBO' WHEN 'OFFICER' THEN 'COMPANY_OFFICER' ELSE v END)
        FROM jsonb_array_elements_text(roles) AS v)`);
    await q.query(`UPDATE beneficial_owner SET ownership_percentage = 0 WHERE ownership_percentage IS NULL`);
    await q.query(`ALTER TABLE beneficial_owner ALTER COLUMN ownership_percentage SET DEFAULT 0, ALTER COLUMN ownership_percentage SET NOT NULL`);

    // Verification errors as the reference reports them: the resource, the type and the reason.
    await q.query(`ALTER TABLE verification ADD COLUMN updated_at timestamptz`);
    await q.query(`UPDATE verification SET updated_at = created_at`);
    await q.query(`ALTER TABLE verification ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now()`);
    await q.query(`
      UPDATE verification SET errors = (
        SELECT COALESCE(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
          'resourceId', COALESCE(e->>'resourceId', customer_id),
          'type', COALESCE(e->>'type', e->>'code'),
          'field', e->>'field',
          'reason', COALESCE(e->>'reason', e->>'message')))), '[]'::jsonb)
        FROM jsonb_array_elements(errors) AS e)
      WHERE errors IS NOT NULL`);
    await q.query(`UPDATE verification SET errors = '[]'::jsonb WHERE errors IS NULL`);

    // Documents: who they are about and the issuing country (unknown for earlier uploads: ZZ, ISO's code for an unknown country).
    await q.query(`
      ALTER TABLE document
        ADD COLUMN document_holder text,
        ADD COLUMN country text,
        ADD COLUMN side text,
        ADD COLUMN document_number text,
        ADD COLUMN issuing_authority text,
        ADD COLUMN replaces_document_id text,
        ADD CONSTRAINT ck_document_side CHECK (side IS NULL OR side IN ('FRONT', 'BACK'))`);
    await q.query(`UPDATE document SET document_holder = COALESCE(beneficial_owner_id, customer_id), country = 'ZZ'`);
    await q.query(`ALTER TABLE document ALTER COLUMN document_holder SET NOT NULL, ALTER COLUMN country SET NOT NULL`);

    // A KYC link may be created without a redirect (the hosted page then ends on its own message).
    await q.query(`ALTER TABLE kyc_link ALTER COLUMN redirect_uri DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE document DROP CONSTRAINT ck_document_side, DROP COLUMN document_holder, DROP COLUMN country, DROP COLUMN side, DROP COLUMN document_number, DROP COLUMN issuing_authority, DROP COLUMN replaces_document_id`,
    );
    await q.query(`ALTER TABLE verification DROP COLUMN updated_at`);
    await q.query(`ALTER TABLE beneficial_owner ALTER COLUMN ownership_percentage DROP NOT NULL, ALTER COLUMN ownership_percentage DROP DEFAULT`);
    await q.query(`ALTER TABLE platform_config DROP COLUMN embedded_wallet_config, DROP COLUMN card_tokenization_2fa_config, DROP COLUMN fee_configs`);
    await q.query(`ALTER TABLE customer ALTER COLUMN uma_address DROP NOT NULL`);
    await q.query(`
      ALTER TABLE customer DROP COLUMN region, DROP COLUMN currencies, DROP COLUMN end_user_terms_consent, DROP COLUMN id_type, DROP COLUMN identifier,
        DROP COLUMN country_of_issuance, DROP COLUMN source_of_funds_categories, DROP COLUMN source_of_funds_other_description,
        DROP COLUMN source_of_wealth_other_description, DROP COLUMN purpose_of_account_other_description, DROP COLUMN expected_monthly_transaction_count,
        DROP COLUMN expected_monthly_transaction_volume, DROP COLUMN net_worth_range, DROP COLUMN pep_status, DROP COLUMN deleted_at`);
  }
}
