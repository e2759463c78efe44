import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every corridor of the reference API: stablecoin currencies (USDC, USDT), the ownership statuses
 * of self-custody wallets, an optional platformAccountId, ownershipType and
 * defaultUmaDepositAccount, the warnings of stricter-than-reference checks, the in-flight ownership
 * challenge, and the discovery lists of every corridor that names its bank. Existing rows keep
 * their shape: every new column is nullable and no stored accountInfo changes.
 */
export class AllCorridorsAndOwnership1764072000000 implements MigrationInterface {
  name = 'AllCorridorsAndOwnership1764072000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE external_account DROP CONSTRAINT ck_external_account_currency`);
    await q.query(`ALTER TABLE external_account ADD CONSTRAINT ck_external_account_currency CHECK (currency ~ '^[A-Z]{3,5}$')`);
    await q.query(`ALTER TABLE external_account DROP CONSTRAINT ck_external_account_status`);
    await q.query(`
      ALTER TABLE external_account ADD CONSTRAINT ck_external_account_status
        CHECK (status IN ('PENDING', 'ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'UNDER_REVIEW', 'INACTIVE'))`);
    await q.query(`ALTER TABLE external_account ALTER COLUMN platform_account_id DROP NOT NULL`);
    await q.query(`
      ALTER TABLE external_account
        ADD COLUMN ownership_type text,
        ADD COLUMN default_uma_deposit_account boolean,
        ADD COLUMN warnings jsonb,
        ADD COLUMN ownership_challenge jsonb,
        ADD CONSTRAINT ck_external_account_ownership_type CHECK (ownership_type IS NULL OR ownership_type IN ('FIRST_PARTY', 'THIRD_PARTY'))`);

    const rows = DISCOVERY_SEED.flatMap(([country, currency, banks]) => banks.map(([bankName, displayName]) => [bankName, displayName, country, currency]));
    const values = rows.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`).join(', ');
    await q.query(`INSERT INTO discovery_bank (bank_name, display_name, country, currency) VALUES ${values} ON CONFLICT DO NOTHING`, rows.flat());
  }

  async down(q: QueryRunner): Promise<void> {
    const countries = DISCOVERY_SEED.map(([country]) => country);
    await q.query(`DELETE FROM discovery_bank WHERE country = ANY($1)`, [countries]);
    await q.query(`
      ALTER TABLE external_account
        DROP CONSTRAINT ck_external_account_ownership_type,
        DROP COLUMN ownership_challenge,
        DROP COLUMN warnings,
        DROP COLUMN default_uma_deposit_account,
        DROP COLUMN ownership_type`);
    await q.query(`UPDATE external_account SET platform_account_id = id WHERE platform_account_id IS NULL`);
    await q.query(`ALTER TABLE external_account ALTER COLUMN platform_account_id SET NOT NULL`);
    await q.query(`ALTER TABLE external_account DROP CONSTRAINT ck_external_account_status`);
    await q.query(`ALTER TABLE external_account ADD CONSTRAINT ck_external_account_status CHECK (status IN ('PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE'))`);
    await q.query(`ALTER TABLE external_account DROP CONSTRAINT ck_external_account_currency`);
    await q.query(`ALTER TABLE external_account ADD CONSTRAINT ck_external_account_currency CHECK (currency ~ '^[A-Z]{3}$')`);
  }
}

/** Sandbox reference data for the corridors added here that name their bank ([bankName, displayName]). */
const DISCOVERY_SEED: [country: string, currency: string, banks: [string, string][]][] = [
  [
    'BD',
    'BDT',
    [
      ['Sonali Bank', 'Sonali Bank PLC'],
      ['BRAC Bank', 'BRAC Bank PLC'],
      ['Dutch-Bangla Bank', 'Dutch-Bangla Bank PLC'],
      ['bKash', 'bKash (mobile money)'],
      ['Nagad', 'Nagad (mobile money)'],
    ],
  ],
  [
    'CN',
    'CNY',
    [
      ['Industrial and Commercial Bank of China', 'ICBC'],
      ['China Construction Bank', 'CCB'],
      ['Bank of China', 'Bank of China'],
      ['Agricultural Bank of China', 'ABC'],
      ['Alipay', 'Alipay (wallet)'],
    ],
  ],
  [
    'EG',
    'EGP',
    [
      ['National Bank of Egypt', 'NBE'],
      ['Banque Misr', 'Banque Misr'],
      ['Commercial International Bank', 'CIB'],
      ['Vodafone Cash', 'Vodafone Cash (mobile money)'],
    ],
  ],
  [
    'GH',
    'GHS',
    [
      ['GCB Bank', 'GCB Bank PLC'],
      ['Ecobank Ghana', 'Ecobank Ghana'],
      ['Stanbic Bank Ghana', 'Stanbic Bank'],
      ['MTN Mobile Money', 'MTN MoMo (mobile money)'],
      ['Telecel Cash', 'Telecel Cash (mobile money)'],
    ],
  ],
  [
    'GT',
    'GTQ',
    [
      ['Banco Industrial', 'Banco Industrial'],
      ['Banrural', 'Banco de Desarrollo Rural'],
      ['Banco G&T Continental', 'G&T Continental'],
      ['BAM', 'Banco Agromercantil'],
    ],
  ],
  [
    'HK',
    'HKD',
    [
      ['HSBC Hong Kong', 'The Hongkong and Shanghai Banking Corporation'],
      ['Bank of China (Hong Kong)', 'BOCHK'],
      ['Hang Seng Bank', 'Hang Seng Bank'],
      ['Standard Chartered Hong Kong', 'Standard Chartered'],
    ],
  ],
  [
    'ID',
    'IDR',
    [
      ['Bank Central Asia', 'BCA'],
      ['Bank Mandiri', 'Mandiri'],
      ['Bank Rakyat Indonesia', 'BRI'],
      ['Bank Negara Indonesia', 'BNI'],
    ],
  ],
  [
    'JM',
    'JMD',
    [
      ['National Commercial Bank', 'NCB Jamaica'],
      ['Scotiabank Jamaica', 'Scotiabank'],
      ['JN Bank', 'JN Bank'],
      ['Sagicor Bank', 'Sagicor Bank'],
    ],
  ],
  [
    'MY',
    'MYR',
    [
      ['Maybank', 'Malayan Banking Berhad'],
      ['CIMB Bank', 'CIMB'],
      ['Public Bank', 'Public Bank Berhad'],
      ['RHB Bank', 'RHB'],
    ],
  ],
  [
    'PK',
    'PKR',
    [
      ['Habib Bank Limited', 'HBL'],
      ['MCB Bank', 'MCB'],
      ['United Bank Limited', 'UBL'],
      ['JazzCash', 'JazzCash (mobile money)'],
      ['Easypaisa', 'Easypaisa (mobile money)'],
    ],
  ],
  [
    'SG',
    'SGD',
    [
      ['DBS Bank Ltd', 'DBS'],
      ['OCBC Bank', 'Oversea-Chinese Banking Corporation'],
      ['United Overseas Bank', 'UOB'],
    ],
  ],
  [
    'TH',
    'THB',
    [
      ['Bangkok Bank', 'Bangkok Bank'],
      ['Kasikornbank', 'KBank'],
      ['Siam Commercial Bank', 'SCB'],
      ['Krungthai Bank', 'Krungthai'],
    ],
  ],
  [
    'VN',
    'VND',
    [
      ['Vietcombank', 'Vietcombank'],
      ['BIDV', 'Bank for Investment and Development of Vietnam'],
      ['VietinBank', 'VietinBank'],
      ['Techcombank', 'Techcombank'],
    ],
  ],
];
