import { readFileSync } from 'node:fs';
import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ApiClient } from '../support/api-client';
import type { components, paths } from './generated/reference-api';
import { REFERENCE_JSON } from './reference-types';

/**
 * A client written only from the reference document: request bodies, parameters and answers are
 * typed by the types openapi-typescript generates from it (so this file does not compile when a
 * body is not what the reference takes), and every answer is checked at run time against the
 * reference's schema for its status.
 */

export type Schemas = components['schemas'];
type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Operation<P extends keyof paths, M extends Method> = Exclude<paths[P][M], undefined>;
type Responses<O> = O extends { responses: infer R } ? R : never;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type RequestBody<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;
type PathParams<O> = O extends { parameters: { path: infer X } } ? X : never;
type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
/** The JSON body the reference documents for `status` of the operation (deferred, so it is computed per call). */
type Answer<P extends keyof paths, M extends Method, S> = Operation<P, M> extends infer O ? (S extends keyof Responses<O> ? JsonOf<Responses<O>[S]> : never) : never;

export interface CallInit<O> {
  path?: PathParams<O>;
  query?: QueryParams<O>;
  body?: RequestBody<O>;
  headers?: Record<string, string>;
}

type JsonSchema = Record<string, unknown>;

/** OAS 3.1 → what ajv checks: a discriminator picks its branch by the tag, a oneOf without one accepts any matching branch. */
function forValidation(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forValidation);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = `reference.json${value}`;
    else if (key !== 'discriminator' && key !== 'example' && key !== 'examples') out[key] = forValidation(value);
  }
  const discriminator = (node as { discriminator?: { propertyName: string; mapping?: Record<string, string> } }).discriminator;
  if (Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
    if (discriminator?.mapping) {
      out.allOf = [
        ...((out.allOf as unknown[]) ?? []),
        ...Object.entries(discriminator.mapping).map(([tag, ref]) => ({
          if: { properties: { [discriminator.propertyName]: { const: tag } }, required: [discriminator.propertyName] },
          then: { $ref: `reference.json${ref}` },
        })),
      ];
    }
  }
  return out;
}

export class ReferenceClient {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly document: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>> };
  private readonly validators = new Map<string, ValidateFunction>();
  /** What the checks found: every answer that did not match the reference, by step. */
  readonly mismatches: string[] = [];

  constructor(readonly api: ApiClient) {
    this.document = JSON.parse(readFileSync(REFERENCE_JSON, 'utf8'));
    addFormats(this.ajv);
    for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) this.ajv.addFormat(format, true);
    this.ajv.addSchema(forValidation({ components: (this.document as unknown as { components: unknown }).components }) as JsonSchema, 'reference.json');
  }

  /**
   * One operation of the reference: `status` is the answer expected (one the reference lists for
   * it); the body comes back typed as the reference's schema for that status.
   */
  async call<P extends keyof paths, M extends Method, S extends number>(method: M, path: P, status: S, init?: CallInit<Operation<P, M>>): Promise<Answer<P, M, S>> {
    const body = await this.send(method, String(path), status, init ?? {});
    const schema = this.document.paths[path as string]?.[method]?.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (schema) this.check(`${method.toUpperCase()} ${String(path)} ${status}`, schema, body);
    return body as Answer<P, M, S>;
  }

  /**
   * An operation where SPEC.md decides the answer (docs/reference-divergences.md): the request is
   * still typed by the reference; the answer is checked against the reference schema SPEC.md names.
   */
  async callDivergent<P extends keyof paths, M extends Method, N extends keyof Schemas>(
    method: M,
    path: P,
    status: number,
    answer: N,
    init?: CallInit<Operation<P, M>>,
    /** The SPEC.md values of the answer, in the reference's words (the listed divergence), before the check. */
    inReferenceTerms: (body: Schemas[N]) => unknown = (body) => body,
  ): Promise<Schemas[N]> {
    const body = await this.send(method, String(path), status, init ?? {});
    this.check(
      `${method.toUpperCase()} ${String(path)} ${status} (as ${String(answer)})`,
      { $ref: `#/components/schemas/${String(answer)}` },
      inReferenceTerms(body as Schemas[N]),
    );
    return body as Schemas[N];
  }

  private async send(method: Method, path: string, status: number, init: CallInit<unknown>): Promise<unknown> {
    const params = (init.path ?? {}) as unknown as Record<string, unknown>;
    let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
    const query = Object.entries((init.query ?? {}) as unknown as Record<string, unknown>).filter(([, value]) => value !== undefined);
    if (query.length > 0) url += `?${new URLSearchParams(query.map(([key, value]): [string, string] => [key, String(value)])).toString()}`;
    const response = await this.api.request<unknown>(method.toUpperCase(), url, init.body, { headers: init.headers });
    if (response.status !== status) {
      throw new Error(`${method.toUpperCase()} ${url} answered ${response.status}, expected ${status}: ${JSON.stringify(response.body)}`);
    }
    return response.body;
  }

  private check(name: string, schema: unknown, body: unknown): void {
    let validate = this.validators.get(name);
    if (!validate) {
      validate = this.ajv.compile(forValidation(schema) as JsonSchema);
      this.validators.set(name, validate);
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 6).map((error) => `${error.instancePath || '(body)'} ${error.message} (${error.schemaPath})`);
      this.mismatches.push(`${name}: ${errors.join('; ')}`);
    }
  }
}
