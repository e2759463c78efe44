import fc from 'fast-check';
import { startTestStack, TestStack } from '../support/test-stack';

/**
 * The spec's accountInfo table written out independently of the product: the fields that must
 * be present and their formats, and the currency each type must be created with. A stored
 * account that breaks any of these is a bug, whatever the request was. Fields the reference API
 * makes optional (OPTIONAL below) are checked only when present.
 */
const SPEC: Record<string, { currency?: string; formats: Record<string, RegExp> }> = {
  USD_ACCOUNT: { currency: 'USD', formats: { accountNumber: /^\d{4,17}$/, routingNumber: /^\d{9}$/, bankAccountType: /^(CHECKING|SAVINGS)$/ } },
  MXN_ACCOUNT: { currency: 'MXN', formats: { clabeNumber: /^\d{18}$/ } },
  BRL_ACCOUNT: { currency: 'BRL', formats: { pixKey: /./, pixKeyType: /^(CPF|CNPJ|EMAIL|PHONE|RANDOM)$/ } },
  COP_ACCOUNT: { currency: 'COP', formats: { bankName: /./ } },
  SLV_ACCOUNT: { currency: 'USD', formats: {} },
  EUR_ACCOUNT: { currency: 'EUR', formats: { iban: /^[A-Z]{2}\d{2}[A-Za-z0-9]{11,30}$/, swiftCode: /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/ } },
  PHP_ACCOUNT: { currency: 'PHP', formats: { accountNumber: /^\d{8,16}$/, bankName: /./ } },
  GBP_ACCOUNT: { currency: 'GBP', formats: { sortCode: /^\d{6}$/, accountNumber: /^\d{8}$/ } },
  INR_ACCOUNT: { currency: 'INR', formats: { vpa: /^[^@\s]+@[^@\s]+$/ } },
  NGN_ACCOUNT: { currency: 'NGN', formats: { accountNumber: /^\d{10}$/ } },
  ZAR_ACCOUNT: { currency: 'ZAR', formats: { accountNumber: /^\d{9,13}$/ } },
  KES_ACCOUNT: { currency: 'KES', formats: { phoneNumber: /^\+254\d{9}$/ } },
  TZS_ACCOUNT: { currency: 'TZS', formats: { phoneNumber: /^\+255\d{9}$/ } },
  ZMW_ACCOUNT: { currency: 'ZMW', formats: { phoneNumber: /^\+260\d{9}$/ } },
  RWF_ACCOUNT: { currency: 'RWF', formats: { phoneNumber: /^\+250\d{9}$/ } },
  MWK_ACCOUNT: { currency: 'MWK', formats: { phoneNumber: /^\+265\d{9}$/ } },
  UGX_ACCOUNT: { currency: 'UGX', formats: { phoneNumber: /^\+256\d{9}$/ } },
  XOF_ACCOUNT: { currency: 'XOF', formats: { phoneNumber: /^\+(221\d{9}|225\d{10}|229\d{8,9}|228\d{8})$/ } },
  CAD_ACCOUNT: { currency: 'CAD', formats: { bankCode: /^\d{3}$/, branchCode: /^\d{5}$/, accountNumber: /^\d{7,12}$/ } },
  SWIFT_ACCOUNT: { formats: { country: /^[A-Z]{2}$/, swiftCode: /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, bankName: /./ } },
  LN_WALLET: { currency: 'BTC', formats: { address: /./ } },
};
const OPTIONAL: Record<string, string[]> = { USD_ACCOUNT: ['bankAccountType'], EUR_ACCOUNT: ['swiftCode'], INR_ACCOUNT: ['vpa'] };

const person = { beneficiaryType: 'INDIVIDUAL', fullName: 'Prop Test', address: { line1: '1 Main St', city: 'Town', postalCode: '12345', country: 'US' } };
const TEMPLATES: Record<string, unknown>[] = [
  {
    currency: 'USD',
    accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '000123456789', routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Chase', beneficiary: person },
  },
  { currency: 'MXN', accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '002010077777777771', bankName: 'BBVA México', beneficiary: person } },
  { currency: 'GBP', accountInfo: { accountType: 'GBP_ACCOUNT', sortCode: '200415', accountNumber: '38290008', beneficiary: person } },
  { currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX', bankName: 'Commerzbank', beneficiary: person } },
  { currency: 'PHP', accountInfo: { accountType: 'PHP_ACCOUNT', bankName: 'BDO Unibank', accountNumber: '001234567890', beneficiary: person } },
  { currency: 'KES', accountInfo: { accountType: 'KES_ACCOUNT', phoneNumber: '+254712345678', provider: 'MPESA', beneficiary: person } },
  { currency: 'XOF', accountInfo: { accountType: 'XOF_ACCOUNT', phoneNumber: '+229612345678', provider: 'MTN', beneficiary: person } },
  {
    currency: 'SGD',
    accountInfo: { accountType: 'SWIFT_ACCOUNT', country: 'SG', swiftCode: 'DBSSSGSGXXX', bankName: 'DBS Bank', accountNumber: '0720123456', beneficiary: person },
  },
  { currency: 'BRL', accountInfo: { accountType: 'BRL_ACCOUNT', pixKey: 'a@b.co', pixKeyType: 'EMAIL', bankName: 'Itaú', taxId: '12345678901', beneficiary: person } },
  { currency: 'BTC', accountInfo: { accountType: 'LN_WALLET', address: 'satoshi@wallet.example.com' } },
];

