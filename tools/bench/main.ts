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
import { BenchContext, BenchFigure, LoadOptions, LoadResult } from './bench-types';
import { runReceiverDownBench } from './receiver-down.bench';
import {
  cpuPerRequest,
  cpuSnapshot,
  idleCpuPercent,
  residentMb,
  ROOT,
  runLoad,
  sampleMemory,
  startProcess,
  stopAll,
  stopProcess,
  waitForHttp,
  waitForQuiet,
  workPer,
  workSnapshot,
} from './processes';

const SERVICES = ['webhooks', 'customers', 'external-accounts', 'payments', 'wallet-auth', 'cards'];
const TOKEN_ID = 'tok_benchmark0001';
const TOKEN_SECRET = randomBytes(32).toString('base64url');
const AUTHORIZATION = `Basic ${Buffer.from(`${TOKEN_ID}:${TOKEN_SECRET}`).toString('base64')}`;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
/**
 * `BENCH_ONLY=distributed,ledger` runs just those scenarios: `distributed` and `embedded` (the
 * customers paths, each with its references), `receiver-down` (embedded, a webhook receiver down)
 * and the feature names customers, ledger, webhooks, signed-retry, cards, quotes, agents. Unset: everything.
 */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((name) => name.trim())) : undefined;
const selected = (scenario: string): boolean => !ONLY || ONLY.has(scenario);
/**
 * The loads send tens of thousands of requests a second with one token: far over the default
 * request limit (RATE_LIMIT_REQUESTS). They run with a limit they never reach, so the limiter's
 * cost is in every figure while no request is refused. `RATE_LIMIT_REQUESTS=0` in the bench's
 * environment turns the limiter off instead, to measure what it costs.
 */
const UNREACHED_RATE_LIMITS = { RATE_LIMIT_REQUESTS: process.env.RATE_LIMIT_REQUESTS ?? '1000000000', RATE_LIMIT_WINDOW_SECONDS: '60' };

/** Ports used: BASE (distributed gateway), +5 (embedded), +10 (bare route), +11 (Prism), +20 and on (added replicas' probes). Two runs at once need different bases. */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 18080);
const DISTRIBUTED_PORT = PORT_BASE;
const EMBEDDED_PORT = PORT_BASE + 5;
const BARE_PORT = PORT_BASE + 10;
const PRISM_PORT = PORT_BASE + 11;

const figures: BenchFigure[] = [];

function record(figure: BenchFigure): void {
  figures.push(figure);
  const target = figure.target ? `  (target ${figure.target}: ${figure.met ? 'met' : 'NOT met'})` : '';
  process.stdout.write(`  ${figure.scenario.padEnd(34)} ${figure.metric.padEnd(22)} ${String(figure.value).padStart(10)} ${figure.unit}${target}\n`);
}

function load(options: Omit<LoadOptions, 'connections' | 'durationSeconds'> & Partial<LoadOptions>) {
  return runLoad({ connections: CONNECTIONS, durationSeconds: DURATION, ...options });
}

/** Seconds of a GET load run first and not counted. */
const WARM_UP_SECONDS = 2;

/**
 * One counted load, with the CPU it cost each process: it starts once the stack has worked off
 * what came before (setup, a start, earlier loads). `warmUp` runs a GET for a few seconds first,
 * uncounted, so every server (ours, the bare route, Prism alike) is measured with its hot path
 * compiled: from cold, the first second of the embedded GET ran at about 60% of the rest. Reads
 * only: a write's warm-up would leave work behind.
 */
async function measuredLoad(options: Omit<LoadOptions, 'connections' | 'durationSeconds'> & Partial<LoadOptions>, warmUp = false): Promise<MeasuredLoad> {
  const waitedMs = await waitForQuiet();
  if (waitedMs > 1_000) process.stdout.write(`  (${options.title}: waited ${(waitedMs / 1000).toFixed(1)} s for the stack to work off its setup)\n`);
  if (warmUp) await load({ ...options, durationSeconds: WARM_UP_SECONDS });
  const before = cpuSnapshot();
  const result = await load(options);
  return { ...result, cpu: cpuPerRequest(before, cpuSnapshot(), result.total) };
}

type MeasuredLoad = LoadResult & { cpu: NonNullable<LoadResult['cpu']> };

