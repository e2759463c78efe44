import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { connect } from 'nats';
import { Client } from 'pg';
import { POSTGRES_ADMIN_URL } from '@paykit/testing';
import { LoadOptions, LoadResult } from './bench-types';

/** The repository root (this file runs from dist/tools/bench). */
export const ROOT = resolve(__dirname, '..', '..', '..');
export const LOG_DIR = join(ROOT, 'tmp', process.env.BENCH_PORT_BASE ? `bench-logs-${process.env.BENCH_PORT_BASE}` : 'bench-logs');

const children: ChildProcess[] = [];
const names = new Map<ChildProcess, string>();

/** Starts a compiled entry point as its own process, its output in tmp/bench-logs/<name>.log. */
export function startProcess(name: string, script: string, env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): ChildProcess {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = createWriteStream(join(LOG_DIR, `${name}.log`));
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, script), ...args], { env: { ...process.env, ...env }, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  // Two sources share one file: neither may end it while the other still writes.
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.once('close', () => log.end());
  children.push(child);
  names.set(child, name);
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all(children.map(stopProcess));
}

/** Polls `url` until it answers `status` (any status when omitted). Returns milliseconds waited. */
export async function waitForHttp(url: string, timeoutMs = 60_000, status?: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      const response = await fetch(url);
      if (status === undefined || response.status === status) return Date.now() - started;
    } catch {
      // not up yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resident memory of a process in MB (Linux). */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/**
 * Samples the resident memory of every running child every 250 ms until the returned function is
 * called, which answers each one's peak (MB) by the name it was started with.
 */
export function sampleMemory(): () => Map<string, number> {
  const peaks = new Map<string, number>();
  const sample = () => {
    for (const child of children) {
      if (!child.pid || child.exitCode !== null) continue;
      const name = names.get(child) ?? String(child.pid);
      try {
        peaks.set(name, Math.max(peaks.get(name) ?? 0, residentMb(child.pid)));
      } catch {
        // Exited meanwhile.
      }
    }
  };
  sample();
  const timer = setInterval(sample, 250);
  return () => {
    clearInterval(timer);
    sample();
    return peaks;
  };
}

/** One autocannon run in a separate process. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/tools/bench/load-runner.js'), JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`load run "${options.title}" failed`);
  return JSON.parse(output.trim().split('\n').pop()!) as LoadResult;
}

/**
 * User plus system CPU time of a process and of its exited children, in milliseconds (Linux, 100
 * ticks per second); 0 once it is gone. The children's part keeps a server's total from falling:
 * PostgreSQL's pools close idle connections after 30 s, and without it the CPU of those backends
 * vanished from the sum, which read as a quiet stack while provisioning was still running.
 */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU time so far of every running child (by the name it was started with) and of the local
 * PostgreSQL and NATS servers (all their processes), to tell where a scenario's CPU goes.
 */
export function cpuSnapshot(): Map<string, number> {
  const snapshot = new Map<string, number>();
  const add = (name: string, ms: number) => snapshot.set(name, (snapshot.get(name) ?? 0) + ms);
  for (const child of children) if (child.pid && child.exitCode === null) add(names.get(child) ?? String(child.pid), cpuMs(child.pid));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (command === 'postgres') add('postgresql', cpuMs(Number(entry)));
    else if (command === 'nats-server') add('nats', cpuMs(Number(entry)));
  }
  return snapshot;
}

/**
 * Waits until the stack (its processes, PostgreSQL, NATS) has worked off what a scenario's setup
 * set going (account provisioning, webhook records of thousands of new resources), so a load
 * measures its own path, not the tail of the setup: quiet is under a tenth of a core over half a
 * second. Gives up after `timeoutMs` and measures anyway. Answers how long it waited.
 */
export async function waitForQuiet(timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  const windowMs = 500;
  const total = (snapshot: Map<string, number>) => [...snapshot.values()].reduce((sum, ms) => sum + ms, 0);
  while (Date.now() - started < timeoutMs) {
    const before = total(cpuSnapshot());
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    if (total(cpuSnapshot()) - before < windowMs / 10) break;
  }
  return Date.now() - started;
}

