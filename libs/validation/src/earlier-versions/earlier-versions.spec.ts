import { neutralName, operationKey, operationsWithReplyWarnings, requestFields } from './document-fields';
import {
  applyEarlierVersionAllowance,
  earlierVersionAllowances,
  EarlierVersionAllowance,
  fieldEntry,
  INFERRED_REQUEST_FIELDS,
  RENAMED_REQUEST_FIELDS,
  RENAMED_REQUEST_VALUES,
  RequestFieldsByVersion,
  STILL_REFUSED_REQUEST_FIELDS,
} from './earlier-versions';
import extracted from './assets/request-fields-by-version.json';

const data = extracted as RequestFieldsByVersion;
const LATEST = data.versions.length - 1;

function versionsOf(ranges: string): Set<number> {
  const out = new Set<number>();
  for (const part of ranges.split(',')) {
    const [from, to] = part.split('-').map(Number);
    for (let i = from; i <= (to ?? from); i++) out.add(i);
  }
  return out;
}

describe('requestFields', () => {
  const document = {
    paths: {
      '/things/{thingId}': {
        parameters: [{ $ref: '#/components/parameters/Limit' }],
        patch: {
          parameters: [{ in: 'query', name: 'expand' }],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingUpdate' } } } },
          responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
        },
      },
    },
    components: {
      parameters: { Limit: { in: 'query', name: 'limit' } },
      schemas: {
        ThingUpdate: {
          allOf: [
            { type: 'object', properties: { name: { type: 'string' }, id: { type: 'string', readOnly: true } } },
            { properties: { info: { oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }] } } },
          ],
        },
        A: { type: 'object', properties: { gridApiFee: { type: 'integer' }, tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } } } },
        B: { type: 'object', properties: { sparkWallet: { type: 'string' } } },
        Thing: { allOf: [{ type: 'object', properties: { warnings: { type: 'array' } } }] },
      },
    },
  };

  it('lists body paths through $ref, allOf and oneOf (arrays as []), query parameters, never read-only properties, with neutral names', () => {
    const fields = requestFields(document).get('PATCH /things/{}')!;
    expect(Object.fromEntries(fields.body)).toEqual({
      name: 'string',
      info: 'object',
      'info.serviceApiFee': 'integer',
      'info.tags': 'array',
      'info.tags[].label': 'string',
      'info.lnWallet': 'string',
    });
    expect([...fields.query].sort()).toEqual(['expand', 'limit']);
  });

  it('finds the operations whose reply has warnings', () => {
    expect([...operationsWithReplyWarnings(document)]).toEqual(['PATCH /things/{}']);
  });

  it.each([
    ['GET', '/customers/{customerId}', 'GET /customers/{}'],
    ['post', '/customers/:id/kyc-link', 'POST /customers/{}/kyc-link'],
  ])('keys %s %s as %s', (method, path, key) => {
    expect(operationKey(method, path)).toBe(key);
  });

  it.each([
    ['gridApiFixedFee', 'serviceApiFixedFee'],
    ['SPARK_WALLET', 'LN_WALLET'],
    ['Lightspark', 'Provider'],
    ['accountInfo', 'accountInfo'],
  ])('names %s neutrally as %s', (name, neutral) => {
    expect(neutralName(name)).toBe(neutral);
  });
});

describe('earlierVersionAllowances', () => {
  const allowances = earlierVersionAllowances();

  it('accepts the bank account fields the published client library sends (dropped from requests on 2026-03-19)', () => {
    expect(allowances.get('POST /customers/external-accounts')?.removedBody).toEqual(expect.arrayContaining(['accountInfo.countries', 'accountInfo.paymentRails']));
  });

  it('lists a removed subtree by its outermost field', () => {
    const removed = allowances.get('POST /customers')!.removedBody;
    expect(removed).toContain('bankAccountInfo');
    expect(removed.filter((path) => path.startsWith('bankAccountInfo.'))).toEqual([]);
  });

  it('leaves out fields the served contract still declares', () => {
    const known = earlierVersionAllowances((operation) => new Set(operation === 'POST /customers/external-accounts' ? ['accountInfo.countries'] : []));
    expect(known.get('POST /customers/external-accounts')!.removedBody).not.toContain('accountInfo.countries');
  });

  it.each(STILL_REFUSED_REQUEST_FIELDS.map((row) => [row.operation, row.field]))('%s keeps refusing %s, a field of earlier versions', (operation, field) => {
    expect(versionsOf(fieldEntry(data.operations[operation].body![field]).ranges).has(LATEST)).toBe(false);
    expect(allowances.get(operation)!.removedBody).not.toContain(field);
  });

  it('has no operation today’s document no longer has', () => {
    for (const operation of allowances.keys()) expect(versionsOf(data.operations[operation].in).has(LATEST)).toBe(true);
  });

  it.each(RENAMED_REQUEST_FIELDS.flatMap((rename) => rename.operations.map((operation) => [operation, rename.from, rename.to] as const)))(
    '%s: %s -> %s is a field an earlier version had and today’s has under the new name',
    (operation, from, to) => {
      const body = data.operations[operation].body!;
      expect(versionsOf(fieldEntry(body[from]).ranges).has(LATEST)).toBe(false);
      expect(versionsOf(fieldEntry(body[to]).ranges).has(LATEST)).toBe(true);
      expect(allowances.get(operation)!.removedBody).not.toContain(from);
    },
  );
});