function ctxFor(mode: BenchContext['mode'], baseUrl: string, stack?: DistributedStack): BenchContext {
  return {
    mode,
    baseUrl,
    env: stack?.env,
    authorization: AUTHORIZATION,
    load: (options) => measuredLoad(options),
    stopService: stack?.stopService,
    startService: stack?.startService,
    addReplica: stack?.addReplica,
    removeReplica: stack?.removeReplica,
    sampleMemory: stack ? sampleMemory : undefined,
  };
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

async function customerLoads(label: string, baseUrl: string, rightAfterPost?: () => void, stackEnv?: Record<string, string>) {
  const id = await createCustomer(baseUrl);
  const get = await measuredLoad({ title: `${label} GET`, url: `${baseUrl}/customers/${id}`, headers: { authorization: AUTHORIZATION } }, true);
  const getCpu = get.cpu;
  // Counted once the GET load is over and published (PostgreSQL publishes counts within a second of idling).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const workBefore = stackEnv ? await workSnapshot(stackEnv) : undefined;
  const postCpuBefore = cpuSnapshot();
  const post = await load({
    title: `${label} POST`,
    url: `${baseUrl}/customers`,
    method: 'POST',
    headers: { authorization: AUTHORIZATION },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Load Test', email: 'load@example.com' }),
  });
  rightAfterPost?.();
  const burstEnded = Date.now();
  const readyMs = (await lastCustomerReady(baseUrl)) - burstEnded;
  // Counted once the stack has also done what the new customers set going (accounts, wallets,
  // webhook records), which runs on after the load's last answer.
  const settledMs = await waitForQuiet(180_000);
  const postCpu = cpuPerRequest(postCpuBefore, cpuSnapshot(), post.total);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const postWork = workBefore && stackEnv ? workPer(workBefore, await workSnapshot(stackEnv), post.total) : undefined;
  return { get, post, getCpu, postCpu, settledMs, readyMs, postWork };
}

/**
 * When the newest customer (the burst's last, ids are time-ordered) is READY on GET
 * /customers/{id}/provisioning: its accounts, wallet and credential exist. Events are handled in
 * stream order, so it is the last to get there, within the consumers' overlap.
 */
async function lastCustomerReady(baseUrl: string, timeoutMs = 600_000): Promise<number> {
  const headers = { authorization: AUTHORIZATION };
  const newest = (await (await fetch(`${baseUrl}/customers?limit=1`, { headers })).json()) as { data: Array<{ id: string }> };
  const id = newest.data[0].id;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const provisioning = (await (await fetch(`${baseUrl}/customers/${id}/provisioning`, { headers })).json()) as { status?: string };
    if (provisioning.status === 'READY') return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`customer ${id} not ready ${timeoutMs / 1000} s after the burst`);
}

/** `BENCH_CPU_PROFILE=gateway,customers` writes those apps' CPU profiles to tmp/cpu-profiles/<app> (open them in Chrome DevTools). */
function profiling(app: string): string[] {
  const apps = (process.env.BENCH_CPU_PROFILE ?? '').split(',');
  return apps.includes(app) ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'tmp', 'cpu-profiles', app)}`] : [];
}

interface DistributedStack {
  baseUrl: string;
  env: Record<string, string>;
  stopService: (service: string) => Promise<void>;
  startService: (service: string) => Promise<void>;
  addReplica: (service: string) => Promise<string>;
  removeReplica: (name: string) => Promise<void>;
  stop: () => Promise<void>;
}

async function startDistributed(port: number): Promise<DistributedStack> {
  const resources = await createDistributedResources();
  const env = { ...resources.env, LOG_LEVEL: 'warn', SANDBOX_TIME_SCALE: '0.001', ...UNREACHED_RATE_LIMITS };
  const processes = new Map<string, ChildProcess>();
  const start = (service: string) => processes.set(service, startProcess(`distributed-${service}`, `dist/apps/${service}/src/main.js`, env, [], profiling(service)));
  for (const service of SERVICES) start(service);
  processes.set(
    'gateway',
    startProcess(
      'distributed-gateway',
      'dist/apps/gateway/src/main.js',
      { ...env, PORT: String(port), HOST: '127.0.0.1', SANDBOX_TOKEN_ID: TOKEN_ID, SANDBOX_TOKEN_SECRET: TOKEN_SECRET },
      [],
      profiling('gateway'),
    ),
  );
  await waitForHttp(`http://127.0.0.1:${port}/ready`, 60_000, 200);
  return {
    baseUrl: `http://127.0.0.1:${port}/${API_VERSION}`,
    env,
    stopService: async (service) => {
      const child = processes.get(service);
      if (child) await stopProcess(child);
    },
    startService: async (service) => {
      start(service);
    },
    addReplica: async (service) => {
      const count = [...processes.keys()].filter((name) => name === service || name.startsWith(`${service}-`)).length;
      const name = `${service}-${count + 1}`;
      // Its own probe port (HEALTH_PORT): ready once its NATS connections and its database answer.
      const healthPort = PORT_BASE + 20 + count;
      processes.set(name, startProcess(`distributed-${name}`, `dist/apps/${service}/src/main.js`, { ...env, HEALTH_PORT: String(healthPort) }, [], profiling(service)));
      await waitForHttp(`http://127.0.0.1:${healthPort}/readyz`, 60_000, 200);
      return name;
    },
    removeReplica: async (name) => {
      const child = processes.get(name);
      processes.delete(name);
      if (child) await stopProcess(child);
    },
    stop: async () => {
      for (const child of [...processes.values()].reverse()) await stopProcess(child);
      await resources.drop();
    },
  };
}

