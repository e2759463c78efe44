import { ACCOUNT_TYPES, AccountType, CORRIDORS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { accountWarnings, validateCreateBody } from './account-rules';
import { paymentRailsOf } from './external-account.mapper';

const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/** A valid create body for `type`, built only from its corridor: every field's example, and a beneficiary meeting its minimums. */
export function exampleBody(type: AccountType): { currency: string; accountInfo: Record<string, unknown> } {
  const corridor = CORRIDORS[type];
  const accountInfo: Record<string, unknown> = { accountType: type };
  for (const [name, field] of Object.entries(corridor.fields)) if (field.required) accountInfo[name] = field.example;
  for (const name of corridor.oneOf?.slice(0, 1) ?? []) accountInfo[name] = corridor.fields[name].example;
  if (type === 'SWIFT_ACCOUNT') delete accountInfo.iban;
  if (type === 'INR_ACCOUNT') accountInfo.vpa = corridor.fields.vpa.example;
  if (corridor.beneficiary === 'bank') {
    accountInfo.beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Santos', address, countryOfResidence: 'US', phoneNumber: '+15555550100' };
  }
  return { currency: corridor.currencies?.[0] ?? 'SGD', accountInfo };
}

function errorsOf(body: unknown): { field: string; constraint?: unknown }[] {
  try {
    validateCreateBody('PLATFORM', body);
    return [];
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return (error.details as { errors: { field: string; constraint?: unknown }[] }).errors;
  }
}

describe('corridors', () => {
  it('lists all 46 account types of the reference', () => {
    expect(ACCOUNT_TYPES).toHaveLength(46);
    expect(new Set(ACCOUNT_TYPES.map((type) => CORRIDORS[type].schema)).size).toBe(46);
  });

  describe('a valid create of every type, built from its corridor', () => {
    it.each(ACCOUNT_TYPES.map((type) => [type]))('%s', (type) => {
      expect(errorsOf(exampleBody(type))).toEqual([]);
    });
  });

  const requiredFields = ACCOUNT_TYPES.flatMap((type) =>
    Object.entries(CORRIDORS[type].fields)
      .filter(([, field]) => field.required)
      .map(([name]) => [type, name] as const),
  );
  describe('every required field, left out, is named', () => {
    it.each(requiredFields)('%s.%s', (type, name) => {
      const body = exampleBody(type);
      delete body.accountInfo[name];
      expect(errorsOf(body).map((e) => e.field)).toContain(`accountInfo.${name}`);
    });
  });

  const formatRules = ACCOUNT_TYPES.flatMap((type) =>
    Object.entries(CORRIDORS[type].fields)
      .filter(([, field]) => field.pattern || field.enum || field.country)
      .map(([name, field]) => [type, name, field.enum ? { enum: [...field.enum] } : field.country ? { format: 'iso3166-1-alpha-2' } : { pattern: field.pattern!.source }] as const),
  );
  describe('every format rule refuses a bad value, naming the field and its constraint', () => {
    it.each(formatRules)('%s.%s', (type, name, constraint) => {
      const body = exampleBody(type);
      body.accountInfo[name] = 'not valid!';
      expect(errorsOf(body)).toEqual(expect.arrayContaining([expect.objectContaining({ field: `accountInfo.${name}`, constraint })]));
    });
  });

  describe('currency agrees with the type', () => {
    it.each([
      ['USD_ACCOUNT', 'EUR'],
      ['SOLANA_WALLET', 'SOL'],
      ['LIGHTNING', 'USD'],
      ['SWIFT_ACCOUNT', 'USDC'],
      ['SWIFT_ACCOUNT', 'ABCD'],
    ] as const)('%s refuses %s', (type, currency) => {
      expect(errorsOf({ ...exampleBody(type), currency }).map((e) => e.field)).toEqual(['currency']);
    });

    it.each(['USDC', 'USDT'])('a Solana wallet holds %s', (currency) => {
      expect(errorsOf({ ...exampleBody('SOLANA_WALLET'), currency })).toEqual([]);
    });
  });

  describe("the reference API's own example values are accepted (stricter checks are warnings)", () => {
    it.each([
      ['MXN_ACCOUNT', { clabeNumber: '123456789012345678' }, 'accountInfo.clabeNumber'],
      ['USD_ACCOUNT', { routingNumber: '123456789' }, 'accountInfo.routingNumber'],
    ] as const)('%s %o', (type, changes, warned) => {
      const body = exampleBody(type);
      Object.assign(body.accountInfo, changes);
      expect(errorsOf(body)).toEqual([]);
      expect(accountWarnings(body.accountInfo).map((w) => w.field)).toEqual([warned]);
    });

    it('takes an LN_WALLET address in the reference form, and a XOF region', () => {
      expect(errorsOf({ currency: 'BTC', accountInfo: { accountType: 'LN_WALLET', address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu' } })).toEqual([]);
      const xof = exampleBody('XOF_ACCOUNT');
      expect(errorsOf({ ...xof, accountInfo: { ...xof.accountInfo, region: 'SN' } })).toEqual([]);
    });

    it('accepts the reference beneficiary fields and a flat business legalName, with no address.city', () => {
      const body = exampleBody('EUR_ACCOUNT');
      body.accountInfo.beneficiary = {
        beneficiaryType: 'BUSINESS',
        legalName: 'Acme GmbH',
        registrationNumber: 'HRB 1',
        email: 'ops@acme.example',
        phoneNumber: '+4930123456',
        countryOfResidence: 'DE',
        address: { line1: 'Hauptstr. 1', postalCode: '10115', country: 'DE' },
      };
      expect(errorsOf(body)).toEqual([]);
    });
  });

  it('lists every problem at once, cross-field rules included', () => {
    const errors = errorsOf({
      currency: 'USD',
      accountInfo: { accountType: 'SWIFT_ACCOUNT', country: 'sg', swiftCode: 'DBS', bankName: 'DBS Bank', beneficiary: { beneficiaryType: 'BUSINESS' } },
    });
    expect(errors.map((e) => e.field).sort()).toEqual([
      'accountInfo.accountNumber',
      'accountInfo.beneficiary.address',
      'accountInfo.beneficiary.legalName',
      'accountInfo.country',
      'accountInfo.swiftCode',
    ]);
  });

  describe('payment rails per destination kind', () => {
    it.each([
      ['USD_ACCOUNT', {}, ['ACH', 'WIRE', 'RTP', 'FEDNOW']],
      ['COP_ACCOUNT', { accountNumber: '123' }, ['BANK_TRANSFER']],
      ['COP_ACCOUNT', { phoneNumber: '+573001234567' }, ['MOBILE_MONEY']],
      ['INR_ACCOUNT', { vpa: 'a@upi' }, ['UPI']],
      ['INR_ACCOUNT', { accountNumber: '000111222333', ifsc: 'HDFC0001234' }, ['NEFT', 'RTGS']],
      ['KES_ACCOUNT', {}, ['MOBILE_MONEY']],
      ['SOLANA_WALLET', {}, []],
    ] as const)('%s %o', (type, info, rails) => {
      expect(paymentRailsOf({ accountType: type, ...info })).toEqual(rails);
    });
  });
});
