/**
 * What one version of the API document accepted on requests: for every operation, the request
 * body's field paths (dotted, `[]` for an array's items) and the query parameters' names. `$ref`,
 * `allOf`, `oneOf` and `anyOf` are resolved (a field of any variant is a field of the operation).
 * Names are made neutral the way ../shared/reference/README.md describes (`neutralName`).
 */

type Schema = Record<string, unknown>;

export interface OperationFields {
  /** Body field path -> its JSON type (`object`, `array`, `string`, ..., `mixed` where variants disagree). */
  body: Map<string, string>;
  query: Set<string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Deeper than any request of the document nests; stops a schema that refers to itself. */
const MAX_DEPTH = 12;

/**
 * The brand-bearing names the reference document replaced by neutral words (its README): the
 * API's prefix `grid` (fee fields `gridApi*`, `gridOperationsStatus`, the wallet signature header)
 * and its wallet product (`SPARK_WALLET`, `sparkWallet`). The company name goes first, so that
 * its `spark` is not read as the product's.
 */
const NEUTRAL_NAMES: Array<[RegExp, string]> = [
  [/Lightspark/g, 'Provider'],
  [/lightspark/g, 'provider'],
  [/LIGHTSPARK/g, 'PROVIDER'],
  [/Grid/g, 'Service'],
  [/grid/g, 'service'],
  [/GRID/g, 'SERVICE'],
  [/Spark/g, 'Ln'],
  [/spark/g, 'ln'],
  [/SPARK/g, 'LN'],
];

export function neutralName(name: string): string {
  return NEUTRAL_NAMES.reduce((out, [brand, neutral]) => out.replace(brand, neutral), name);
}

/** `/customers/{customerId}/x` -> `/customers/{}/x`: operations are matched whatever their parameters are called. */
export function normalisedPath(path: string): string {
  return neutralName(path.replace(/\{[^}]*\}/g, '{}').replace(/:[A-Za-z0-9_]+/g, '{}'));
}

export function operationKey(method: string, path: string): string {
  return `${method.toUpperCase()} ${normalisedPath(path)}`;
}

function resolve(document: Schema, value: unknown): Schema | undefined {
  let current = value;
  for (let hops = 0; hops < 20 && isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) return undefined;
    current = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (isObject(node) ? node[part] : undefined), document);
  }
  return isObject(current) ? current : undefined;
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(schema: Schema, document: Schema): string {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) {
    const types = (schema.type as unknown[]).filter((t) => t !== 'null');
    return types.length === 1 ? String(types[0]) : 'mixed';
  }
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  const variants = [...asList(schema.allOf), ...asList(schema.oneOf), ...asList(schema.anyOf)]
    .map((v) => resolve(document, v))
    .filter(isObject)
    .map((v) => typeOf(v, document))
    .filter((t) => t !== 'unknown');
  const distinct = [...new Set(variants)];
  if (distinct.length === 1) return distinct[0];
  return distinct.length === 0 ? 'unknown' : 'mixed';
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function record(out: Map<string, string>, path: string, type: string): void {
  const known = out.get(path);
  out.set(path, known === undefined || known === type || type === 'unknown' ? (known ?? type) : known === 'unknown' ? type : 'mixed');
}

function walk(document: Schema, value: unknown, prefix: string, out: Map<string, string>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  const schema = resolve(document, value);
  if (!schema) return;
  for (const variant of [...asList(schema.allOf), ...asList(schema.oneOf), ...asList(schema.anyOf)]) walk(document, variant, prefix, out, depth + 1);
  if (isObject(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      const resolved = resolve(document, child);
      // A read-only property is never sent.
      if (resolved?.readOnly === true) continue;
      const path = prefix ? `${prefix}.${neutralName(name)}` : neutralName(name);
      record(out, path, resolved ? typeOf(resolved, document) : 'unknown');
      walk(document, child, path, out, depth + 1);
    }
  }
  if (schema.items !== undefined && prefix) walk(document, schema.items, `${prefix}[]`, out, depth + 1);
}

/** Every operation of one version of the document, by `METHOD /normalised/path`. */
export function requestFields(openApi: object): Map<string, OperationFields> {
  const document = openApi as Schema;
  const operations = new Map<string, OperationFields>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    const shared = asList(item.parameters);
    for (const method of METHODS) {
      const operation = resolve(document, item[method]);
      if (!operation) continue;
      const query = new Set<string>();
      for (const parameter of [...shared, ...asList(operation.parameters)]) {
        const resolved = resolve(document, parameter);
        if (resolved?.in === 'query' && typeof resolved.name === 'string') query.add(neutralName(resolved.name));
      }
      const body = new Map<string, string>();
      const content = resolve(document, operation.requestBody)?.content;
      const json = isObject(content) ? Object.entries(content).find(([type]) => /json/i.test(type))?.[1] : undefined;
      if (isObject(json)) walk(document, json.schema, '', body, 0);
      operations.set(operationKey(method, path), { body, query });
    }
  }
  return operations;
}

/** The operations whose success reply (2xx, JSON) has a `warnings` property: where ignored fields are listed. */
export function operationsWithReplyWarnings(openApi: object): Set<string> {
  const document = openApi as Schema;
  const out = new Set<string>();
  const hasWarnings = (value: unknown, depth: number): boolean => {
    const schema = resolve(document, value);
    if (!schema || depth > MAX_DEPTH) return false;
    if (isObject(schema.properties) && 'warnings' in schema.properties) return true;
    return [...asList(schema.allOf), ...asList(schema.oneOf), ...asList(schema.anyOf)].some((variant) => hasWarnings(variant, depth + 1));
  };
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = resolve(document, item[method]);
      const responses = isObject(operation?.responses) ? operation.responses : {};
      const success = Object.entries(responses).filter(([status]) => /^2/.test(status));
      const replies = success.map(([, response]) => resolve(document, response)?.content).filter(isObject);
      if (replies.some((content) => Object.entries(content).some(([type, media]) => /json/i.test(type) && isObject(media) && hasWarnings(media.schema, 0)))) {
        out.add(operationKey(method, path));
      }
    }
  }
  return out;
}