async function main(): Promise<void> {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  process.stdout.write(`Paykit benchmark: ${CONNECTIONS} connections, ${DURATION} s per run, on ${cpus().length} cores\n\n`);

  // References measured in the same run.
  const bare = startProcess('bare', 'dist/tools/bench/bare-server.js', { PORT: String(BARE_PORT) });
  await waitForHttp(`http://127.0.0.1:${BARE_PORT}/constant`);
  const bareGet = await measuredLoad({ title: 'bare GET', url: `http://127.0.0.1:${BARE_PORT}/constant` }, true);
  await stopProcess(bare);
  record({ scenario: 'reference: bare Nest/Fastify', metric: 'GET req/s', value: Math.round(bareGet.requestsPerSecond), unit: 'req/s' });

  if (selected('distributed')) await distributedCustomerScenario(bareGet.requestsPerSecond);

  // Each feature's scenario on a fresh distributed stack, so no backlog of another scenario's
  // events (webhooks, account provisioning) skews its figures.
  await runFeatureBenches();

  if (selected('embedded')) await embeddedScenario();
  if (selected('receiver-down')) await receiverDownScenario();

  const missed = figures.filter((figure) => figure.met === false);
  process.stdout.write(`\n${figures.filter((f) => f.target).length - missed.length} of ${figures.filter((f) => f.target).length} targets met\n`);
  writeFileSync(join(ROOT, 'tmp', 'bench-results.json'), JSON.stringify(figures, null, 2));
}

interface PrismReference {
  get: number;
  post: number;
}
let prism: PrismReference | undefined;

/**
 * Prism mocking our own OpenAPI document: the stateless mock a developer would otherwise use.
 * Measured once per run, with none of our processes running (so it does not share the cores
 * with a stack still working off the loads before it).
 */
