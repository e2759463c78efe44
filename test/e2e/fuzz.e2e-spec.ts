import fc from 'fast-check';
import { API_VERSION } from '@paykit/contracts';
import { Credentials } from '../support/api-client';
import { startTestStack, TestStack } from '../support/test-stack';
import { isErrorEnvelope, RawResponse, rawRequest } from '../support/raw-http';
import { UNICODE_SAMPLES } from '../support/unicode-samples';

/**
 * Property-based fuzzing of every operation the stack serves: requests are generated from each
 * operation's schema in the served /openapi.json, then made hostile (NUL, lone surrogates, nesting
 * 10,000 deep, wrong types, nulls, huge numbers, over-long strings, ids of other types and of
 * another platform). Properties: no answer is a 5xx; every error is in the envelope
 * `{status, code, message, details}`; a request answered 4xx stores nothing (the list endpoints'
 * counts, of this platform and the other, are the same before and after).
 *
 * Bounded: `CASES_PER_OPERATION` generated requests per operation plus its fixed hostile ids, with
 * a fixed seed (FUZZ_SEED overrides; the seed is printed), so a failure replays exactly.
 */

type Schema = Record<string, any>;
interface Operation {
  method: string;
  template: string;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema }>;
  body?: { mediaType: string; schema: Schema };
}
interface Case {
  path: string;
  query: string;
  body?: string;
  contentType?: string;
}

const BASE = `/${API_VERSION}`;
const CASES_PER_OPERATION = 6;
const SEED = Number(process.env.FUZZ_SEED ?? 19_2026);
const UUID = '0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
/** JSON text spliced into a body after stringify (JSON.stringify cannot write it): a value `${RAW}<index>` stands for RAW_TEXTS[index]. */
const RAW = '\u0001raw:';
const RAW_TEXTS = [`${'['.repeat(10_000)}${']'.repeat(10_000)}`, `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`, '1e400', '-1e400', '18446744073709551616'];

/** The hostile values a field can take instead of its own; `RAW` ones are spliced in as JSON text. */
function hostileValues(foreignId: string): fc.Arbitrary<unknown> {
  return fc.constantFrom<unknown>(
    'a\u0000b',
    'x\ud800',
    '\udc00y',
    `${RAW}0`,
    `${RAW}1`,
    null,
    [],
    {},
    [{}],
    true,
    0,
    -1,
    `${RAW}2`,
    `${RAW}3`,
    `${RAW}4`,
    1.5,
    Number.MAX_SAFE_INTEGER,
    'x'.repeat(20_000),
    '',
    '😀',
    `Card:${UUID}`,
    `Customer:${UUID}`,
    foreignId,
    '2024-02-30',
    '../../etc/passwd',
    "'; DROP TABLE customer; --",
  );
}

/** Path segments as they go on the wire: other types' ids, another platform's, NUL, undecodable bytes, over-long, emoji. */
function hostileIds(foreignId: string): string[] {
  return [encodeURIComponent(foreignId), `Card:${UUID}`, `Transaction:${UUID}`, 'x%00y', '%ED%A0%80', 'a'.repeat(5_000), encodeURIComponent('😀'), '%2e%2e'];
}

class SchemaArbitraries {
  constructor(
    private readonly document: { components?: { schemas?: Record<string, Schema> } },
    private readonly foreignId: string,
  ) {}

