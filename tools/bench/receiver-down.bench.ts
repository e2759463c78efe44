import { createServer } from 'node:net';
import { AddressInfo } from 'node:net';
import { BenchContext, BenchFigure } from './bench-types';

/**
 * One platform's webhook receiver is down while its backlog is retried, in embedded mode (one
 * process, one PGlite session for every service): what it costs everyone else's requests. The
 * stack runs with SANDBOX_TIME_SCALE 0.001, so the 24 h retry window lasts 86 s and a backlog is
 * retried as often in a few seconds as it would be over hours.
 *
 * 1. reference: GET /customers/{id}, one request after the other, before any webhook is due;
 * 2. the platform's endpoint is set to a port nothing listens on, and CUSTOMERS customers are
 *    created (each makes webhooks that fail at once and are retried on the schedule);
 * 3. the same GETs while those retries run.
 */
const CUSTOMERS = Number(process.env.BENCH_RECEIVER_DOWN_CUSTOMERS ?? 400);
const SAMPLE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export async function runReceiverDownBench(ctx: BenchContext): Promise<BenchFigure[]> {
  const headers = { authorization: ctx.authorization, 'content-type': 'application/json' };
  const createCustomer = async (name: string): Promise<string> => {
    const response = await fetch(`${ctx.baseUrl}/customers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ customerType: 'INDIVIDUAL', fullName: name, email: 'bench@example.com' }),
    });
    if (response.status !== 201) throw new Error(`POST /customers: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  };
  const probeId = await createCustomer('Probe');
  const latencies = async (seconds: number): Promise<{ p50: number; p99: number; count: number }> => {
    const times: number[] = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const started = performance.now();
      const response = await fetch(`${ctx.baseUrl}/customers/${probeId}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET /customers/{id}: ${response.status}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (share: number) => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * share))] * 10) / 10;
    return { p50: at(0.5), p99: at(0.99), count: times.length };
  };
  const before = await latencies(SAMPLE_SECONDS / 2);

  const patched = await fetch(`${ctx.baseUrl}/config`, { method: 'PATCH', headers, body: JSON.stringify({ webhookEndpoint: `http://127.0.0.1:${await closedPort()}/hooks` }) });
  if (!patched.ok) throw new Error(`PATCH /config: ${patched.status} ${await patched.text()}`);
  const createdAt = Date.now();
  for (let made = 0; made < CUSTOMERS; made += 20) {
    await Promise.all(Array.from({ length: Math.min(20, CUSTOMERS - made) }, (_, index) => createCustomer(`Receiver Down ${made + index}`)));
  }
  const creatingSeconds = (Date.now() - createdAt) / 1000;
  const during = await latencies(SAMPLE_SECONDS);

  const scenario = 'embedded, a receiver down';
  return [
    { scenario, metric: 'GET before', value: before.p99, unit: `ms p99 (p50 ${before.p50} ms, ${before.count} requests one after another)` },
    {
      scenario,
      metric: 'create customers',
      value: Math.round(creatingSeconds * 10) / 10,
      unit: `s for ${CUSTOMERS} customers, 20 at a time, their webhooks failing`,
    },
    { scenario, metric: 'GET while retried', value: during.p99, unit: `ms p99 (p50 ${during.p50} ms, ${during.count} requests in ${SAMPLE_SECONDS} s)` },
  ];
}

/** A loopback port with nothing listening (connections to it are refused at once). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