const FIELD_NAMES = [
  'accountType',
  'accountNumber',
  'routingNumber',
  'clabeNumber',
  'iban',
  'swiftCode',
  'sortCode',
  'phoneNumber',
  'provider',
  'pixKey',
  'pixKeyType',
  'bankName',
  'country',
  'address',
  'beneficiary',
  'taxId',
  'bankCode',
  'branchCode',
  'vpa',
  '__proto__',
  'constructor',
];

/** Values a careless or hostile client might send in any field. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.stringMatching(/^\d{0,40}$/),
  fc.stringMatching(/^\+\d{0,16}$/),
  fc.constantFrom(
    'USD_ACCOUNT',
    'LN_WALLET',
    'SWIFT_ACCOUNT',
    'MXN_ACCOUNT',
    'INDIVIDUAL',
    'BUSINESS',
    'USD',
    'BTC',
    'MPESA',
    '',
    ' ',
    '\u0000',
    "'; DROP TABLE external_account; --",
    'x'.repeat(5000),
    '0'.repeat(17) + '105',
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

/** A template with some accountInfo, beneficiary or top-level fields replaced, added or removed. */
const mutated = fc
  .record({
    template: fc.constantFrom(...TEMPLATES),
    infoChanges: fc.dictionary(fc.constantFrom(...FIELD_NAMES), nasty, { maxKeys: 3 }),
    beneficiaryChanges: fc.dictionary(fc.constantFrom('beneficiaryType', 'fullName', 'address', 'businessInfo', 'birthDate', 'nationality', 'documentType'), nasty, { maxKeys: 2 }),
    topChanges: fc.dictionary(fc.constantFrom('currency', 'platformAccountId', 'accountInfo', 'customerId', 'extra'), nasty, { maxKeys: 1 }),
    uniqueDigits: fc.stringMatching(/^\d{3}$/),
  })
  .map(({ template, infoChanges, beneficiaryChanges, topChanges }) => {
    const info = { ...(template.accountInfo as Record<string, unknown>), ...infoChanges };
    if (Object.keys(beneficiaryChanges).length > 0 && typeof info.beneficiary === 'object' && info.beneficiary !== null) {
      info.beneficiary = { ...info.beneficiary, ...beneficiaryChanges };
    }
    return { currency: template.currency, platformAccountId: 'prop', accountInfo: info, ...topChanges };
  });

const anyBody = fc.oneof(
  { weight: 3, arbitrary: mutated },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('currency', 'platformAccountId', 'accountInfo', 'customerId'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

describe('External accounts: property-based create', () => {
  let t: TestStack;
  let customerId: string;

  beforeAll(async () => {
    t = await startTestStack();
    customerId = (await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Prop Owner' })).body.id;
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function stored(): Promise<number> {
    return (await t.api.get(`/customers/external-accounts?customerId=${customerId}&limit=1`)).body.totalCount;
  }

  it('answers random and adversarial bodies with 201 or a 400 envelope, never a 500, and never stores an invalid account', async () => {
    const created = new Set<string>();
    let counts = { created: 0, rejected: 0, duplicate: 0 };
    await fc.assert(
      fc.asyncProperty(anyBody, async (candidate) => {
        const requestBody = typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate) ? { customerId, ...candidate } : candidate;
        const before = await stored();
        const response = await t.api.post('/customers/external-accounts', requestBody);

        if (response.status === 201) {
          counts = { ...counts, created: counts.created + 1 };
          created.add(response.body.id);
          const account = (await t.api.get(`/customers/external-accounts/${response.body.id}`)).body;
          const type: string = account.accountInfo.accountType;
          const rules = SPEC[type];
          expect(rules).toBeDefined();
          if (rules.currency) expect(account.currency).toBe(rules.currency);
          else expect(account.currency).toMatch(/^[A-Z]{3}$/);
          for (const [field, format] of Object.entries(rules.formats)) {
            if (OPTIONAL[type]?.includes(field) && account.accountInfo[field] === undefined) continue;
            expect(String(account.accountInfo[field])).toMatch(format);
          }
          if (account.accountInfo.accountType !== 'LN_WALLET') expect(account.accountInfo.beneficiary?.beneficiaryType).toMatch(/^(INDIVIDUAL|BUSINESS)$/);
          expect(await stored()).toBe(before + 1);
          return;
        }
        if (response.status === 409) {
          // The same destination again: only possible for one created earlier in this run.
          counts = { ...counts, duplicate: counts.duplicate + 1 };
          expect(response.body).toMatchObject({ status: 409, code: 'CONFLICT' });
          expect(created.has(response.body.details.existingAccountId)).toBe(true);
        } else {
          counts = { ...counts, rejected: counts.rejected + 1 };
          expect(response.status).toBe(400);
          expect(response.body).toEqual(
            expect.objectContaining({ status: 400, code: expect.stringMatching(/^(INVALID_INPUT|INVALID_BANK_ACCOUNT)$/), message: expect.any(String) }),
          );
          // Field errors are listed when validation ran; the body parser's own refusals (bad JSON,
          // a `__proto__` key) are bare INVALID_INPUT envelopes.
          if (response.body.code === 'INVALID_INPUT' && response.body.details !== undefined) {
            expect(response.body.details.errors.length).toBeGreaterThan(0);
            for (const error of response.body.details.errors) expect(error).toEqual(expect.objectContaining({ field: expect.any(String), message: expect.any(String) }));
          }
        }
        expect(await stored()).toBe(before);
      }),
      { numRuns: 200, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
    );
    // The generator must exercise both outcomes, or the property proves little.
    expect(counts.created).toBeGreaterThan(0);
    expect(counts.rejected).toBeGreaterThan(0);
  }, 120_000);
});