describe('renamed values and inferred fields', () => {
  it.each(RENAMED_REQUEST_VALUES.flatMap((rename) => rename.operations.map((operation) => [operation, rename.field] as const)))(
    '%s: %s, whose values were renamed, is a field of today’s version',
    (operation, field) => {
      expect(versionsOf(fieldEntry(data.operations[operation].body![field]).ranges).has(LATEST)).toBe(true);
      expect(earlierVersionAllowances().get(operation)!.valueRenames).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    },
  );

  it.each(INFERRED_REQUEST_FIELDS.flatMap((row) => row.operations.map((operation) => [operation, row.field] as const)))(
    '%s: %s is a field of today’s version that the first version did not have',
    (operation, field) => {
      const versions = versionsOf(fieldEntry(data.operations[operation].body![field]).ranges);
      expect([versions.has(0), versions.has(LATEST)]).toEqual([false, true]);
      expect(earlierVersionAllowances().get(operation)!.inferred).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    },
  );
});

describe('applyEarlierVersionAllowance', () => {
  const allowance: EarlierVersionAllowance = {
    removedBody: ['accountInfo.countries', 'owners', 'fees[].currency.code'],
    removedQuery: ['role'],
    renames: [
      { operations: [], from: 'taxId', to: 'identifier' },
      { operations: [], from: 'info.volumes.count', to: 'info.monthlyCount', values: { '10_TO_100': 'COUNT_10_TO_100' } },
    ],
  };

  it('takes out the removed fields (in every array element) and query parameters, and names each as errors would', () => {
    const body = { accountInfo: { accountType: 'USD_ACCOUNT', countries: ['US'] }, owners: [{}], fees: [{ currency: { code: 'USD' } }, { currency: 'EUR' }], name: 'x' };
    const query = { role: 'UBO', limit: '10' };
    expect(applyEarlierVersionAllowance(allowance, body, query)).toEqual(['accountInfo.countries', 'owners', 'fees.0.currency.code', 'role']);
    expect(body).toEqual({ accountInfo: { accountType: 'USD_ACCOUNT' }, fees: [{ currency: {} }, { currency: 'EUR' }], name: 'x' });
    expect(query).toEqual({ limit: '10' });
  });

  it('moves renamed fields to today’s names, with renamed values, and drops the container the move emptied', () => {
    const body = { taxId: '123', info: { volumes: { count: '10_TO_100' }, kept: true } };
    expect(applyEarlierVersionAllowance(allowance, body)).toEqual([]);
    expect(body).toEqual({ identifier: '123', info: { monthlyCount: 'COUNT_10_TO_100', kept: true } });
  });

  it('keeps today’s name when a request sends both', () => {
    const body = { taxId: 'old', identifier: 'new' };
    applyEarlierVersionAllowance(allowance, body);
    expect(body).toEqual({ identifier: 'new' });
  });

  it('reads an earlier version’s values under today’s and fills in the types today requires and earlier versions told by their fields', () => {
    const earlier: EarlierVersionAllowance = {
      removedBody: [],
      removedQuery: [],
      renames: [],
      valueRenames: [{ operations: [], field: 'accountInfo.accountType', values: { US_ACCOUNT: 'USD_ACCOUNT' } }],
      inferred: [
        {
          operations: [],
          field: 'source.sourceType',
          from: [
            { present: 'accountId', value: 'ACCOUNT' },
            { present: 'currency', value: 'REALTIME_FUNDING' },
          ],
        },
      ],
    };
    const old = { accountInfo: { accountType: 'US_ACCOUNT' }, source: { accountId: 'InternalAccount:1', currency: 'USD' } };
    expect(applyEarlierVersionAllowance(earlier, old)).toEqual([]);
    expect(old).toEqual({ accountInfo: { accountType: 'USD_ACCOUNT' }, source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1', currency: 'USD' } });
    const funding = { source: { currency: 'USD' } };
    applyEarlierVersionAllowance(earlier, funding);
    expect(funding.source).toEqual({ sourceType: 'REALTIME_FUNDING', currency: 'USD' });
    // Today's values and a type the request sends are left as they are; so is a value no version had.
    const today = { accountInfo: { accountType: 'USD_ACCOUNT' }, source: { sourceType: 'REALTIME_FUNDING', accountId: 'InternalAccount:1' } };
    applyEarlierVersionAllowance(earlier, today);
    expect(today).toEqual({ accountInfo: { accountType: 'USD_ACCOUNT' }, source: { sourceType: 'REALTIME_FUNDING', accountId: 'InternalAccount:1' } });
    const unknown = { accountInfo: { accountType: 'US_ACOUNT' }, source: {} };
    applyEarlierVersionAllowance(earlier, unknown);
    expect(unknown).toEqual({ accountInfo: { accountType: 'US_ACOUNT' }, source: {} });
  });

  it('leaves a field no version had for the contract to refuse', () => {
    const body = { accountInfo: { accountNumbr: '1' }, surprise: true };
    expect(applyEarlierVersionAllowance(allowance, body)).toEqual([]);
    expect(body).toEqual({ accountInfo: { accountNumbr: '1' }, surprise: true });
  });
});
