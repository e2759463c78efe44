import { API_VERSION } from '@paykit/contracts';
import { EnvReader, Env } from '@paykit/runtime';

export interface GatewayConfig {
  host: string;
  port: number;
  /** Optional path before the version segment: `{base_url}` = `/<prefix>/2025-10-13`. */
  apiPrefix: string;
  bodyLimitBytes: number;
  /** Fixed sandbox credentials (so scripts can rely on them); otherwise generated at first start. */
  sandboxTokenId?: string;
  sandboxTokenSecret?: string;
  /** The sandbox request log (`REQUEST_LOG=off` stops recording; the route still answers). */
  requestLog: { enabled: boolean; retentionRows: number; retentionDays: number };
  rateLimits: RateLimitConfig;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's `trustProxy`):
   * off, every hop (`true`), a hop count, or a list of addresses/CIDRs.
   */
  trustProxy: boolean | number | string[];
  /**
   * How long a replica may serve a verified agent access token from memory, in case it misses the
   * notification of a change to the agent (each change is notified to every replica as it commits). 0: never cached.
   */
  agentAuthCacheTtlSeconds: number;
}

/** Request rate per API token and failed authentications, counted across every gateway replica. */
export interface RateLimitConfig {
  /** Requests per API token per window; 0 turns the limit off. */
  requestsPerWindow: number;
  requestWindowSeconds: number;
  /** Failed authentications per presented token id, and per client address, per window; 0 turns each off. */
  authFailuresPerToken: number;
  authFailuresPerAddress: number;
  authFailureWindowSeconds: number;
  /** Past half a limit, each further failure is answered this much later per failure (up to 10 steps). */
  authFailureDelayMs: number;
}

function readTrustProxy(read: EnvReader): boolean | number | string[] {
  const raw = read.string('TRUST_PROXY', '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The gateway's own settings; the shared ones come from loadRuntimeConfig. */
export function loadGatewayConfig(env: Env): GatewayConfig {
  const read = new EnvReader(env);
  const prefix = read.string('API_PREFIX', '').replace(/^\/+|\/+$/g, '');
  if (prefix && !/^[A-Za-z0-9._~/-]+$/.test(prefix)) read.problems.push('API_PREFIX may hold only URL path characters');
  const config: GatewayConfig = {
    host: read.string('HOST', '0.0.0.0'),
    port: read.number('PORT', 8080, { min: 0, max: 65535, integer: true }),
    apiPrefix: prefix,
    bodyLimitBytes: read.number('BODY_LIMIT_BYTES', 1024 * 1024, { min: 1024, max: 200 * 1024 * 1024, integer: true }),
    sandboxTokenId: read.optional('SANDBOX_TOKEN_ID'),
    sandboxTokenSecret: read.optional('SANDBOX_TOKEN_SECRET'),
    requestLog: {
      enabled: read.oneOf('REQUEST_LOG', ['on', 'off'], 'on') === 'on',
      retentionRows: read.number('REQUEST_LOG_RETENTION_ROWS', 10_000, { min: 1, max: 1_000_000, integer: true }),
      retentionDays: read.number('REQUEST_LOG_RETENTION_DAYS', 7, { min: 1, max: 90, integer: true }),
    },
    // No published figures for the hosted sandbox: 100 requests/s per token on average (bursts
    // within a 10 s window), 10 wrong secrets per token id and 50 failures per address in 5 minutes.
    rateLimits: {
      requestsPerWindow: read.number('RATE_LIMIT_REQUESTS', 1000, { min: 0, max: 1_000_000_000, integer: true }),
      requestWindowSeconds: read.number('RATE_LIMIT_WINDOW_SECONDS', 10, { min: 1, max: 86400, integer: true }),
      authFailuresPerToken: read.number('AUTH_FAILURE_LIMIT_PER_TOKEN', 10, { min: 0, max: 1_000_000_000, integer: true }),
      authFailuresPerAddress: read.number('AUTH_FAILURE_LIMIT_PER_ADDRESS', 50, { min: 0, max: 1_000_000_000, integer: true }),
      authFailureWindowSeconds: read.number('AUTH_FAILURE_WINDOW_SECONDS', 300, { min: 1, max: 86400, integer: true }),
      authFailureDelayMs: read.number('AUTH_FAILURE_DELAY_MS', 250, { min: 0, max: 10000, integer: true }),
    },
    trustProxy: readTrustProxy(read),
    agentAuthCacheTtlSeconds: read.number('AGENT_AUTH_CACHE_TTL_SECONDS', 5, { min: 0, max: 300 }),
  };
  if (Boolean(config.sandboxTokenId) !== Boolean(config.sandboxTokenSecret)) {
    read.problems.push('SANDBOX_TOKEN_ID and SANDBOX_TOKEN_SECRET must be set together');
  }
  if (config.sandboxTokenId && !/^[A-Za-z0-9_-]{8,64}$/.test(config.sandboxTokenId)) {
    read.problems.push('SANDBOX_TOKEN_ID must be 8-64 characters of A-Z, a-z, 0-9, _ or - (no colon: it is the Basic auth user name)');
  }
  if (config.sandboxTokenSecret && config.sandboxTokenSecret.length < 32) {
    read.problems.push('SANDBOX_TOKEN_SECRET must be at least 32 characters');
  }
  read.done();
  return config;
}

/** `/2025-10-13` or `/<prefix>/2025-10-13`. */
export function basePath(config: GatewayConfig): string {
  return config.apiPrefix ? `/${config.apiPrefix}/${API_VERSION}` : `/${API_VERSION}`;
}
