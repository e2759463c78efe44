/**
 * `npm run bench`: starts the product the way it is deployed (one process per app over NATS
 * and PostgreSQL; and embedded mode as one process), drives it with autocannon from separate
 * processes, and prints every figure next to its target and references measured in the same run.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { API_VERSION } from '@paykit/contracts';
import { createDistributedResources, freshPgliteDataDir } from '@paykit/testing';
import { BenchContext, BenchFigure, LoadOptions } from './bench-types';
import { residentMb, ROOT, runLoad, startProcess, stopAll, stopProcess, waitForHttp } from './processes';

const SERVICES = ['webhooks', 'customers', 'external-accounts', 'payments', 'wallet-auth', 'cards'];
const TOKEN_ID = 'tok_benchmark0001';
const TOKEN_SECRET = randomBytes(32).toString('base64url');
const AUTHORIZATION = `Basic ${Buffer.from(`${TOKEN_ID}:${TOKEN_SECRET}`).toString('base64')}`;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

const figures: BenchFigure[] = [];

function record(figure: BenchFigure): void {
  figures.push(figure);
  const target = figure.target ? `  (target ${figure.target}: ${figure.met ? 'met' : 'NOT met'})` : '';
  process.stdout.write(`  ${figure.scenario.padEnd(34)} ${figure.metric.padEnd(22)} ${String(figure.value).padStart(10)} ${figure.unit}${target}\n`);
}

function load(options: Omit<LoadOptions, 'connections' | 'durationSeconds'> & Partial<LoadOptions>) {
  return runLoad({ connections: CONNECTIONS, durationSeconds: DURATION, ...options });
}

function ctxFor(mode: BenchContext['mode'], baseUrl: string, env?: Record<string, string>): BenchContext {
  return { mode, baseUrl, env, authorization: AUTHORIZATION, load: (options) => runLoad({ connections: CONNECTIONS, durationSeconds: DURATION, ...options }) };
}

async function createCustomer(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/customers`, {
    method: 'POST',
    headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Bench Mark', email: 'bench@example.com' }),
  });
  if (response.status !== 201) throw new Error(`could not create a customer: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function customerLoads(label: string, baseUrl: string) {
  const id = await createCustomer(baseUrl);
  const get = await load({ title: `${label} GET`, url: `${baseUrl}/customers/${id}`, headers: { authorization: AUTHORIZATION } });
  const post = await load({
    title: `${label} POST`,
    url: `${baseUrl}/customers`,
    method: 'POST',
    headers: { authorization: AUTHORIZATION },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Load Test', email: 'load@example.com' }),
  });
  return { get, post };
}

async function startDistributed(port: number) {
  const resources = await createDistributedResources();
  const env = { ...resources.env, LOG_LEVEL: 'warn', SANDBOX_TIME_SCALE: '0.001' };
  const processes: ChildProcess[] = [];
  for (const service of SERVICES) processes.push(startProcess(`distributed-${service}`, `dist/apps/${service}/src/main.js`, env));
  processes.push(
    startProcess('distributed-gateway', 'dist/apps/gateway/src/main.js', { ...env, PORT: String(port), HOST: '127.0.0.1', SANDBOX_TOKEN_ID: TOKEN_ID, SANDBOX_TOKEN_SECRET: TOKEN_SECRET }),
  );
  await waitForHttp(`http://127.0.0.1:${port}/ready`, 60_000, 200);
  return {
    baseUrl: `http://127.0.0.1:${port}/${API_VERSION}`,
    env,
    async stop() {
      for (const child of processes.reverse()) await stopProcess(child);
      await resources.drop();
    },
  };
}

async function main(): Promise<void> {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  process.stdout.write(`Paykit benchmark: ${CONNECTIONS} connections, ${DURATION} s per run, on ${cpus().length} cores\n\n`);

  // References measured in the same run.
  const bare = startProcess('bare', 'dist/tools/bench/bare-server.js', { PORT: '18090' });
  await waitForHttp('http://127.0.0.1:18090/constant');
  const bareGet = await load({ title: 'bare GET', url: 'http://127.0.0.1:18090/constant' });
  await stopProcess(bare);
  record({ scenario: 'reference: bare Nest/Fastify', metric: 'GET req/s', value: Math.round(bareGet.requestsPerSecond), unit: 'req/s' });

  // Distributed mode: one process per app.
  const distributed = await startDistributed(18080);
  const openapi = await (await fetch('http://127.0.0.1:18080/openapi.json')).text();
  const distributedLoads = await customerLoads('distributed', distributed.baseUrl);

  // Prism mocking our own OpenAPI document: the stateless mock a developer would otherwise use.
  const specFile = join(ROOT, 'tmp', 'bench-openapi.json');
  writeFileSync(specFile, openapi);
  const prismProcess = startProcess('prism', 'node_modules/@stoplight/prism-cli/dist/index.js', {}, ['mock', '-h', '127.0.0.1', '-p', '18091', specFile]);
  await waitForHttp('http://127.0.0.1:18091/2025-10-13/config', 60_000);
  const prismGet = await load({ title: 'prism GET', url: 'http://127.0.0.1:18091/2025-10-13/customers/Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69', headers: { authorization: AUTHORIZATION } });
  const prismPost = await load({
    title: 'prism POST',
    url: 'http://127.0.0.1:18091/2025-10-13/customers',
    method: 'POST',
    headers: { authorization: AUTHORIZATION },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Load Test', email: 'load@example.com' }),
  });
  await stopProcess(prismProcess);
  record({ scenario: 'reference: Prism mock', metric: 'GET req/s', value: Math.round(prismGet.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'reference: Prism mock', metric: 'POST req/s', value: Math.round(prismPost.requestsPerSecond), unit: 'req/s' });

  const dGetRatio = distributedLoads.get.requestsPerSecond / prismGet.requestsPerSecond;
  const dGetBare = distributedLoads.get.requestsPerSecond / bareGet.requestsPerSecond;
  const dPostRatio = distributedLoads.post.requestsPerSecond / prismPost.requestsPerSecond;
  record({ scenario: 'distributed GET /customers/{id}', metric: 'req/s', value: Math.round(distributedLoads.get.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'p50', value: distributedLoads.get.p50Ms, unit: 'ms' });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'p99', value: distributedLoads.get.p99Ms, unit: 'ms', target: '< 20', met: distributedLoads.get.p99Ms < 20 });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'x Prism', value: round(dGetRatio), unit: 'x', target: '>= 8', met: dGetRatio >= 8 });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'share of bare route', value: round(dGetBare * 100), unit: '%', target: '>= 10', met: dGetBare >= 0.1 });
  record({ scenario: 'distributed POST /customers', metric: 'req/s', value: Math.round(distributedLoads.post.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'distributed POST /customers', metric: 'p50 / p99', value: distributedLoads.post.p99Ms, unit: `ms p99 (p50 ${distributedLoads.post.p50Ms} ms)` });
  record({ scenario: 'distributed POST /customers', metric: 'x Prism', value: round(dPostRatio), unit: 'x', target: '>= 5', met: dPostRatio >= 5 });
  for (const result of [distributedLoads.get, distributedLoads.post]) {
    if (result.non2xx + result.errors > 0) record({ scenario: 'distributed', metric: 'failed requests', value: result.non2xx + result.errors, unit: 'requests' });
  }

  await distributed.stop();

  // Each feature's scenario on a fresh distributed stack, so no backlog of another scenario's
  // events (webhooks, account provisioning) skews its figures.
  await runFeatureBenches();

  // Embedded mode: start time on a first start and a restart, throughput, memory.
  const dataDir = freshPgliteDataDir();
  rmSync(dataDir, { recursive: true, force: true });
  const embeddedEnv = { DATA_DIR: dataDir, PORT: '18085', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SANDBOX_TOKEN_ID: TOKEN_ID, SANDBOX_TOKEN_SECRET: TOKEN_SECRET };
  let started = Date.now();
  let embedded = startProcess('embedded-first-start', 'dist/apps/embedded/src/main.js', embeddedEnv);
  await waitForHttp('http://127.0.0.1:18085/health');
  const firstStart = Date.now() - started;
  await stopProcess(embedded);
  started = Date.now();
  embedded = startProcess('embedded', 'dist/apps/embedded/src/main.js', embeddedEnv);
  await waitForHttp('http://127.0.0.1:18085/health');
  const restart = Date.now() - started;
  record({ scenario: 'embedded start to first answer', metric: 'first start', value: firstStart, unit: 'ms', target: '< 10000', met: firstStart < 10_000 });
  record({ scenario: 'embedded start to first answer', metric: 'restart', value: restart, unit: 'ms', target: '< 5000', met: restart < 5000 });
  const embeddedLoads = await customerLoads('embedded', `http://127.0.0.1:18085/${API_VERSION}`);
  const eGetRatio = embeddedLoads.get.requestsPerSecond / prismGet.requestsPerSecond;
  record({ scenario: 'embedded GET /customers/{id}', metric: 'req/s', value: Math.round(embeddedLoads.get.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'embedded GET /customers/{id}', metric: 'p50 / p99', value: embeddedLoads.get.p99Ms, unit: `ms p99 (p50 ${embeddedLoads.get.p50Ms} ms)` });
  record({ scenario: 'embedded GET /customers/{id}', metric: 'x Prism', value: round(eGetRatio), unit: 'x', target: '>= 5', met: eGetRatio >= 5 });
  record({ scenario: 'embedded POST /customers', metric: 'req/s', value: Math.round(embeddedLoads.post.requestsPerSecond), unit: 'req/s' });
  const rss = residentMb(embedded.pid!);
  record({ scenario: 'embedded process after the benchmark', metric: 'resident memory', value: rss, unit: 'MB', target: '< 500', met: rss < 500 });
  await stopProcess(embedded);
  rmSync(dataDir, { recursive: true, force: true });

  const missed = figures.filter((figure) => figure.met === false);
  process.stdout.write(`\n${figures.filter((f) => f.target).length - missed.length} of ${figures.filter((f) => f.target).length} targets met\n`);
  writeFileSync(join(ROOT, 'tmp', 'bench-results.json'), JSON.stringify(figures, null, 2));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Each feature's benchmark module, if present: tools/bench/<feature>.bench.ts. */
async function runFeatureBenches(): Promise<void> {
  const features: Array<[string, string]> = [
    ['customers', 'runCustomersBench'],
    ['ledger', 'runLedgerBench'],
    ['webhooks', 'runWebhooksBench'],
    ['signed-retry', 'runSignedRetryBench'],
    ['cards', 'runCardsBench'],
  ];
  for (const [file, exported] of features) {
    let module: Record<string, unknown>;
    try {
      module = (await import(`./${file}.bench`)) as Record<string, unknown>;
    } catch {
      continue;
    }
    const run = module[exported] as ((ctx: BenchContext) => Promise<BenchFigure[]>) | undefined;
    if (!run) continue;
    const stack = await startDistributed(18080);
    try {
      for (const figure of await run(ctxFor('distributed', stack.baseUrl, stack.env))) record(figure);
    } catch (error) {
      process.stdout.write(`  ${file}: FAILED ${(error as Error).message}\n`);
    } finally {
      await stack.stop();
    }
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`benchmark failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => void stopAll());
