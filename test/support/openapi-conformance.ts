import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Docs that cannot drift: every response an end-to-end spec receives from a running stack is
 * checked against the OpenAPI document that same stack serves (`/openapi.json`). The status must
 * be one the operation documents, and the body must match that status's schema (types, enums,
 * required properties). A mismatch throws from the `fetch` that received the response, so the
 * test that made the request fails, naming the operation, the status and the schema path.
 *
 * It is on for every stack `startTestStack` starts (embedded and distributed): `fetch` is wrapped
 * once per jest worker and checks the responses of every registered API base URL; other URLs
 * pass through untouched.
 */

type JsonObject = Record<string, unknown>;

interface OpenApiDocument {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, unknown> };
}

interface OperationObject {
  operationId?: string;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
}

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal segments first: `/customers/external-accounts` wins over `/customers/{customerId}`. */
  params: number;
  operations: Record<string, OperationObject>;
}

const DOCUMENT_ID = 'served-openapi.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * OpenAPI 3.0 schema dialect → JSON Schema that ajv reads (nullable, boolean exclusive bounds,
 * local refs). With `discriminators`, a oneOf's discriminator is kept (its property name only), so
 * ajv checks the one branch the tag names and says precisely what is wrong with it.
 */
function toJsonSchema(node: unknown, discriminators = false): unknown {
  if (Array.isArray(node)) return node.map((item) => toJsonSchema(item, discriminators));
  if (typeof node !== 'object' || node === null) return node;
  const source = node as JsonObject;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out.$ref = `${DOCUMENT_ID}${value}`;
    else if (key === 'discriminator' && discriminators && Array.isArray(source.oneOf)) out.discriminator = { propertyName: (value as { propertyName: string }).propertyName };
    else if (key === 'example' || key === 'examples' || key === 'discriminator' || key === 'xml' || key === 'externalDocs') continue;
    else out[key] = toJsonSchema(value, discriminators);
  }
  if (out.exclusiveMinimum === true) {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.exclusiveMaximum === true) {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    } else return { anyOf: [out, { type: 'null' }] };
  } else delete out.nullable;
  return out;
}

