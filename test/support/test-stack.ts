import { API_VERSION } from '@paykit/contracts';
import { RunMode } from '@paykit/runtime';
import { CredentialsService } from '../../apps/gateway/src/auth/credentials.service';
import { RunningStack, startStack } from '../../apps/embedded/src/stack';
import { ApiClient, Credentials } from './api-client';
import { checkResponsesAgainstServedDocument } from './openapi-conformance';
import { createDistributedResources, DistributedResources, freshMigratedPgliteDataDir, removeDataDir } from '@paykit/testing';

/**
 * Every spec of a stack runs with one token from one address: the limits are on (the limiter runs
 * on every request) but out of reach, except where a spec sets its own (rate-limits.e2e-spec.ts).
 */
export const UNREACHED_RATE_LIMITS = {
  RATE_LIMIT_REQUESTS: '1000000000',
  AUTH_FAILURE_LIMIT_PER_TOKEN: '1000000000',
  AUTH_FAILURE_LIMIT_PER_ADDRESS: '1000000000',
};

declare const STACK_MODE: RunMode | undefined;

/** The mode the current jest project runs the end-to-end suite in. */
export function stackMode(): RunMode {
  return typeof STACK_MODE !== 'undefined' ? STACK_MODE : 'embedded';
}

export interface TestStack {
  mode: RunMode;
  stack: RunningStack;
  /** Client for the sandbox platform created at start. */
  api: ApiClient;
  credentials: Credentials;
  /** Creates another platform with its own token (tenancy tests). */
  newPlatform(environment?: 'sandbox' | 'production'): Promise<{ api: ApiClient; platformId: string; credentials: Credentials }>;
  /** Stops the stack; `keepData` leaves the database for a restart test. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Removes the stack's databases (after a `keepData` stop). */
  dropData(): Promise<void>;
  env: Record<string, string>;
}

export interface TestStackOptions {
  mode?: RunMode;
  env?: Record<string, string>;
  /** Reuse the databases of an earlier, stopped stack (restart tests); they are dropped with this one. */
  reuse?: Pick<TestStack, 'env' | 'dropData'>;
}

/** What every test stack runs with: quiet logs, sandbox delays shrunk, an ephemeral port. */
const STACK_ENV = { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', SANDBOX_TIME_SCALE: '0.001', PORT: '0', HOST: '127.0.0.1', ...UNREACHED_RATE_LIMITS };

/** Starts and stops a stack on `env`: its start migrates every service's database (and seeds the sandbox platform). */
async function migrateStack(mode: RunMode, env: Record<string, string>): Promise<void> {
  const stack = await startStack(mode, { ...STACK_ENV, ...env });
  await stack.close();
}

/** An embedded data directory copied from a migrated template (see freshMigratedPgliteDataDir). */
export function migratedPgliteDataDir(): Promise<string> {
  return freshMigratedPgliteDataDir((dataDir) => migrateStack('embedded', { DATA_DIR: dataDir }));
}

/** Databases per service copied from migrated templates, and a NATS namespace of their own. */
export function migratedDistributedResources(): Promise<DistributedResources> {
  return createDistributedResources({ migrate: (env) => migrateStack('distributed', env) });
}

/**
 * Starts the whole product for a test: embedded (in-process transport, a fresh PGlite copy)
 * or distributed (NATS with a namespace of its own, a fresh PostgreSQL database per service),
 * each copied from a migrated template.
 */
export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const mode = options.mode ?? stackMode();
  let resources: DistributedResources | undefined;
  let dataDir: string | undefined;
  let env: Record<string, string>;
  const dropData = async (): Promise<void> => {
    if (options.reuse) await options.reuse.dropData();
    if (dataDir) removeDataDir(dataDir);
    if (resources) await resources.drop();
  };
  if (options.reuse) {
    env = { ...options.reuse.env };
  } else if (mode === 'embedded') {
    dataDir = await migratedPgliteDataDir();
    env = { DATA_DIR: dataDir };
  } else {
    resources = await migratedDistributedResources();
    env = { ...resources.env };
  }
  env = { ...STACK_ENV, ...env, ...options.env };
  const stack = await startStack(mode, env);
  const http = stack.http;
  const credentials = http.get(CredentialsService);
  const first =
    stack.credentials ??
    (await (async () => {
      const platform = (await credentials.listPlatforms())[0];
      return { token: await credentials.issueToken(platform.id, 'sandbox', 'test'), generated: true };
    })());
  const main: Credentials = { tokenId: first.token.tokenId, secret: first.token.secret };
  const base = `${stack.url}/${API_VERSION}`;
  // Every response the specs receive from this stack is checked against the document it serves.
  const stopChecking = await checkResponsesAgainstServedDocument(stack.url, `/${API_VERSION}`);
  return {
    mode,
    stack,
    env,
    api: new ApiClient(base, main),
    credentials: main,
    async newPlatform(environment = 'sandbox') {
      const platform = await credentials.createPlatform(`test platform ${Date.now()}`);
      const token = await credentials.issueToken(platform.id, environment, 'test');
      const creds = { tokenId: token.tokenId, secret: token.secret };
      return { api: new ApiClient(base, creds), platformId: platform.id, credentials: creds };
    },
    async stop({ keepData = false } = {}) {
      stopChecking();
      await stack.close();
      if (!keepData) await dropData();
    },
    dropData,
  };
}

/** Polls until `check` returns a value (not undefined) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`Condition not met within ${timeoutMs} ms${lastError instanceof Error ? `: ${lastError.message}` : ''}`);
}

/**
 * Moves the platform's sandbox test clock forward (`POST /sandbox/clock/advance`): every delayed
 * sandbox outcome due by then has run when this returns, so a test waits on no real time for it.
 */
export async function advanceClock(api: ApiClient, seconds: number): Promise<void> {
  const response = await api.post('/sandbox/clock/advance', { seconds });
  if (response.status !== 200) throw new Error(`advancing the clock: ${response.status} ${JSON.stringify(response.body)}`);
}
