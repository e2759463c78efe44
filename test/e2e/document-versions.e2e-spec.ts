import { API_VERSION } from '@paykit/contracts';
import { fieldEntry, operationKey, RENAMED_REQUEST_FIELDS, RequestFieldsByVersion, STILL_REFUSED_REQUEST_FIELDS } from '@paykit/validation';
import extracted from '../../libs/validation/src/earlier-versions/assets/request-fields-by-version.json';
import { rawRequest } from '../support/raw-http';
import { startTestStack, TestStack } from '../support/test-stack';

/**
 * Every published version of the API document is served: a request valid under any earlier
 * version (the fields each had, extracted from the document's history into
 * libs/validation/src/earlier-versions/assets) is not refused for a field that version had,
 * whatever today's version says; renamed fields are read under today's names; a field no version
 * ever had is still a 400 naming it. One stack, one request per removed field.
 */

const data = extracted as RequestFieldsByVersion;
const LATEST = data.versions.length - 1;
const BASE = `/${API_VERSION}`;

function inRanges(ranges: string, index: number): boolean {
  return ranges.split(',').some((part) => {
    const [from, to] = part.split('-').map(Number);
    return index >= from && index <= (to ?? from);
  });
}

/** The fields of earlier versions only, outermost of each subtree, per operation: [operation, path, type, a version that had it]. */
function removedFields(): Array<[string, 'body' | 'query', string, string, string]> {
  const rows: Array<[string, 'body' | 'query', string, string, string]> = [];
  for (const [operation, entry] of Object.entries(data.operations)) {
    if (!inRanges(entry.in, LATEST)) continue;
    const renamed = (path: string) =>
      RENAMED_REQUEST_FIELDS.some((r) => r.operations.includes(operation) && (path === r.from || path.startsWith(`${r.from}.`))) ||
      STILL_REFUSED_REQUEST_FIELDS.some((r) => r.operation === operation && (path === r.field || path.startsWith(`${r.field}.`) || path.startsWith(`${r.field}[]`)));
    const gone = Object.entries(entry.body ?? {})
      .map(([path, value]) => [path, fieldEntry(value)] as const)
      .filter(([path, { ranges }]) => !inRanges(ranges, LATEST) && !renamed(path));
    for (const [path, { type, ranges }] of gone) {
      if (gone.some(([other]) => other !== path && (path.startsWith(`${other}.`) || path.startsWith(`${other}[]`)))) continue;
      rows.push([operation, 'body', path, type, data.versions[Number(ranges.split(/[-,]/)[0])]]);
    }
    for (const [name, ranges] of Object.entries(entry.query ?? {})) {
      if (!inRanges(ranges, LATEST)) rows.push([operation, 'query', name, 'string', data.versions[Number(ranges.split(/[-,]/)[0])]]);
    }
  }
  return rows;
}

type Schema = Record<string, any>;

/** A plausible value of a served schema: its example, else the first enum value, else one of its type (objects with every property). */
function exampleOf(document: Schema, input: Schema, depth = 0): unknown {
  let schema = input;
  for (let hops = 0; schema?.$ref && hops < 20; hops++) schema = document.components.schemas[schema.$ref.split('/').pop()];
  if (!schema || depth > 6) return undefined;
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((part: Schema) => exampleOf(document, part, depth)).filter((p: unknown) => typeof p === 'object' && p !== null));
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) return exampleOf(document, alternatives[0], depth);
  switch (schema.type) {
    case 'string':
      return schema.format === 'date' ? '1990-04-12' : schema.format === 'date-time' ? new Date(0).toISOString() : 'text';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [exampleOf(document, schema.items ?? {}, depth + 1)];
    default:
      return Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([name, property]) => [name, exampleOf(document, property, depth + 1)]));
  }
}

