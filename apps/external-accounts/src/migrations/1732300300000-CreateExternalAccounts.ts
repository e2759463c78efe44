import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateExternalAccounts1732300300000 implements MigrationInterface {
  name = 'CreateExternalAccounts1732300300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE external_account (
        id text NOT NULL,
        platform_id text NOT NULL,
        owner_type text NOT NULL,
        customer_id text,
        status text NOT NULL,
        currency text NOT NULL,
        platform_account_id text NOT NULL,
        account_type text NOT NULL,
        account_info jsonb NOT NULL,
        beneficiary_verification_status text,
        fingerprint text NOT NULL,
        review_version integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        removed_at timestamptz,
        CONSTRAINT pk_external_account PRIMARY KEY (id),
        CONSTRAINT ck_external_account_owner_type CHECK (owner_type IN ('CUSTOMER', 'PLATFORM')),
        CONSTRAINT ck_external_account_owner CHECK ((owner_type = 'CUSTOMER') = (customer_id IS NOT NULL)),
        CONSTRAINT ck_external_account_status CHECK (status IN ('PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE')),
        CONSTRAINT ck_external_account_removed CHECK ((status = 'INACTIVE') = (removed_at IS NOT NULL)),
        CONSTRAINT ck_external_account_verification CHECK (beneficiary_verification_status IS NULL OR beneficiary_verification_status IN
          ('MATCHED', 'NOT_MATCHED', 'PARTIAL_MATCH', 'PENDING', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI')),
        CONSTRAINT ck_external_account_currency CHECK (currency ~ '^[A-Z]{3}$')
      )`);
    // One live registration per destination and owner; removed (INACTIVE) ones stay as history.
    await q.query(`
      CREATE UNIQUE INDEX ux_external_account_destination ON external_account (platform_id, owner_type, (coalesce(customer_id, '')), fingerprint)
        WHERE status <> 'INACTIVE'`);
    await q.query(`CREATE INDEX ix_external_account_platform_owner ON external_account (platform_id, owner_type, id DESC)`);
    await q.query(`CREATE INDEX ix_external_account_customer ON external_account (platform_id, customer_id, id DESC) WHERE customer_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE discovery_bank (
        bank_name text NOT NULL,
        display_name text NOT NULL,
        country text NOT NULL,
        currency text NOT NULL,
        CONSTRAINT pk_discovery_bank PRIMARY KEY (country, currency, bank_name),
        CONSTRAINT ck_discovery_bank_country CHECK (country ~ '^[A-Z]{2}$'),
        CONSTRAINT ck_discovery_bank_currency CHECK (currency ~ '^[A-Z]{3}$')
      )`);
    const rows = DISCOVERY_SEED.flatMap(([country, currency, banks]) => banks.map(([bankName, displayName]) => [bankName, displayName, country, currency]));
    const values = rows.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`).join(', ');
    await q.query(`INSERT INTO discovery_bank (bank_name, display_name, country, currency) VALUES ${values}`, rows.flat());
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE discovery_bank`);
    await q.query(`DROP TABLE external_account`);
  }
}

/** Reference data: banks and mobile-money providers per corridor ([bankName, displayName]). */
const DISCOVERY_SEED: [country: string, currency: string, banks: [string, string][]][] = [
  [
    'PH',
    'PHP',
    [
      ['BDO Unibank', 'BDO Unibank, Inc.'],
      ['Bank of the Philippine Islands', 'BPI'],
      ['Metropolitan Bank and Trust Company', 'Metrobank'],
      ['Land Bank of the Philippines', 'LANDBANK'],
      ['Philippine National Bank', 'PNB'],
      ['Security Bank Corporation', 'Security Bank'],
      ['Union Bank of the Philippines', 'UnionBank'],
      ['Rizal Commercial Banking Corporation', 'RCBC'],
      ['China Banking Corporation', 'Chinabank'],
      ['Development Bank of the Philippines', 'DBP'],
      ['EastWest Banking Corporation', 'EastWest Bank'],
      ['GCash', 'GCash (G-Xchange, Inc.)'],
      ['Maya Bank', 'Maya'],
    ],
  ],
  [
    'NG',
    'NGN',
    [
      ['Access Bank', 'Access Bank Plc'],
      ['Guaranty Trust Bank', 'GTBank'],
      ['Zenith Bank', 'Zenith Bank Plc'],
      ['First Bank of Nigeria', 'FirstBank'],
      ['United Bank for Africa', 'UBA'],
      ['Fidelity Bank', 'Fidelity Bank Plc'],
      ['Union Bank of Nigeria', 'Union Bank'],
      ['Stanbic IBTC Bank', 'Stanbic IBTC'],
      ['Sterling Bank', 'Sterling Bank Plc'],
      ['Wema Bank', 'Wema Bank (ALAT)'],
      ['Ecobank Nigeria', 'Ecobank'],
      ['First City Monument Bank', 'FCMB'],
      ['Kuda Microfinance Bank', 'Kuda'],
      ['OPay Digital Services', 'OPay'],
      ['Moniepoint Microfinance Bank', 'Moniepoint'],
    ],
  ],
  [
    'ZA',
    'ZAR',
    [
      ['Absa Bank', 'Absa'],
      ['Standard Bank of South Africa', 'Standard Bank'],
      ['First National Bank', 'FNB'],
      ['Nedbank', 'Nedbank'],
      ['Capitec Bank', 'Capitec'],
      ['Investec Bank', 'Investec'],
      ['TymeBank', 'TymeBank'],
      ['African Bank', 'African Bank'],
      ['Discovery Bank', 'Discovery Bank'],
      ['Bidvest Bank', 'Bidvest Bank'],
    ],
  ],
  [
    'CO',
    'COP',
    [
      ['Bancolombia', 'Bancolombia'],
      ['Banco de Bogotá', 'Banco de Bogotá'],
      ['Banco Davivienda', 'Davivienda'],
      ['BBVA Colombia', 'BBVA Colombia'],
      ['Banco de Occidente', 'Banco de Occidente'],
      ['Banco Popular', 'Banco Popular'],
      ['Scotiabank Colpatria', 'Scotiabank Colpatria'],
      ['Banco AV Villas', 'AV Villas'],
      ['Nequi', 'Nequi (mobile money)'],
      ['Daviplata', 'Daviplata (mobile money)'],
    ],
  ],
  [
    'SV',
    'USD',
    [
      ['Banco Agrícola', 'Banco Agrícola'],
      ['Banco Cuscatlán', 'Banco Cuscatlán'],
      ['Banco Davivienda Salvadoreño', 'Davivienda El Salvador'],
      ['Banco de América Central', 'BAC Credomatic'],
      ['Banco Promerica', 'Promerica'],
      ['Banco Hipotecario', 'Banco Hipotecario'],
    ],
  ],
  [
    'MX',
    'MXN',
    [
      ['BBVA México', 'BBVA México'],
      ['Banorte', 'Banorte'],
      ['Santander México', 'Santander'],
      ['Banamex', 'Banamex'],
      ['HSBC México', 'HSBC'],
      ['Banco Azteca', 'Banco Azteca'],
      ['Scotiabank México', 'Scotiabank'],
      ['Inbursa', 'Banco Inbursa'],
    ],
  ],
  [
    'BR',
    'BRL',
    [
      ['Itaú Unibanco', 'Itaú'],
      ['Banco Bradesco', 'Bradesco'],
      ['Banco do Brasil', 'Banco do Brasil'],
      ['Caixa Econômica Federal', 'Caixa'],
      ['Santander Brasil', 'Santander'],
      ['Nu Pagamentos', 'Nubank'],
      ['Banco Inter', 'Inter'],
    ],
  ],
];
