import { createPublicKey, createVerify } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { BenchContext, BenchFigure } from './bench-types';

/**
 * Webhook delivery to a local receiver that verifies every signature (as a platform would):
 * 1. throughput: a backlog of customers is created while the webhooks process is stopped (their
 *    events wait in JetStream), then the process starts and drains it; deliveries per second are
 *    counted at the receiver from the first arrival to the last. Measured this way the figure is
 *    the delivery pipeline's own (consume, store, sign, POST, record), not the rate at which the
 *    customers service can create customers, and it doubles as a check that an outage loses nothing;
 * 2. latency: customers created at a steady 100 per second, and for each webhook the time from the
 *    state change's commit (the event's `timestamp`, stamped inside the committing transaction)
 *    to its arrival at the receiver.
 */
const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 3000);
const STEADY_RATE = 100;
const STEADY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DRAIN_TIMEOUT_MS = 120_000;

interface Arrival {
  at: number;
  latencyMs: number;
  verified: boolean;
  customerId: string;
}

/** Each phase creates customers under its own name, so a late webhook of one phase never counts in the other. */
const BURST_NAME = 'Webhook Bench';
const STEADY_NAME = 'Webhook Bench Steady';

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

  const before = await firstConfig(ctx);
  // Parsed once, as a platform's receiver would keep it: the bench process also drives the load.
  const publicKey = createPublicKey(before.webhookPublicKey);
  const arrivals = new Map<string, Arrival[]>([
    [BURST_NAME, []],
    [STEADY_NAME, []],
  ]);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const rawBody = Buffer.concat(chunks);
      const { s } = JSON.parse(String(request.headers['x-service-signature'])) as { s: string };
      const verified = createVerify('SHA256').update(rawBody).verify(publicKey, Buffer.from(s, 'base64'));
      const payload = JSON.parse(rawBody.toString('utf8')) as { type: string; timestamp: string; data: { id: string; fullName?: string } };
      const phase = payload.type === 'CUSTOMER.KYC_PENDING' ? arrivals.get(payload.data.fullName ?? '') : undefined;
      phase?.push({ at, latencyMs: at - Date.parse(payload.timestamp), verified, customerId: payload.data.id });
      response.writeHead(verified ? 200 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  await config('PATCH', { webhookEndpoint: endpoint });

  const customerBody = (fullName: string) => JSON.stringify({ customerType: 'INDIVIDUAL', fullName, email: 'webhook-bench@example.com' });
  /** Waits until `count` distinct customers of the phase have had their webhook (more may come: a request can fail at the client after its commit). */
  const waitFor = async (phase: Arrival[], count: number): Promise<number> => {
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    const delivered = () => new Set(phase.map((a) => a.customerId)).size;
    while (delivered() < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return delivered();
  };

  try {
    // 1. Throughput: a backlog drained by a freshly started webhooks process.
    if (!ctx.stopService || !ctx.startService) throw new Error('the webhooks benchmark needs a distributed stack');
    await ctx.stopService('webhooks');
    const burst = await ctx.load({
      title: 'webhooks: a backlog of customers while the webhooks process is down',
      url: `${ctx.baseUrl}/customers`,
      method: 'POST',
      headers: { authorization: ctx.authorization },
      body: customerBody(BURST_NAME),
      amount: BACKLOG,
    });
    const created = burst.total - burst.non2xx - burst.errors;
    const burstArrivals = arrivals.get(BURST_NAME)!;
    await ctx.startService('webhooks');
    await waitFor(burstArrivals, created);
    const first = Math.min(...burstArrivals.map((a) => a.at));
    const last = Math.max(...burstArrivals.map((a) => a.at));
    const backlogDelivered = new Set(burstArrivals.map((a) => a.customerId)).size;
    const perSecond = backlogDelivered > 1 ? Math.round((backlogDelivered / Math.max(1, last - first)) * 1000) : 0;

    // 2. Commit-to-receiver latency at a steady rate.
    const steadyArrivals = arrivals.get(STEADY_NAME)!;
    const sent = await steadyCustomers(ctx, customerBody(STEADY_NAME), STEADY_RATE, STEADY_SECONDS);
    const steadyDelivered = await waitFor(steadyArrivals, sent);
    const latencies = steadyArrivals.map((a) => a.latencyMs).sort((a, b) => a - b);

    const allVerified = [...burstArrivals, ...steadyArrivals].every((a) => a.verified);
    return [
      { scenario: 'webhooks: signed delivery', metric: 'deliveries/s', value: perSecond, unit: 'deliveries/s', target: '>= 500', met: perSecond >= 500 },
      {
        scenario: 'webhooks: signed delivery',
        metric: 'backlog delivered / created',
        value: backlogDelivered,
        unit: `of ${created}`,
        target: `= ${created}`,
        met: backlogDelivered === created,
      },
      { scenario: 'webhooks: signed delivery', metric: 'signatures verified', value: allVerified ? 1 : 0, unit: 'all (1) / not all (0)', target: '= 1', met: allVerified },
      { scenario: `webhooks: ${STEADY_RATE} events/s`, metric: 'delivered / created', value: steadyDelivered, unit: `of ${sent}` },
      { scenario: `webhooks: ${STEADY_RATE} events/s`, metric: 'p50 commit→receiver', value: percentile(latencies, 0.5), unit: 'ms' },
      {
        scenario: `webhooks: ${STEADY_RATE} events/s`,
        metric: 'p99 commit→receiver',
        value: percentile(latencies, 0.99),
        unit: 'ms',
        target: '< 500',
        met: steadyDelivered >= sent && percentile(latencies, 0.99) < 500,
      },
    ];
  } finally {
    await config('PATCH', { webhookEndpoint: before.webhookEndpoint ?? null });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * The gateway starts listening (and answers /ready) before it has registered the sandbox token
 * from its environment, so the first call can meet a 401 for a moment: retried briefly.
 */
async function firstConfig(ctx: BenchContext): Promise<{ webhookEndpoint?: string; webhookPublicKey: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await fetch(`${ctx.baseUrl}/config`, { headers: { authorization: ctx.authorization } });
    if (response.ok) return (await response.json()) as { webhookEndpoint?: string; webhookPublicKey: string };
    if (response.status !== 401 || Date.now() > deadline) throw new Error(`GET /config: ${response.status} ${await response.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
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