async function prismReference(openapiDocument: string): Promise<PrismReference> {
  if (prism) return prism;
  await waitForQuiet();
  const specFile = join(ROOT, 'tmp', 'bench-openapi.json');
  writeFileSync(specFile, openapiDocument);
  const prismProcess = startProcess('prism', 'node_modules/@stoplight/prism-cli/dist/index.js', {}, ['mock', '-h', '127.0.0.1', '-p', String(PRISM_PORT), specFile]);
  await waitForHttp(`http://127.0.0.1:${PRISM_PORT}/2025-10-13/config`, 60_000);
  const prismGet = await measuredLoad(
    { title: 'prism GET', url: `http://127.0.0.1:${PRISM_PORT}/2025-10-13/customers/Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69`, headers: { authorization: AUTHORIZATION } },
    true,
  );
  const prismPost = await load({
    title: 'prism POST',
    url: `http://127.0.0.1:${PRISM_PORT}/2025-10-13/customers`,
    method: 'POST',
    headers: { authorization: AUTHORIZATION },
    body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Load Test', email: 'load@example.com' }),
  });
  await stopProcess(prismProcess);
  record({ scenario: 'reference: Prism mock', metric: 'GET req/s', value: Math.round(prismGet.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'reference: Prism mock', metric: 'POST req/s', value: Math.round(prismPost.requestsPerSecond), unit: 'req/s' });
  prism = { get: prismGet.requestsPerSecond, post: prismPost.requestsPerSecond };
  return prism;
}

/** Distributed mode, one process per app: the customers paths against both references. */
async function distributedCustomerScenario(bareRequestsPerSecond: number): Promise<void> {
  const distributed = await startDistributed(DISTRIBUTED_PORT);
  const idle = [...(await idleCpuPercent())].filter(([name]) => name.startsWith('distributed-'));
  const busiestIdle = Math.max(0, ...idle.map(([, percent]) => percent));
  record({
    scenario: 'distributed services idle',
    metric: 'CPU of the busiest',
    value: busiestIdle,
    unit: `% of a core over 10 s (${idle.map(([name, percent]) => `${name.replace(/^distributed-/, '')} ${percent}`).join(', ')})`,
    target: '< 0.5 each',
    met: busiestIdle < 0.5,
  });
  const distributedLoads = await customerLoads('distributed', distributed.baseUrl, undefined, distributed.env);
  const openapi = await (await fetch(`http://127.0.0.1:${DISTRIBUTED_PORT}/openapi.json`)).text();
  await distributed.stop();
  const references = await prismReference(openapi);

  const dGetRatio = distributedLoads.get.requestsPerSecond / references.get;
  const dGetBare = distributedLoads.get.requestsPerSecond / bareRequestsPerSecond;
  const dPostRatio = distributedLoads.post.requestsPerSecond / references.post;
  record({ scenario: 'distributed GET /customers/{id}', metric: 'req/s', value: Math.round(distributedLoads.get.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'p50', value: distributedLoads.get.p50Ms, unit: 'ms' });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'p99', value: distributedLoads.get.p99Ms, unit: 'ms', target: '< 20', met: distributedLoads.get.p99Ms < 20 });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'x Prism', value: round(dGetRatio), unit: 'x', target: '>= 8', met: dGetRatio >= 8 });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'share of bare route', value: round(dGetBare * 100), unit: '%', target: '>= 10', met: dGetBare >= 0.1 });
  record({ scenario: 'distributed GET /customers/{id}', metric: 'CPU per request', value: distributedLoads.getCpu.totalUs, unit: `us (${distributedLoads.getCpu.byProcess})` });
  record({ scenario: 'distributed POST /customers', metric: 'req/s', value: Math.round(distributedLoads.post.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'distributed POST /customers', metric: 'p50 / p99', value: distributedLoads.post.p99Ms, unit: `ms p99 (p50 ${distributedLoads.post.p50Ms} ms)` });
  record({ scenario: 'distributed POST /customers', metric: 'x Prism', value: round(dPostRatio), unit: 'x', target: '>= 5', met: dPostRatio >= 5 });
  record({
    scenario: 'distributed POST /customers',
    metric: 'CPU per request',
    value: distributedLoads.postCpu.totalUs,
    unit: `us, with the reactions worked off ${round(distributedLoads.settledMs / 1000)} s after the load (${distributedLoads.postCpu.byProcess})`,
  });
  const cpuPerCustomerMs = distributedLoads.postCpu.totalUs / 1000;
  record({
    scenario: 'distributed provisioning',
    metric: 'CPU per ready customer',
    value: round(cpuPerCustomerMs),
    unit: `ms (accounts, wallet key and credential, webhook records; ${distributedLoads.postCpu.byProcess} us)`,
    target: '<= 2',
    met: cpuPerCustomerMs <= 2,
  });
  if (distributedLoads.postWork) {
    record({
      scenario: 'distributed provisioning',
      metric: 'work per ready customer',
      value: distributedLoads.postWork.transactions,
      unit: `database transactions (${distributedLoads.postWork.byCount})`,
    });
  }
  record({
    scenario: 'distributed provisioning',
    metric: 'burst end to last ready',
    value: round(distributedLoads.readyMs / 1000),
    unit: `s after a ${DURATION} s POST burst of ${distributedLoads.post.total} customers`,
    target: '<= 10',
    met: distributedLoads.readyMs <= 10_000,
  });
  for (const result of [distributedLoads.get, distributedLoads.post]) {
    if (result.non2xx + result.errors > 0) record({ scenario: 'distributed', metric: 'failed requests', value: result.non2xx + result.errors, unit: 'requests' });
  }
}

/** Embedded mode: start time on a first start and a restart, throughput, memory. */
/** The environment of an embedded process on a fresh data directory, with the benchmark's token. */
function embeddedEnvironment(dataDir: string): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    PORT: String(EMBEDDED_PORT),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SANDBOX_TOKEN_ID: TOKEN_ID,
    SANDBOX_TOKEN_SECRET: TOKEN_SECRET,
    ...UNREACHED_RATE_LIMITS,
  };
}