function routeOf(template: string): Pick<Route, 'pattern' | 'params'> {
  let params = 0;
  const source = template
    .split('/')
    .map((segment) => {
      if (/^\{[^}]+\}$/.test(segment)) {
        params += 1;
        return '[^/]+';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`), params };
}

function describeError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(body)' : error.instancePath;
  const params = error.params as { allowedValues?: unknown; passingSchemas?: unknown };
  const extra =
    error.keyword === 'enum'
      ? ` ${JSON.stringify(params.allowedValues)}`
      : error.keyword === 'oneOf' && params.passingSchemas != null
        ? ` (branches matched: ${JSON.stringify(params.passingSchemas)})`
        : '';
  const value = error.keyword === 'required' || error.data === undefined ? '' : `, got ${JSON.stringify(error.data)?.slice(0, 80)}`;
  return `${where} ${error.message ?? error.keyword}${extra}${value} (schema path ${error.schemaPath})`;
}

/** The served document of one stack, compiled on demand per (operation, status). */
export class ResponseConformance {
  private readonly ajv: Ajv;
  /** The same document with its oneOf discriminators, for schemas ajv can check by tag. */
  private readonly ajvByTag: Ajv;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction | null>();

  constructor(
    document: OpenApiDocument,
    /** The API's base path on the server (`/2025-10-13`), stripped before routes are matched. */
    private readonly basePath: string,
  ) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, verbose: true });
    this.ajvByTag = new Ajv({ strict: false, allErrors: true, validateFormats: true, discriminator: true, verbose: true });
    for (const [ajv, discriminators] of [
      [this.ajv, false],
      [this.ajvByTag, true],
    ] as const) {
      addFormats(ajv);
      for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password', 'decimal']) ajv.addFormat(format, true);
      ajv.addSchema(toJsonSchema({ components: document.components ?? {} }, discriminators) as JsonObject, DOCUMENT_ID);
    }
    this.routes = Object.entries(document.paths)
      .map(([template, item]) => ({ template, ...routeOf(template), operations: item }))
      .sort((a, b) => a.params - b.params || b.template.length - a.template.length);
  }

  /** Fetches `/openapi.json` from the stack's root URL. */
  static async load(rootUrl: string, basePath: string, fetcher: typeof fetch): Promise<ResponseConformance> {
    const response = await fetcher(`${rootUrl}/openapi.json`);
    if (!response.ok) throw new Error(`OpenAPI conformance: GET ${rootUrl}/openapi.json answered ${response.status}`);
    return new ResponseConformance((await response.json()) as OpenApiDocument, basePath);
  }

  /** Undefined when the response is what the document says; otherwise what differs. */
  check(method: string, pathWithQuery: string, status: number, contentType: string | null, text: string): string | undefined {
    const path = pathWithQuery.split('?')[0];
    const relative = path.startsWith(this.basePath) ? path.slice(this.basePath.length) || '/' : path;
    const lower = method.toLowerCase();
    if (!METHODS.includes(lower)) return undefined;
    const route = this.routes.find((candidate) => candidate.pattern.test(relative) && candidate.operations[lower]);
    if (!route) {
      // No such operation: the gateway's 404/405 for unknown routes is not any operation's answer.
      if (status === 404 || status === 405) return undefined;
      return `${method.toUpperCase()} ${relative} answered ${status}, but the served OpenAPI document has no such operation`;
    }
    const operation = route.operations[lower];
    const name = `${method.toUpperCase()} ${route.template}`;
    const responses = operation.responses ?? {};
    const documented = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (!documented) {
      return `${name} answered ${status}, which the served OpenAPI document does not list for it (documented: ${Object.keys(responses).join(', ')})`;
    }
    const media = documented.content?.['application/json'];
    if (!media?.schema) {
      if (text.trim() === '' || !documented.content) return text.trim() === '' ? undefined : `${name} answered ${status} with a body, but the document describes none`;
      return undefined; // Documented with another media type (files, CSV): not JSON to check.
    }
    if (!contentType?.includes('json')) return `${name} answered ${status} with content-type ${contentType ?? '(none)'}, but the document describes JSON`;
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      return `${name} answered ${status} with a body that is not JSON`;
    }
    const validate = this.validator(name, String(status), media.schema);
    if (!validate || validate(body)) return undefined;
    // A oneOf/anyOf that failed says most (which branches matched); its branches' own errors follow.
    const composite = (error: ErrorObject) => (error.keyword === 'oneOf' || error.keyword === 'anyOf' ? 0 : 1);
    const errors = [...(validate.errors ?? [])]
      .sort((a, b) => composite(a) - composite(b))
      .slice(0, 8)
      .map(describeError);
    return `${name} answered ${status} with a body that does not match the served OpenAPI document:\n  ${errors.join('\n  ')}`;
  }

  private validator(name: string, status: string, schema: unknown): ValidateFunction | null {
    const key = `${name} ${status}`;
    if (!this.compiled.has(key)) {
      let validate: ValidateFunction;
      try {
        validate = this.ajvByTag.compile(toJsonSchema(schema, true) as JsonObject);
      } catch {
        // A discriminator ajv cannot follow (its tag not a const or enum of every branch): plain oneOf.
        validate = this.ajv.compile(toJsonSchema(schema) as JsonObject);
      }
      this.compiled.set(key, validate);
    }
    return this.compiled.get(key) ?? null;
  }
}

/** Thrown from `fetch` when a response differs from the document; fails the test that made the request. */
export class OpenApiConformanceError extends Error {
  override name = 'OpenApiConformanceError';
}

const registered = new Map<string, ResponseConformance>();
let originalFetch: typeof fetch | undefined;

function conformanceFor(url: string): [string, ResponseConformance] | undefined {
  for (const [prefix, conformance] of registered) if (url.startsWith(prefix)) return [prefix, conformance];
  return undefined;
}

/**
 * The check for a response that did not come through `fetch` (a browser's, say): undefined when it
 * matches the served document or is not from a registered stack, otherwise what differs.
 */
export function conformanceFailure(url: string, method: string, status: number, contentType: string | null, text: string): string | undefined {
  const match = conformanceFor(url);
  if (!match) return undefined;
  const parsed = new URL(url);
  return match[1].check(method, parsed.pathname + parsed.search, status, contentType, text);
}

function installFetch(): typeof fetch {
  if (originalFetch) return originalFetch;
  const original = globalThis.fetch;
  originalFetch = original;
  const checked: typeof fetch = async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!conformanceFor(url)) return response;
    const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
    const failure = conformanceFailure(url, method, response.status, response.headers.get('content-type'), await response.clone().text());
    if (failure) throw new OpenApiConformanceError(failure);
    return response;
  };
  globalThis.fetch = checked;
  return original;
}

/**
 * Checks every response from `rootUrl` + `basePath` against the document that server serves,
 * until the returned function is called (when the stack stops).
 */
export async function checkResponsesAgainstServedDocument(rootUrl: string, basePath: string): Promise<() => void> {
  const fetcher = installFetch();
  const conformance = await ResponseConformance.load(rootUrl, basePath, fetcher);
  const prefix = `${rootUrl}${basePath}`;
  registered.set(prefix, conformance);
  return () => {
    registered.delete(prefix);
  };
}
