/**
 * Bulk customer import: a 100,000-row CSV (BENCH_CSV_ROWS) through POST /customers/bulk/csv, timed
 * to the job's answer and to its last customer ready (`progress.ready`), with the resident memory of
 * the customers service (and of the gateway, which streams and parses the file) sampled until then.
 * Targets: answered under 60 s, all ready under 180 s, customers service under 300 MB.
 */
import { openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchContext, BenchFigure } from './bench-types';

const ROWS = Number(process.env.BENCH_CSV_ROWS ?? 100_000);
const HEADER = 'customerType,platformCustomerId,fullName,birthDate,nationality,email,phoneNumber,address.line1,address.city,address.postalCode,address.country';

/** A realistic file: one row in a thousand is invalid (reported per row, never stopping the rest). */
function writeCsv(path: string): number {
  const lines = [HEADER];
  for (let i = 1; i <= ROWS; i += 1) {
    const birthDate = i % 1000 === 0 ? '1990-02-30' : `19${String(50 + (i % 50)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`;
    lines.push(
      `INDIVIDUAL,bench-${i},Bench Person ${i},${birthDate},US,person${i}@example.com,+1415555${String(i % 10000).padStart(4, '0')},${i} Market St,San Francisco,94105,US`,
    );
  }
  const content = lines.join('\n') + '\n';
  writeFileSync(path, content);
  return Buffer.byteLength(content);
}

/**
 * Pids of the processes running `script` in this stack: the machine may run other stacks (other
 * benchmarks, tests), told apart by their NATS namespace.
 */
function pidsRunning(script: string, namespace: string | undefined): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(script)) continue;
      if (namespace && !readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`NATS_NAMESPACE=${namespace}`)) continue;
      pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function residentMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** When the job's `progress.ready` reached its successful rows (polled once a second). */
async function allReady(ctx: BenchContext, jobId: string, successful: number, timeoutMs = 1_800_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const job = (await (await fetch(`${ctx.baseUrl}/customers/bulk/jobs/${jobId}`, { headers: { authorization: ctx.authorization } })).json()) as { progress: { ready: number } };
    if (job.progress.ready >= successful) return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`bulk job ${jobId}: customers not all ready ${timeoutMs / 1000} s after the upload`);
}

export async function runCustomersBench(ctx: BenchContext): Promise<BenchFigure[]> {
  const file = join(tmpdir(), `paykit-bench-customers-${process.pid}.csv`);
  const bytes = writeCsv(file);
  // One process per app in the distributed bench; otherwise the stack runs in this process.
  const namespace = ctx.env?.NATS_NAMESPACE;
  const customersPids = pidsRunning('apps/customers/src/main.js', namespace);
  const gatewayPids = pidsRunning('apps/gateway/src/main.js', namespace);
  const watched = { customers: customersPids.length ? customersPids : [process.pid], gateway: gatewayPids };
  const peak = { customers: 0, gateway: 0 };
  const sample = () => {
    for (const key of ['customers', 'gateway'] as const) {
      for (const pid of watched[key]) peak[key] = Math.max(peak[key], residentMb(pid));
    }
  };
  sample();
  const sampler = setInterval(sample, 200);

  const form = new FormData();
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'bench-customers.csv');
  const started = Date.now();
  let job: { id?: string; status?: string; progress?: { processed: number; successful: number; failed: number; ready: number } } = {};
  let status = 0;
  try {
    const response = await fetch(`${ctx.baseUrl}/customers/bulk/csv`, { method: 'POST', headers: { authorization: ctx.authorization }, body: form });
    status = response.status;
    job = (await response.json()) as typeof job;
  } catch (error) {
    clearInterval(sampler);
    throw error;
  } finally {
    rmSync(file, { force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  let readyMs: number;
  try {
    if (status !== 202 || job.status !== 'COMPLETED') throw new Error(`bulk import answered ${status}: ${JSON.stringify(job).slice(0, 300)}`);
    // Completed means read; ready means each customer's accounts, wallet and credential exist (memory sampled until then).
    readyMs = (await allReady(ctx, job.id!, job.progress!.successful)) - started;
  } finally {
    clearInterval(sampler);
    sample();
  }
  const scenario = `bulk CSV import, ${ROWS.toLocaleString('en-US')} rows`;
  const figures: BenchFigure[] = [
    { scenario, metric: 'duration', value: Math.round(seconds * 10) / 10, unit: `s (${(bytes / 1024 / 1024).toFixed(1)} MB file)`, target: '< 60', met: seconds < 60 },
    { scenario, metric: 'rows/s', value: Math.round(ROWS / seconds), unit: 'rows/s' },
    { scenario, metric: 'to all customers ready', value: Math.round(readyMs / 100) / 10, unit: 's from the upload', target: '< 180', met: readyMs < 180_000 },
    { scenario, metric: 'rows imported / refused', value: job.progress?.successful ?? 0, unit: `/ ${job.progress?.failed ?? 0} refused` },
    { scenario, metric: 'customers service peak RSS', value: peak.customers, unit: 'MB', target: '< 300', met: peak.customers < 300 },
  ];
  if (watched.gateway.length) figures.push({ scenario, metric: 'gateway peak RSS', value: peak.gateway, unit: 'MB' });
  return figures;
}