/** A value of the earlier version's type for a field: an object or array built from the removed subtree's own fields. */
function earlierValue(operation: string, path: string, type: string): unknown {
  const fields = data.operations[operation].body ?? {};
  const children = (prefix: string) =>
    Object.entries(fields)
      .filter(([child]) => child.startsWith(prefix) && !child.slice(prefix.length).includes('.') && !child.slice(prefix.length).includes('[]'))
      .map(([child, value]) => [child.slice(prefix.length), earlierValue(operation, child, fieldEntry(value).type)] as const);
  switch (type) {
    case 'object':
      return Object.fromEntries(children(`${path}.`));
    case 'array': {
      const items = children(`${path}[].`);
      return items.length > 0 ? [Object.fromEntries(items)] : ['US'];
    }
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return 'US';
  }
}

/** `value` with `field` set at `path` (`a.b[].c`: into every element of the array `a.b`, creating one if there is none). */
function withField(value: unknown, path: string, field: unknown): unknown {
  const copy = (typeof value === 'object' && value !== null && !Array.isArray(value) ? structuredClone(value) : {}) as Record<string, any>;
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) {
    copy[head] = field;
    return copy;
  }
  if (head.endsWith('[]')) {
    const name = head.slice(0, -2);
    const items: unknown[] = Array.isArray(copy[name]) && copy[name].length > 0 ? copy[name] : [{}];
    copy[name] = items.map((item) => withField(item, rest.join('.'), field));
  } else {
    copy[head] = withField(copy[head], rest.join('.'), field);
  }
  return copy;
}