/** tools/bench/receiver-down.bench.ts on an embedded process whose sandbox time runs 1,000 times faster. */
async function receiverDownScenario(): Promise<void> {
  const dataDir = freshPgliteDataDir();
  rmSync(dataDir, { recursive: true, force: true });
  const embedded = startProcess('embedded', 'dist/apps/embedded/src/main.js', { ...embeddedEnvironment(dataDir), SANDBOX_TIME_SCALE: '0.001' });
  try {
    await waitForHttp(`http://127.0.0.1:${EMBEDDED_PORT}/health`);
    for (const figure of await runReceiverDownBench(ctxFor('embedded', `http://127.0.0.1:${EMBEDDED_PORT}/${API_VERSION}`))) record(figure);
  } finally {
    await stopProcess(embedded);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function embeddedScenario(): Promise<void> {
  const dataDir = freshPgliteDataDir();
  rmSync(dataDir, { recursive: true, force: true });
  const embeddedEnv = embeddedEnvironment(dataDir);
  let started = Date.now();
  let embedded = startProcess('embedded-first-start', 'dist/apps/embedded/src/main.js', embeddedEnv);
  await waitForHttp(`http://127.0.0.1:${EMBEDDED_PORT}/health`);
  const firstStart = Date.now() - started;
  await stopProcess(embedded);
  started = Date.now();
  embedded = startProcess('embedded', 'dist/apps/embedded/src/main.js', embeddedEnv);
  await waitForHttp(`http://127.0.0.1:${EMBEDDED_PORT}/health`);
  const restart = Date.now() - started;
  record({ scenario: 'embedded start to first answer', metric: 'first start', value: firstStart, unit: 'ms', target: '< 10000', met: firstStart < 10_000 });
  record({ scenario: 'embedded start to first answer', metric: 'restart', value: restart, unit: 'ms', target: '< 5000', met: restart < 5000 });
  const rssAfterStart = residentMb(embedded.pid!);
  const embeddedIdle = (await idleCpuPercent()).get('embedded') ?? 0;
  record({
    scenario: 'embedded process idle',
    metric: 'CPU',
    value: embeddedIdle,
    unit: '% of a core over 10 s with nothing calling it',
    target: '< 0.5',
    met: embeddedIdle < 0.5,
  });
  record({ scenario: 'embedded process idle', metric: 'resident memory', value: rssAfterStart, unit: 'MB after start' });
  // Resident memory right after the loads, and once the process has done the work they set going
  // (accounts, wallets and webhook records of every new customer, on its one PGlite session).
  let rssAtOnce = 0;
  const embeddedLoads = await customerLoads('embedded', `http://127.0.0.1:${EMBEDDED_PORT}/${API_VERSION}`, () => (rssAtOnce = residentMb(embedded.pid!)));
  const settledMs = embeddedLoads.settledMs;
  const rss = residentMb(embedded.pid!);
  const openapi = await (await fetch(`http://127.0.0.1:${EMBEDDED_PORT}/openapi.json`)).text();
  await stopProcess(embedded);
  rmSync(dataDir, { recursive: true, force: true });
  const references = await prismReference(openapi);
  const eGetRatio = embeddedLoads.get.requestsPerSecond / references.get;
  record({ scenario: 'embedded GET /customers/{id}', metric: 'req/s', value: Math.round(embeddedLoads.get.requestsPerSecond), unit: 'req/s' });
  record({ scenario: 'embedded GET /customers/{id}', metric: 'p50 / p99', value: embeddedLoads.get.p99Ms, unit: `ms p99 (p50 ${embeddedLoads.get.p50Ms} ms)` });
  record({ scenario: 'embedded GET /customers/{id}', metric: 'x Prism', value: round(eGetRatio), unit: 'x', target: '>= 5', met: eGetRatio >= 5 });
  record({ scenario: 'embedded POST /customers', metric: 'req/s', value: Math.round(embeddedLoads.post.requestsPerSecond), unit: 'req/s' });
  record({
    scenario: 'embedded POST /customers',
    metric: 'reactions worked off',
    value: round(settledMs / 1000),
    unit: 's after the POST load (accounts, wallets, webhook records)',
  });
  record({
    scenario: 'embedded provisioning',
    metric: 'burst end to last ready',
    value: round(embeddedLoads.readyMs / 1000),
    unit: `s after a ${DURATION} s POST burst of ${embeddedLoads.post.total} customers`,
  });
  record({
    scenario: 'embedded process after the benchmark',
    metric: 'resident memory',
    value: rss,
    unit: `MB once its work is done (${rssAtOnce} MB right after the loads)`,
    target: '< 500',
    met: rss < 500,
  });
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
    ['quotes', 'runQuotesBench'],
    ['agents', 'runAgentsBench'],
  ];
  for (const [file, exported] of features) {
    if (!selected(file)) continue;
    let module: Record<string, unknown>;
    try {
      module = (await import(`./${file}.bench`)) as Record<string, unknown>;
    } catch {
      continue;
    }
    const run = module[exported] as ((ctx: BenchContext) => Promise<BenchFigure[]>) | undefined;
    if (!run) continue;
    const stack = await startDistributed(DISTRIBUTED_PORT);
    try {
      for (const figure of await run(ctxFor('distributed', stack.baseUrl, stack))) record(figure);
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