  resolve(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; current?.$ref && hops < 20; hops++) current = this.document.components!.schemas![current.$ref.split('/').pop()!];
    return current ?? {};
  }

  /** Values shaped like the schema (often valid, sometimes not: examples, bounds and formats are only followed loosely). */
  of(input: Schema, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(input);
    if (depth > 4) return fc.constant(undefined);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
    if (Array.isArray(schema.allOf)) {
      if (schema.allOf.length === 1) return this.of(schema.allOf[0], depth);
      return fc.tuple(...schema.allOf.map((part: Schema) => this.of(part, depth))).map((parts) => Object.assign({}, ...parts.filter((p) => typeof p === 'object' && p !== null)));
    }
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((branch: Schema) => this.of(branch, depth)));
    const withExample = (arbitrary: fc.Arbitrary<unknown>) => (schema.example !== undefined ? fc.oneof(fc.constant(schema.example), arbitrary) : arbitrary);
    switch (schema.type) {
      case 'string':
        if (schema.format === 'date') return withExample(fc.constantFrom('2024-01-31', '1990-04-12'));
        if (schema.format === 'date-time') return withExample(fc.constant(new Date(0).toISOString()));
        if (schema.format === 'email') return withExample(fc.constant('fuzz@example.com'));
        return withExample(fc.string({ maxLength: Math.min(schema.maxLength ?? 24, 24) }));
      case 'integer':
        return withExample(fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 }));
      case 'number':
        return withExample(fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 }));
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(this.of(schema.items ?? {}, depth + 1), { maxLength: 2 });
      default: {
        const properties: Record<string, Schema> = schema.properties ?? {};
        const names = Object.keys(properties);
        if (names.length === 0) return fc.constant({});
        const required = new Set<string>(schema.required ?? []);
        return fc.record(Object.fromEntries(names.map((name) => [name, this.of(properties[name], depth + 1)])), { requiredKeys: names.filter((n) => required.has(n)) });
      }
    }
  }

  /** A generated body with one hostile value put somewhere in it (or in place of all of it). */
  hostileBody(schema: Schema): fc.Arbitrary<string> {
    return fc.tuple(this.of(schema), hostileValues(this.foreignId), fc.nat(), fc.boolean()).map(([generated, hostile, pick, whole]) => {
      const body = whole || typeof generated !== 'object' || generated === null ? hostile : plantHostile(generated, hostile, pick);
      return toJsonText(body);
    });
  }
}

/** Puts `hostile` at one of the object's field positions (nested ones included, chosen by `pick`), or as a new unknown field. */
function plantHostile(value: object, hostile: unknown, pick: number): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const slots: Array<[Record<string, unknown>, string]> = [];
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    for (const key of Object.keys(node)) {
      slots.push([node as Record<string, unknown>, key]);
      walk((node as Record<string, unknown>)[key]);
    }
  };
  walk(copy);
  if (slots.length === 0) return { ...copy, unexpected: hostile };
  const [holder, key] = slots[pick % slots.length];
  holder[key] = hostile;
  return copy;
}

/** JSON text, with the `RAW` markers replaced by the text they carry (deep nesting, out-of-range numbers). */
function toJsonText(value: unknown): string {
  const text = JSON.stringify(value === undefined ? null : value);
  return text.replace(/"\\u0001raw:(\d+)"/g, (_, index: string) => RAW_TEXTS[Number(index)]);
}

function operationsOf(document: any): Operation[] {
  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const operation = item[method];
      if (!operation) continue;
      const parameters: any[] = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const mediaType = Object.keys(content)[0];
      operations.push({
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: mediaType ? { mediaType, schema: content[mediaType].schema ?? {} } : undefined,
      });
    }
  }
  return operations;
}

/** Query values as they go on the wire, hostile ones included (NUL, undecodable, over-long, out of range). */
function hostileQueryValue(foreignId: string): fc.Arbitrary<string> {
  return fc.constantFrom('%00', '%ED%A0%80', 'x'.repeat(3_000), '-1', '1e400', '99999999999999999999', encodeURIComponent(foreignId), `Card:${UUID}`, '', '%F0%9F%98%80', 'true');
}

