import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { CallerContext, Hold, PAYMENTS_SUBJECTS } from '@paykit/contracts';
import { createServiceRuntime, databaseUrlVariable, loadRuntimeConfig, ServiceRuntime } from '@paykit/runtime';
import { BenchContext, BenchFigure } from './bench-types';

/**
 * Ledger throughput in distributed mode: hold-and-capture pairs per second through the
 * payments service's message handlers (NATS request/reply, as cards use them), on 1,000
 * accounts and on one hot account; each figure printed next to a plain single-row UPDATE
 * on the same PostgreSQL database, same concurrency, measured in the same run.
 *
 * It needs the distributed stack's environment (NATS_URL, NATS_NAMESPACE, PAYMENTS_DATABASE_URL):
 * `ctx.env` when the harness passes it, else this process's environment.
 */
const DEFAULT_ACCOUNTS = 1_000;
const SETUP_CONCURRENCY = 25;
/** In-flight pairs at any time (the service's pool holds 20 connections). */
const WORKERS = 64;
const AMOUNT = 100;
const FUNDING = 1_000_000_000;

export async function runLedgerBench(ctx: BenchContext): Promise<BenchFigure[]> {
  const env = { ...process.env, ...ctx.env };
  const databaseUrl = env[databaseUrlVariable('payments')];
  if (!databaseUrl) throw new Error(`ledger bench needs ${databaseUrlVariable('payments')} (and NATS_NAMESPACE) of the distributed stack`);
  const seconds = Number(env.BENCH_SECONDS ?? 10);
  // Fewer accounts only for quick local sanity runs; the figures are for 1,000.
  const ACCOUNTS = Number(env.LEDGER_BENCH_ACCOUNTS ?? DEFAULT_ACCOUNTS);
  const http = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${ctx.baseUrl}${path}`, {
      method,
      headers: { authorization: ctx.authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  // 1,000 customers, each with a funded USD holding account.
  const accountOf = async (index: number): Promise<string> => {
    const customer = await http<{ id: string }>('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: `Ledger Bench ${index}` });
    const accountId = await poll(async () => {
      const listed = await http<{ data: Array<{ id: string }> }>(
        'GET',
        `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=USD&type=INTERNAL_FIAT`,
      );
      return listed.data[0]?.id;
    });
    await http('POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount: FUNDING });
    return accountId;
  };
  const accounts: string[] = [];
  for (let start = 0; start < ACCOUNTS; start += SETUP_CONCURRENCY) {
    accounts.push(...(await Promise.all(Array.from({ length: Math.min(SETUP_CONCURRENCY, ACCOUNTS - start) }, (_, i) => accountOf(start + i)))));
  }

  const pool = new Pool({ connectionString: databaseUrl, max: 20 });
  const runtime: ServiceRuntime = createServiceRuntime(loadRuntimeConfig(env, 'distributed', []), 'ledger-bench');
  try {
    const platform = await pool.query<{ platform_id: string }>('SELECT platform_id FROM internal_account WHERE id = $1', [accounts[0]]);
    const caller: CallerContext = { platformId: platform.rows[0].platform_id, environment: 'sandbox', requestId: 'ledger-bench' };
    let sequence = 0;
    const pair = async (accountId: string): Promise<void> => {
      const key = `bench-${process.pid}-${(sequence += 1)}`;
      const hold: Hold = await runtime.client.request(PAYMENTS_SUBJECTS.createHold, { callerKey: key, accountId, amount: AMOUNT, currency: 'USD' }, caller);
      await runtime.client.request(PAYMENTS_SUBJECTS.captureHold, { callerKey: `${key}-capture`, holdId: hold.id, amount: AMOUNT }, caller);
    };
    const random = () => accounts[Math.floor(Math.random() * accounts.length)];

    // Reference rows: a plain single-row UPDATE, on as many rows as the scenario has accounts.
    await pool.query('CREATE TABLE IF NOT EXISTS bench_reference_row (id integer PRIMARY KEY, n bigint NOT NULL DEFAULT 0)');
    await pool.query('INSERT INTO bench_reference_row (id) SELECT g FROM generate_series(1, $1) g ON CONFLICT DO NOTHING', [ACCOUNTS]);
    const update = (id: number) => pool.query('UPDATE bench_reference_row SET n = n + 1 WHERE id = $1', [id]).then(() => undefined);

    await closedLoop(2, WORKERS, () => pair(random())); // warm-up: connections, plans, caches
    const spread = await closedLoop(seconds, WORKERS, () => pair(random()));
    const spreadReference = await closedLoop(seconds, WORKERS, () => update(1 + Math.floor(Math.random() * ACCOUNTS)));
    const hot = await closedLoop(seconds, WORKERS, () => pair(accounts[0]));
    const hotReference = await closedLoop(seconds, WORKERS, () => update(1));
    await pool.query('DROP TABLE IF EXISTS bench_reference_row');

    return [...figures('ledger: hold+capture, 1,000 accounts', spread, spreadReference, 1_500), ...figures('ledger: hold+capture, one hot account', hot, hotReference, 400)];
  } finally {
    await runtime.client.close();
    await runtime.eventBus.close();
    await pool.end();
  }
}

interface LoopResult {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** `workers` loops each running `work` back to back for `seconds`; latency of every call. */
async function closedLoop(seconds: number, workers: number, work: () => Promise<void>): Promise<LoopResult> {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        try {
          await work();
          latencies.push(performance.now() - begin);
        } catch {
          failures += 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length === 0 ? 0 : Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10);
  return { perSecond: Math.round(latencies.length / elapsed), p50Ms: at(0.5), p99Ms: at(0.99), failures };
}

function figures(scenario: string, pairs: LoopResult, reference: LoopResult, minimum: number): BenchFigure[] {
  const out: BenchFigure[] = [
    { scenario, metric: 'pairs/s', value: pairs.perSecond, unit: 'pairs/s', target: `>= ${minimum}`, met: pairs.perSecond >= minimum },
    { scenario, metric: 'p99 per pair', value: pairs.p99Ms, unit: `ms (p50 ${pairs.p50Ms} ms)`, target: '< 50', met: pairs.p99Ms < 50 },
    { scenario, metric: 'reference UPDATE/s', value: reference.perSecond, unit: `updates/s (p99 ${reference.p99Ms} ms, same PostgreSQL)` },
  ];
  if (pairs.failures > 0) out.push({ scenario, metric: 'failed pairs', value: pairs.failures, unit: 'pairs' });
  return out;
}

async function poll<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out waiting for provisioning');
}
