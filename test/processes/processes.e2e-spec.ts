import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DistributedResources } from '@paykit/testing';
import { ApiClient } from '../support/api-client';
import { checkResponsesAgainstServedDocument } from '../support/openapi-conformance';
import { UNREACHED_RATE_LIMITS, eventually, migratedDistributedResources } from '../support/test-stack';

const ROOT = join(__dirname, '..', '..');
const SERVICES = ['webhooks', 'customers', 'external-accounts', 'payments', 'wallet-auth', 'cards'];
const PORT = 18180 + Math.floor(Math.random() * 500);

/** The real deployment shape: every app its own process, from the compiled build. */
describe('Distributed deployment: one process per app', () => {
  let resources: DistributedResources;
  const processes = new Map<string, ChildProcess>();
  const credentials = { tokenId: 'tok_processes0001', secret: randomBytes(32).toString('base64url') };
  const api = new ApiClient(`http://127.0.0.1:${PORT}/2025-10-13`, credentials);
  let env: Record<string, string>;
  let stopChecking: (() => void) | undefined;

  function start(app: string, extra: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', app, 'src', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, ...env, ...extra },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    processes.set(app, child);
    return child;
  }

  async function stop(app: string): Promise<void> {
    const child = processes.get(app);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  beforeAll(async () => {
    resources = await migratedDistributedResources();
    env = { ...resources.env, LOG_LEVEL: 'warn', SANDBOX_TIME_SCALE: '0.001', ...UNREACHED_RATE_LIMITS };
    for (const service of SERVICES) start(service);
    start('gateway', { PORT: String(PORT), HOST: '127.0.0.1', SANDBOX_TOKEN_ID: credentials.tokenId, SANDBOX_TOKEN_SECRET: credentials.secret });
    await eventually(async () => ((await fetch(`http://127.0.0.1:${PORT}/ready`).catch(() => undefined))?.status === 200 ? true : undefined), 60_000, 200);
    // Every response is checked against the document the gateway serves (test/support/openapi-conformance.ts).
    stopChecking = await checkResponsesAgainstServedDocument(`http://127.0.0.1:${PORT}`, '/2025-10-13');
  }, 90_000);

  afterAll(async () => {
    stopChecking?.();
    for (const app of [...processes.keys()].reverse()) await stop(app);
    await resources?.drop();
  });

  it('serves customers, survives a customers process restart, and keeps the data', async () => {
    const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' });
    expect(created.status).toBe(201);

    await stop('customers');
    const down = await api.get(`/customers/${created.body.id}`);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The customers service is unavailable' });

    start('customers');
    const back = await eventually(
      async () => {
        const response = await api.get(`/customers/${created.body.id}`);
        return response.status === 200 ? response : undefined;
      },
      30_000,
      100,
    );
    expect(back.body).toEqual(created.body);
  }, 60_000);

  it('refuses to start with invalid configuration, naming every bad variable', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'apps', 'customers', 'src', 'main.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NATS_URL: 'http://not-nats', SANDBOX_TIME_SCALE: 'fast', CUSTOMERS_DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('NATS_URL must be a nats: URL');
    expect(result.stderr).toContain('SANDBOX_TIME_SCALE must be a number');
    expect(result.stderr).toContain('CUSTOMERS_DATABASE_URL is required');
  });
});
