import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { API_VERSION } from '@paykit/contracts';

/** One answer of the Paykit API: its status and parsed body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface ApiCall {
  method: string;
  /** Under `{base_url}`, e.g. `/quotes/Quote:.../execute`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * How the MCP tools reach the API as one platform (its BasicAuth credentials): over HTTP for
 * `npm run mcp`, in process for the gateway's own MCP route. Every call goes through the whole
 * gateway (authentication, validation, sandbox faults, the request log) like any client's.
 */
export interface PaykitApi {
  call(call: ApiCall): Promise<ApiAnswer>;
  /** The served OpenAPI document (`/openapi.json`). */
  document(): Promise<OpenApiDocument>;
}

export interface OpenApiDocument {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], OpenApiOperation>>>;
  components?: { schemas?: Record<string, unknown> };
}

interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { description?: string }>;
}

/** One operation of the document, named as the API document names it: `METHOD /path/{template}`. */
export interface CatalogOperation {
  name: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  tags: string[];
  operation: OpenApiOperation;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const SEARCH_LIMIT = 10;
/** How deep `describe_operation` expands `$ref`s of a body schema (deeper ones stay references). */
const SCHEMA_DEPTH = 4;

export function catalogOf(document: OpenApiDocument): CatalogOperation[] {
  const operations: CatalogOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operations.push({
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        summary: operation.summary ?? '',
        description: operation.description ?? '',
        tags: operation.tags ?? [],
        operation,
      });
    }
  }
  return operations;
}

/**
 * The operations that best match a free-text query: each word of the query found in the path
 * counts most, then in the summary and tags, then in the description. Ties keep document order.
 */
export function searchCatalog(catalog: CatalogOperation[], query: string, limit = SEARCH_LIMIT): CatalogOperation[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9_{}-]+/)
    .filter(Boolean);
  if (words.length === 0) return catalog.slice(0, limit);
  const scored = catalog.map((operation, index) => {
    const path = operation.name.toLowerCase();
    const summary = `${operation.summary} ${operation.tags.join(' ')}`.toLowerCase();
    const description = operation.description.toLowerCase();
    const score = words.reduce((total, word) => total + (path.includes(word) ? 3 : 0) + (summary.includes(word) ? 2 : 0) + (description.includes(word) ? 1 : 0), 0);
    return { operation, index, score };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.operation);
}

/** The concrete path of `template` with `params` filled in (each value escaped); the names it lacks, if any. */
export function fillPath(template: string, params: Record<string, string>): { path: string; missing: string[] } {
  const missing: string[] = [];
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) {
      missing.push(name);
      return `{${name}}`;
    }
    return encodeURIComponent(value);
  });
  return { path, missing };
}

/** A schema with its `$ref`s expanded up to SCHEMA_DEPTH, for a reader that has no document at hand. */
function expand(document: OpenApiDocument, schema: unknown, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((item) => expand(document, item, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() ?? ref;
    const target = document.components?.schemas?.[name];
    return depth >= SCHEMA_DEPTH || !target ? { $ref: ref } : expand(document, target, depth + 1);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, expand(document, value, depth)]));
}

function text(value: unknown, isError = false): ToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }], ...(isError ? { isError: true } : {}) };
}

/** An API answer as a tool result: an error status is a tool error, with the error envelope to read. */
function answered(answer: ApiAnswer): ToolResult {
  return text(answer, answer.status >= 400);
}

/** What a tool answers. */
interface ToolResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

interface ToolConfig<S extends z.ZodRawShape> {
  title: string;
  description: string;
  inputSchema: S;
  annotations?: { readOnlyHint?: boolean };
}

/**
 * Registers a tool through a plain signature: the SDK's own generic inference over zod shapes
 * costs the type checker minutes on this repository; the SDK still validates every call's
 * arguments against `inputSchema` before the handler runs.
 */
function registerTool<S extends z.ZodRawShape>(server: McpServer, name: string, config: ToolConfig<S>, handler: (args: z.infer<z.ZodObject<S>>) => Promise<ToolResult>): void {
  const register = server.registerTool.bind(server) as unknown as (name: string, config: unknown, handler: (args: unknown) => Promise<ToolResult>) => void;
  register(name, config, (args) => handler(args as z.infer<z.ZodObject<S>>));
}