/** Whether an error refuses `path` (or a field inside it) as unknown; `details.errors[].field` has indexes where `path` has `[]`. */
function refusedAsUnknown(body: any, path: string): string | undefined {
  const pattern = new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\\?\[\]/g, '\\.\\d+')}(\\.|$)`);
  const wire = (path.endsWith('[]') ? path.slice(0, -2) : path).replace(/\[\]/g, '.0');
  const errors: Array<{ field: string; message: string }> = body?.details?.errors ?? [];
  return errors.find((e) => (pattern.test(e.field) || e.field === wire || wire.startsWith(`${e.field}.`)) && /not a recognised field/.test(e.message))?.message;
}

const usBankAccount = (extra: Record<string, unknown> = {}) => ({
  currency: 'USD',
  accountInfo: {
    accountType: 'USD_ACCOUNT',
    accountNumber: '000123456789',
    routingNumber: '021000021',
    bankAccountType: 'CHECKING',
    bankName: 'JPMorgan Chase Bank',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Maria Santos', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } },
    ...extra,
  },
});

describe('Every published version of the API document', () => {
  let t: TestStack;
  let customerId: string;
  let document: Schema;

  beforeAll(async () => {
    t = await startTestStack();
    customerId = (await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Earlier Version Client' })).body.id;
    document = (await rawRequest(t.stack.url, { method: 'GET', path: '/openapi.json' })).json;
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('reads the versions from the document history kept in the repository', () => {
    expect(data.versions[0]).toMatch(/^2025-10-10 /);
    expect(data.versions.length).toBeGreaterThan(100);
    expect(removedFields().length).toBeGreaterThan(20);
  });

  it('answers 201 to a US bank account of the published client library, with accountInfo.countries and accountInfo.paymentRails (dropped on 2026-03-19)', async () => {
    const response = await t.api.post('/customers/external-accounts', { customerId, ...usBankAccount({ countries: ['US'], paymentRails: ['ACH'] }) });
    expect([response.status, response.body.details]).toEqual([201, undefined]);
    expect(response.body.accountInfo).not.toHaveProperty('countries');
    expect(response.body.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'accountInfo.countries', message: expect.stringMatching(/earlier version/) }),
        expect.objectContaining({ field: 'accountInfo.paymentRails', message: expect.stringMatching(/earlier version/) }),
      ]),
    );
    // The warning is of that request: the account as stored does not carry it.
    expect((await t.api.get(`/customers/external-accounts/${response.body.id}`)).body.warnings ?? []).toEqual([]);
  });

  it('still refuses a field no version ever had, naming it', async () => {
    const typo = await t.api.post('/customers/external-accounts', { customerId, ...usBankAccount({ accountNumbr: '000123456789' }) });
    expect(typo.status).toBe(400);
    expect(typo.body.details.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'accountInfo.accountNumbr', message: expect.stringMatching(/not a recognised field/) })]),
    );
    const topLevel = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Typo', emial: 'typo@example.com' });
    expect(topLevel.status).toBe(400);
    expect(topLevel.body.details.errors).toEqual([expect.objectContaining({ field: 'emial', message: expect.stringMatching(/not a recognised field/) })]);
  });

  it.each(STILL_REFUSED_REQUEST_FIELDS.filter((row) => row.instead === undefined).map((row) => [row.operation, row.field, row.reason]))(
    '%s still refuses %s of earlier versions: %s',
    async (operation, field) => {
      expect(operation).toBe('POST /platform/external-accounts');
      const response = await t.api.post('/platform/external-accounts', { ...usBankAccount(), [field]: customerId });
      expect(response.status).toBe(400);
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field, message: expect.stringMatching(/not a recognised field/) })]);
    },
  );

  it('reads renamed fields under their names of today', async () => {
    const individual = await t.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Renamed Fields',
      taxIdType: 'SSN',
      taxIdentifier: '123-45-6789',
      taxIdCountryOfIssuance: 'US',
    });
    expect(individual.status).toBe(201);
    expect(individual.body).toMatchObject({ idType: 'SSN', countryOfIssuance: 'US' });
    const business = await t.api.post('/customers', {
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Earlier Volumes LLC', expectedActivityVolumes: { monthlyTransactionCount: '100_TO_500', monthlyTransactionVolume: '100K_TO_1M' } },
    });
    expect(business.status).toBe(201);
    expect(business.body.businessInfo).toMatchObject({ expectedMonthlyTransactionCount: 'COUNT_100_TO_500', expectedMonthlyTransactionVolume: 'VOLUME_100K_TO_1M' });
    expect(business.body.businessInfo).not.toHaveProperty('expectedActivityVolumes');
  });

  it('refuses no field of an earlier version, on any operation served', async () => {
    const served = new Map<string, { template: string; operation: Schema }>();
    for (const [template, item] of Object.entries<Schema>(document.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) served.set(operationKey(method, template), { template, operation: item[method] });
    }
    const rows = removedFields().filter(([operation]) => served.has(operation));
    expect(rows.map(([operation, , path]) => `${operation} ${path}`)).toEqual(
      expect.arrayContaining(['POST /customers/external-accounts accountInfo.countries', 'POST /customers/external-accounts accountInfo.paymentRails']),
    );
    const failures: string[] = [];
    for (const [operation, where, path, type, version] of rows) {
      const { template, operation: spec } = served.get(operation)!;
      const method = operation.split(' ')[0];
      const url = template.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'customerId' || template.startsWith('/customers/{') ? customerId : `Unknown:${name}`));
      const schema = spec.requestBody?.content?.['application/json']?.schema;
      let body = schema ? exampleOf(document, schema) : undefined;
      // An external account's earlier fields were on bank accounts: start from a valid one.
      if (operation === 'POST /customers/external-accounts') body = { customerId, ...usBankAccount() };
      if (operation === 'POST /platform/external-accounts') body = usBankAccount();
      let query = '';
      if (where === 'body') body = withField(body, path, earlierValue(operation, path, type));
      else query = `?${encodeURIComponent(path)}=US`;
      const response = await rawRequest(t.stack.url, {
        method,
        path: `${BASE}${url}${query}`,
        auth: t.credentials,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const refusal = refusedAsUnknown(response.json, path);
      if (response.status >= 500 || refusal) failures.push(`${operation} ${where} ${path} (from ${version}): ${response.status} ${refusal ?? response.text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});
