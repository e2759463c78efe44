import { createVerify } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { BenchContext, BenchFigure } from './bench-types';

/**
 * Webhook delivery to a local receiver that verifies every signature (as a platform would):
 * 1. throughput: customers created as fast as autocannon can (each creation one signed webhook),
 *    deliveries per second counted at the receiver from the first to the last;
 * 2. latency: customers created at a steady 100 per second, and for each webhook the time from the
 *    state change's commit (the event's `timestamp`, stamped inside the committing transaction)
 *    to its arrival at the receiver.
 */
const STEADY_RATE = 100;
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DRAIN_TIMEOUT_MS = 120_000;

interface Arrival {
  at: number;
  latencyMs: number;
  verified: boolean;
}

export async function runWebhooksBench(ctx: BenchContext): Promise<BenchFigure[]> {
  const config = async (method: 'GET' | 'PATCH', body?: unknown): Promise<{ webhookEndpoint?: string; webhookPublicKey: string }> => {
    const response = await fetch(`${ctx.baseUrl}/config`, {
      method,
      headers: { authorization: ctx.authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} /config: ${response.status} ${await response.text()}`);
    return (await response.json()) as { webhookEndpoint?: string; webhookPublicKey: string };
  };

  const before = await config('GET');
  const publicKeyPem = before.webhookPublicKey;
  let arrivals: Arrival[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const rawBody = Buffer.concat(chunks);
      const { s } = JSON.parse(String(request.headers['x-service-signature'])) as { s: string };
      const verified = createVerify('SHA256').update(rawBody).verify(publicKeyPem, Buffer.from(s, 'base64'));
      const payload = JSON.parse(rawBody.toString('utf8')) as { type: string; timestamp: string };
      if (payload.type === 'CUSTOMER.KYC_PENDING') arrivals.push({ at, latencyMs: at - Date.parse(payload.timestamp), verified });
      response.writeHead(verified ? 200 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  await config('PATCH', { webhookEndpoint: endpoint });

  const customerBody = JSON.stringify({ customerType: 'INDIVIDUAL', fullName: 'Webhook Bench', email: 'webhook-bench@example.com' });
  const waitFor = async (count: number): Promise<void> => {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (arrivals.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  };

  try {
    // 1. Throughput.
    const burst = await ctx.load({
      title: 'webhooks: customers as fast as possible',
      url: `${ctx.baseUrl}/customers`,
      method: 'POST',
      headers: { authorization: ctx.authorization },
      body: customerBody,
    });
    const created = burst.total - burst.non2xx - burst.errors;
    await waitFor(created);
    const burstArrivals = arrivals;
    const first = Math.min(...burstArrivals.map((a) => a.at));
    const last = Math.max(...burstArrivals.map((a) => a.at));
    const perSecond = burstArrivals.length > 1 ? Math.round((burstArrivals.length / Math.max(1, last - first)) * 1000) : 0;

    // 2. Commit-to-receiver latency at a steady rate.
    arrivals = [];
    const sent = await steadyCustomers(ctx, customerBody, STEADY_RATE, STEADY_SECONDS);
    await waitFor(sent);
    const latencies = arrivals.map((a) => a.latencyMs).sort((a, b) => a - b);

    const allVerified = [...burstArrivals, ...arrivals].every((a) => a.verified);
    return [
      { scenario: 'webhooks: signed delivery', metric: 'deliveries/s', value: perSecond, unit: 'deliveries/s', target: '>= 500', met: perSecond >= 500 },
      { scenario: 'webhooks: signed delivery', metric: 'delivered / created', value: burstArrivals.length, unit: `of ${created} (creation ${Math.round(burst.requestsPerSecond)}/s)` },
      { scenario: 'webhooks: signed delivery', metric: 'signatures verified', value: allVerified ? 1 : 0, unit: 'all (1) / not all (0)', target: '= 1', met: allVerified },
      { scenario: `webhooks: ${STEADY_RATE} events/s`, metric: 'p50 commit→receiver', value: percentile(latencies, 0.5), unit: 'ms' },
      { scenario: `webhooks: ${STEADY_RATE} events/s`, metric: 'p99 commit→receiver', value: percentile(latencies, 0.99), unit: 'ms', target: '< 500', met: latencies.length === sent && percentile(latencies, 0.99) < 500 },
    ];
  } finally {
    await config('PATCH', { webhookEndpoint: before.webhookEndpoint ?? null });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Creates customers at `rate` per second for `seconds`, on a fixed schedule (not waiting for answers to send the next). */
async function steadyCustomers(ctx: BenchContext, body: string, rate: number, seconds: number): Promise<number> {
  const total = rate * seconds;
  const started = Date.now();
  const requests: Array<Promise<boolean>> = [];
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    requests.push(
      fetch(`${ctx.baseUrl}/customers`, { method: 'POST', headers: { authorization: ctx.authorization, 'content-type': 'application/json' }, body }).then(
        async (response) => {
          await response.arrayBuffer();
          return response.status === 201;
        },
        () => false,
      ),
    );
  }
  return (await Promise.all(requests)).filter(Boolean).length;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}