const pathParams = z.record(z.string()).optional().describe('Values of the path template, e.g. {"quoteId": "Quote:..."}');

/**
 * The Paykit MCP server: what an AI coding tool needs to drive a sandbox platform. `search` and
 * `describe_operation` read the served API document; `execute` calls any operation as the
 * platform; `run_simulator`, `advance_clock` and `list_webhook_deliveries` are the sandbox's own
 * tools by name. One server per session: it keeps nothing but the document it read.
 */
export function createPaykitMcpServer(api: PaykitApi): McpServer {
  const server = new McpServer({ name: 'paykit', version: API_VERSION }, { instructions: INSTRUCTIONS });
  let document: Promise<{ document: OpenApiDocument; catalog: CatalogOperation[] }> | undefined;
  const loaded = () => {
    document ??= api.document().then((read) => ({ document: read, catalog: catalogOf(read) }));
    // A failed read is not kept: the next tool call reads again.
    document.catch(() => (document = undefined));
    return document;
  };
  const find = async (name: string) => (await loaded()).catalog.find((operation) => operation.name === name.trim().replace(/\s+/, ' '));

  async function execute(
    name: string,
    params: Record<string, string> = {},
    query?: Record<string, string | number | boolean>,
    body?: unknown,
    idempotencyKey?: string,
  ): Promise<ToolResult> {
    const operation = await find(name);
    if (!operation) return text(`Unknown operation "${name}": name one as \`search\` lists them, e.g. "POST /quotes".`, true);
    const { path, missing } = fillPath(operation.path, params);
    if (missing.length > 0) return text(`Missing path parameters for ${operation.name}: ${missing.join(', ')}`, true);
    const answer = await api.call({
      method: operation.method,
      path,
      query: query ? Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])) : undefined,
      body,
      headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined,
    });
    return answered(answer);
  }

  registerTool(
    server,
    'search',
    {
      title: 'Search the API',
      description:
        'Finds the operations of the Paykit API (the served OpenAPI document) that match a query, e.g. "create quote", "fund internal account", "card authorization". ' +
        'Answers each as `METHOD /path/{template}` with its summary: pass that name to `describe_operation` or `execute`.',
      inputSchema: { query: z.string().max(200).describe('Words to look for in paths, summaries, tags and descriptions'), limit: z.number().int().min(1).max(50).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => {
      const found = searchCatalog((await loaded()).catalog, query, limit);
      return text(found.map((operation) => ({ operation: operation.name, summary: operation.summary, tags: operation.tags })));
    },
  );

  registerTool(
    server,
    'describe_operation',
    {
      title: 'Describe an operation',
      description: 'The documentation of one operation: description, path and query parameters, request body schema (references expanded) and responses.',
      inputSchema: { operation: z.string().describe('As `search` names it, e.g. "POST /quotes"') },
      annotations: { readOnlyHint: true },
    },
    async ({ operation: name }) => {
      const operation = await find(name);
      if (!operation) return text(`Unknown operation "${name}"`, true);
      const { document: read } = await loaded();
      const { parameters, requestBody, responses, description, summary } = operation.operation;
      return text({
        operation: operation.name,
        summary,
        description,
        parameters: (parameters ?? []).map((parameter) => ({ ...parameter, schema: expand(read, parameter.schema) })),
        requestBody: requestBody?.content?.['application/json']?.schema ? expand(read, requestBody.content['application/json'].schema) : undefined,
        responses: Object.fromEntries(Object.entries(responses ?? {}).map(([status, response]) => [status, response.description ?? ''])),
      });
    },
  );

  registerTool(
    server,
    'execute',
    {
      title: 'Call an operation',
      description:
        "Calls one operation of the API as the platform (its sandbox token) and answers the HTTP status and JSON body. An error status is a tool error carrying the API's error envelope.",
      inputSchema: {
        operation: z.string().describe('As `search` names it, e.g. "POST /quotes/{quoteId}/execute"'),
        pathParams,
        query: z
          .record(z.union([z.string(), z.number(), z.boolean()]))
          .optional()
          .describe('Query parameters'),
        body: z.unknown().optional().describe('The JSON body, for operations that take one'),
        idempotencyKey: z.string().max(255).optional().describe('Sent as the Idempotency-Key header'),
      },
    },
    async ({ operation, pathParams: params, query, body, idempotencyKey }) => execute(operation, params, query, body, idempotencyKey),
  );

  registerTool(
    server,
    'run_simulator',
    {
      title: 'Run a sandbox simulator',
      description:
        'Runs one of the sandbox simulators (the POST /sandbox/* operations: fund an internal account, simulate card authorizations, clearings and returns, ' +
        'incoming UMA payments, real-time quote funding...). `search` with "sandbox" lists them.',
      inputSchema: {
        simulator: z.string().describe('The simulator operation, e.g. "POST /sandbox/internal-accounts/{accountId}/fund"'),
        pathParams,
        body: z.unknown().optional().describe('The JSON body'),
      },
    },
    async ({ simulator, pathParams: params, body }) => {
      if (!/^POST \/sandbox\//.test(simulator.trim())) return text('A simulator is a POST /sandbox/* operation: `search` with "sandbox" lists them.', true);
      return execute(simulator, params, undefined, body ?? {});
    },
  );

  registerTool(
    server,
    'advance_clock',
    {
      title: "Advance the platform's sandbox clock",
      description:
        "Moves the platform's sandbox time forward: every delayed sandbox outcome due by then (payouts settling, card activations, webhook retries) has started when this answers.",
      inputSchema: { seconds: z.number().int().min(1).max(31_536_000).describe('How far, in seconds') },
    },
    async ({ seconds }) => answered(await api.call({ method: 'POST', path: '/sandbox/clock/advance', body: { seconds } })),
  );

  registerTool(
    server,
    'list_webhook_deliveries',
    {
      title: 'List webhook deliveries',
      description: 'The webhooks the platform was sent, newest first, with their status and last attempt; filter by event type, status or resource id.',
      inputSchema: {
        type: z.string().optional().describe('An event type such as OUTGOING_PAYMENT.COMPLETED'),
        status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED', 'SKIPPED']).optional(),
        resourceId: z.string().optional(),
        limit: z.number().int().min(1).max(100).optional(),
      },
      annotations: { readOnlyHint: true },
    },
    async (filter) => {
      const query = Object.fromEntries(Object.entries(filter).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));
      return answered(await api.call({ method: 'GET', path: '/webhooks/deliveries', query }));
    },
  );

  return server;
}

const INSTRUCTIONS =
  'Paykit is a self-hosted payments API with a deterministic sandbox. These tools act as one sandbox platform. ' +
  'Find operations with `search`, read one with `describe_operation`, call it with `execute`. Amounts are integers in the smallest unit of the currency. ' +
  'Sandbox outcomes that take time happen when you `advance_clock`; `run_simulator` funds accounts and simulates card and incoming payments; ' +
  '`list_webhook_deliveries` shows what the platform was told.';

/**
 * The tools act for sandbox platforms only: a production token (or a production deployment)
 * is refused before any tool is offered. The sandbox clock answers only sandbox tokens.
 */
export async function assertSandboxPlatform(api: PaykitApi): Promise<void> {
  const answer = await api.call({ method: 'GET', path: '/sandbox/clock' });
  if (answer.status === 200) return;
  const reason =
    answer.status === 401
      ? 'the credentials are not valid'
      : answer.status === 403
        ? 'this is a production token: the MCP tools take sandbox tokens only'
        : answer.status === 404
          ? 'this is a production deployment: it has no sandbox'
          : `GET /sandbox/clock answered ${answer.status}`;
  throw new Error(`Paykit MCP: ${reason}`);
}

/** The API over HTTP with a platform's BasicAuth credentials (`npm run mcp`). */
export function httpPaykitApi(baseUrl: string, credentials: { tokenId: string; secret: string }): PaykitApi {
  const authorization = `Basic ${Buffer.from(`${credentials.tokenId}:${credentials.secret}`).toString('base64')}`;
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async call({ method, path, query, body, headers }) {
      const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
      const response = await fetch(`${base}${path}${search}`, {
        method,
        headers: { authorization, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const raw = await response.text();
      return { status: response.status, body: parseJson(raw) };
    },
    async document() {
      const response = await fetch(new URL('/openapi.json', base));
      if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    },
  };
}

function parseJson(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** `{base_url}` of a gateway at `origin` (the API version path). */
export function baseUrlOf(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/${API_VERSION}`;
}