/** Microseconds of CPU per request between two snapshots: the total, and by process, the busiest first. */
export function cpuPerRequest(before: Map<string, number>, after: Map<string, number>, requests: number): { totalUs: number; byProcess: string } {
  const perProcess = [...after]
    .map(([name, ms]) => [name, ((ms - (before.get(name) ?? 0)) * 1000) / Math.max(1, requests)] as const)
    .filter(([, us]) => us >= 5)
    .sort((a, b) => b[1] - a[1]);
  return {
    totalUs: Math.round(perProcess.reduce((sum, [, us]) => sum + us, 0)),
    byProcess: perProcess.map(([name, us]) => `${name.replace(/^(distributed|embedded)-/, '')} ${Math.round(us)}`).join(', '),
  };
}

/**
 * Share of one core each process used over `windowMs` with nothing calling it (after
 * `settleMs` for start-up work to end), by the name it was started with: what a server left
 * running unused costs.
 */
export async function idleCpuPercent(settleMs = 15_000, windowMs = 10_000): Promise<Map<string, number>> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const before = cpuSnapshot();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const after = cpuSnapshot();
  const idle = new Map<string, number>();
  for (const [name, ms] of after) idle.set(name, Math.round(((ms - (before.get(name) ?? 0)) / windowMs) * 1000) / 10);
  return idle;
}

/**
 * What a stack's services asked of their databases and of the event stream so far, counts that
 * do not depend on how busy the machine is: transactions by service (pg_stat_database's commits
 * and rollbacks: a statement outside a transaction counts as one) and the events the stream holds.
 * PostgreSQL publishes a backend's counts within a second of its going idle: read once quiet.
 */
export async function workSnapshot(env: Record<string, string>): Promise<Map<string, number>> {
  const snapshot = new Map<string, number>();
  const databases = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    const service = /^([A-Z_]+)_DATABASE_URL$/.exec(name)?.[1];
    if (service) databases.set(new URL(value).pathname.slice(1), service.toLowerCase().replace(/_/g, '-'));
  }
  const admin = new Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const rows = await admin.query<{ datname: string; xacts: string }>(
      `SELECT datname, (xact_commit + xact_rollback)::text AS xacts FROM pg_stat_database WHERE datname = ANY($1::text[])`,
      [[...databases.keys()]],
    );
    for (const row of rows.rows) snapshot.set(`${databases.get(row.datname)} transactions`, Number(row.xacts));
  } finally {
    await admin.end();
  }
  if (env.NATS_NAMESPACE) {
    const nc = await connect({ servers: [env.NATS_URL] });
    try {
      const info = await (await nc.jetstreamManager()).streams.info(`${env.NATS_NAMESPACE.toUpperCase()}_EVENTS`);
      snapshot.set('events published', info.state.messages);
      const consumers = await (await nc.jetstreamManager()).consumers.list(`${env.NATS_NAMESPACE.toUpperCase()}_EVENTS`).next();
      // Each durable consumer's deliveries so far (redeliveries included).
      snapshot.set(
        'event deliveries',
        consumers.reduce((sum, consumer) => sum + consumer.delivered.consumer_seq, 0),
      );
    } finally {
      await nc.close();
    }
  }
  return snapshot;
}

/** Per unit (e.g. per ready customer) between two work snapshots: database transactions in all, and each count. */
export function workPer(before: Map<string, number>, after: Map<string, number>, units: number): { transactions: number; byCount: string } {
  const per = [...after]
    .map(([name, count]) => [name, (count - (before.get(name) ?? 0)) / Math.max(1, units)] as const)
    .filter(([, value]) => value >= 0.01)
    .sort((a, b) => b[1] - a[1]);
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    transactions: round(per.filter(([name]) => name.endsWith(' transactions')).reduce((sum, [, value]) => sum + value, 0)),
    byCount: per.map(([name, value]) => `${name} ${round(value)}`).join(', '),
  };
}