function multipartCases(): Array<Pick<Case, 'body' | 'contentType'>> {
  const boundary = 'fuzz-boundary';
  const part = (headers: string, content: string) => `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
  return [
    { contentType: 'multipart/form-data', body: 'no boundary' },
    { contentType: `multipart/form-data; boundary=${boundary}`, body: 'not multipart at all' },
    {
      contentType: `multipart/form-data; boundary=${boundary}`,
      body: part('Content-Disposition: form-data; name="file"; filename="a\u0000b.csv"\r\nContent-Type: text/csv', 'a,b') + `--${boundary}--\r\n`,
    },
    { contentType: `multipart/form-data; boundary=${boundary}`, body: part('Content-Disposition: form-data; name="file"; filename="x.pdf"', '%PDF').slice(0, 40) },
    { contentType: 'application/json', body: '{}' },
    { contentType: 'application/json; charset=utf-16', body: '{}' },
  ];
}

/**
 * A plausible value for a schema, the same every time: its example, else the first enum value,
 * else a value of its type and format; objects with every property, arrays with one item. The
 * Unicode sweep starts from it so that a request gets past the shape checks to the field's rules.
 */
function exampleOf(arbitraries: SchemaArbitraries, input: Schema, depth = 0): unknown {
  const schema = arbitraries.resolve(input);
  if (depth > 6) return undefined;
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((part: Schema) => exampleOf(arbitraries, part, depth)).filter((p: unknown) => typeof p === 'object' && p !== null));
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) return exampleOf(arbitraries, alternatives[0], depth);
  switch (schema.type) {
    case 'string':
      return schema.format === 'date' ? '1990-04-12' : schema.format === 'date-time' ? new Date(0).toISOString() : schema.format === 'email' ? 'fuzz@example.com' : 'text';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [exampleOf(arbitraries, schema.items ?? {}, depth + 1)];
    default:
      return Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([name, property]) => [name, exampleOf(arbitraries, property, depth + 1)]));
  }
}

/** Where a value holds a string: each as the list of keys (and array indexes) leading to it. */
function stringSlots(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => stringSlots(child, [...path, Array.isArray(value) ? Number(key) : key]));
}

function withValueAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let holder = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  holder[path[path.length - 1]] = replacement;
  return copy;
}

describe('Fuzzing every operation from its schema', () => {
  let t: TestStack;
  let other: { credentials: Credentials };
  let foreignId: string;

  beforeAll(async () => {
    // Generous service timeouts: on a loaded machine a slow answer must not read as a 5xx of the product.
    t = await startTestStack({ env: { RPC_TIMEOUT_MS: '60000' } });
    other = await t.newPlatform();
    const foreign = await rawRequest(t.stack.url, {
      method: 'POST',
      path: `${BASE}/customers`,
      auth: other.credentials,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Other Platform Customer', email: 'other@example.com' }),
    });
    expect(foreign.status).toBe(201);
    foreignId = foreign.json.id;
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('never answers a 5xx, answers every error in the envelope, and stores nothing on a 4xx', async () => {
    const document = (await rawRequest(t.stack.url, { method: 'GET', path: '/openapi.json' })).json;
    const arbitraries = new SchemaArbitraries(document, foreignId);
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(50);
    const send = (method: string, c: Case, auth: Credentials = t.credentials): Promise<RawResponse> =>
      rawRequest(t.stack.url, {
        method,
        path: `${BASE}${c.path}${c.query ? `?${c.query}` : ''}`,
        auth,
        headers: c.contentType ? { 'content-type': c.contentType } : {},
        body: c.body,
      });

    /** What a 4xx must leave as it was: each list's size, on this platform and the other. */
    const LISTS = ['/customers', '/cards', '/documents', '/customers/external-accounts', '/platform/external-accounts', '/tokens', '/transactions', '/customers/internal-accounts'];
    const sizes = async (auth: Credentials = t.credentials): Promise<string> => {
      const counts: string[] = [];
      for (const list of LISTS) {
        let count = 0;
        let cursor: string | undefined;
        for (let page = 0; page < 20; page++) {
          const answer = await send('GET', { path: list, query: `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}` }, auth);
          if (answer.status !== 200) throw new Error(`GET ${list} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
          count += answer.json.data.length;
          cursor = answer.json.nextCursor;
          if (!answer.json.hasMore || !cursor) break;
        }
        counts.push(`${list}=${count}`);
      }
      return counts.join(' ');
    };

    let tried = 0;
    let serverErrors = 0;
    let outsideEnvelope = 0;
    let storedOn4xx = 0;
    const failures: string[] = [];
    let seed = SEED;
    let before = await sizes();
    const otherBefore = await sizes(other.credentials);

    for (const operation of operations) {
      const cases: Case[] = [];
      const fillPath = (ids: string[]) => operation.template.replace(/\{([^}]+)\}/g, () => ids.shift() ?? 'x');
      // Hostile ids in every path parameter, the rest of the request plain.
      if (operation.pathParams.length > 0) {
        for (const id of hostileIds(foreignId))
          cases.push({
            path: fillPath(operation.pathParams.map(() => id)),
            query: '',
            body: operation.body ? '{}' : undefined,
            contentType: operation.body ? 'application/json' : undefined,
          });
      }
      const plainPath = fillPath(operation.pathParams.map(() => encodeURIComponent(foreignId)));
      // Generated queries with one hostile parameter.
      if (operation.query.length > 0) {
        const queries = fc.sample(
          fc.tuple(fc.constantFrom(...operation.query), hostileQueryValue(foreignId)).map(([param, value]) => `${encodeURIComponent(param.name)}=${value}`),
          { numRuns: 3, seed: seed++ },
        );
        for (const query of queries) cases.push({ path: plainPath, query });
      }
      // Generated bodies with one hostile value each.
      if (operation.body?.mediaType === 'application/json') {
        for (const body of fc.sample(arbitraries.hostileBody(operation.body.schema), { numRuns: CASES_PER_OPERATION, seed: seed++ })) {
          cases.push({ path: plainPath, query: '', body, contentType: 'application/json' });
        }
        cases.push({ path: plainPath, query: '', body: 'null', contentType: 'application/json' });
        cases.push({ path: plainPath, query: '', body: '{}', contentType: 'application/json; charset=utf-16' });
        cases.push({ path: plainPath, query: '', body: '<x/>', contentType: 'application/xml' });
      } else if (operation.body) {
        for (const c of multipartCases()) cases.push({ path: plainPath, query: '', ...c });
      }

      let answered2xx = false;
      for (const c of cases) {
        tried += 1;
        const response = await send(operation.method, c);
        const label = `${operation.method} ${c.path.slice(0, 120)}${c.query ? `?${c.query.slice(0, 60)}` : ''} ${c.body ? c.body.slice(0, 120) : ''}`;
        if (response.status >= 500) {
          serverErrors += 1;
          failures.push(`${response.status} ${label} -> ${response.text.slice(0, 200)}`);
        }
        if (response.status >= 400 && !isErrorEnvelope(response)) {
          outsideEnvelope += 1;
          failures.push(`not in the envelope: ${response.status} ${label} -> ${response.text.slice(0, 200)}`);
        }
        if (response.status < 400) answered2xx = true;
      }
      // A write refused must have written nothing; one accepted may have (its own specs say what).
      if (operation.method !== 'GET') {
        const after = await sizes();
        if (!answered2xx && after !== before) {
          storedOn4xx += 1;
          failures.push(`stored on a 4xx: ${operation.method} ${operation.template}: ${before} -> ${after}`);
        }
        before = after;
      }
    }

    // Every request above is this platform's: the other platform's data never moves.
    const otherAfter = await sizes(other.credentials);
    if (otherAfter !== otherBefore) failures.push(`the other platform's data changed: ${otherBefore} -> ${otherAfter}`);
    // The figures the README's "Hostile input" section states.
    process.stdout.write(
      `fuzz (${t.mode}, seed ${SEED}): ${tried} requests over ${operations.length} operations; ${serverErrors} answered 5xx; ${outsideEnvelope} errors outside the envelope; ${storedOn4xx} operations stored on a 4xx\n`,
    );
    expect(failures.slice(0, 25)).toEqual([]);
  }, 300_000);

  it('never answers a 5xx to Unicode beyond ASCII in any string field or path parameter of a write', async () => {
    const document = (await rawRequest(t.stack.url, { method: 'GET', path: '/openapi.json' })).json;
    const arbitraries = new SchemaArbitraries(document, foreignId);
    const writes = operationsOf(document).filter((operation) => ['POST', 'PATCH', 'PUT'].includes(operation.method));
    let tried = 0;
    // Each sample in turn: every field gets one, and every sample lands on many fields.
    const nextSample = () => UNICODE_SAMPLES[tried++ % UNICODE_SAMPLES.length][1];
    const failures: string[] = [];
    const check = async (operation: Operation, path: string, body: string | undefined, where: string) => {
      const response = await rawRequest(t.stack.url, {
        method: operation.method,
        path: `${BASE}${path}`,
        auth: t.credentials,
        ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body } : {}),
      });
      if (response.status >= 500 || (response.status >= 400 && !isErrorEnvelope(response)))
        failures.push(`${response.status} ${operation.method} ${operation.template} ${where} -> ${response.text.slice(0, 200)}`);
    };
    for (const operation of writes) {
      const json = operation.body?.mediaType === 'application/json';
      const example = json ? exampleOf(arbitraries, operation.body!.schema) : undefined;
      const plainBody = json ? JSON.stringify(example ?? {}) : undefined;
      const filled = (replace: (name: string) => string) => operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => replace(name));
      const plainPath = filled(() => encodeURIComponent(foreignId));
      for (const parameter of operation.pathParams) {
        await check(
          operation,
          filled((name) => encodeURIComponent(name === parameter ? nextSample() : foreignId)),
          plainBody,
          `path ${parameter}`,
        );
      }
      for (const slot of stringSlots(example)) {
        await check(operation, plainPath, JSON.stringify(withValueAt(example, slot, `${slot[slot.length - 1] === 'id' ? '' : 'x'}${nextSample()}`)), `field ${slot.join('.')}`);
      }
    }
    process.stdout.write(`fuzz (${t.mode}): ${tried} Unicode values over ${writes.length} writes; ${failures.length} answered 5xx or outside the envelope\n`);
    expect(tried).toBeGreaterThan(writes.length);
    expect(failures.slice(0, 25)).toEqual([]);
  }, 300_000);
});
