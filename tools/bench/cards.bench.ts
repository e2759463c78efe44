import { connect } from 'nats';
import { Client } from 'pg';
import { CARDS_WORKER_CONSUMER } from '@paykit/contracts';
import { BenchContext, BenchFigure, LoadResult } from './bench-types';

/**
 * Card authorizations per second through the gateway: `simulate/authorization`, each one a
 * hold on the card's first funding source in the payments ledger. Spread over 1,000 cards
 * (200 cardholders with 5 cards each, so holds spread over 200 funding accounts), then all on one
 * card (every hold on one account row).
 */
const CARDHOLDERS = 200;
const CARDS_PER_CARDHOLDER = 5;
const SETUP_CONCURRENCY = 20;
const USDC = { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 };
/** 1 USDC per authorization against 1,000,000 USDC per account: no decline during the run. */
const AMOUNT = 1_000_000;
const FUNDING = 1_000_000_000_000;

export async function runCardsBench(ctx: BenchContext): Promise<BenchFigure[]> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${ctx.baseUrl}${path}`, {
      method,
      headers: { authorization: ctx.authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  const cardholder = async (index: number): Promise<string[]> => {
    const customer = await call<{ id: string }>('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Card Bench', email: `card-bench-${index}@example.com` });
    await call('POST', '/verifications', { customerId: customer.id });
    const wallet = await poll(async () => {
      const listed = await call<{ data: Array<{ id: string }> }>('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=EMBEDDED_WALLET`);
      return listed.data[0]?.id;
    });
    await call('POST', `/sandbox/internal-accounts/${wallet}/fund`, { amount: FUNDING });
    const cards: string[] = [];
    for (let i = 0; i < CARDS_PER_CARDHOLDER; i++) {
      const card = await call<{ id: string }>('POST', '/cards', {
        cardholderId: customer.id,
        platformCardId: `bench-${index}-${i}-900`,
        form: 'VIRTUAL',
        fundingSources: [wallet],
      });
      cards.push(card.id);
    }
    return cards;
  };

  const cardIds: string[] = [];
  for (let start = 0; start < CARDHOLDERS; start += SETUP_CONCURRENCY) {
    const batch = await Promise.all(Array.from({ length: Math.min(SETUP_CONCURRENCY, CARDHOLDERS - start) }, (_, i) => cardholder(start + i)));
    cardIds.push(...batch.flat());
  }

  const body = JSON.stringify({ amount: AMOUNT, currency: USDC, merchant: { descriptor: 'BENCH STORE 100', mcc: '5411', country: 'US' } });
  const headers = { authorization: ctx.authorization, 'content-type': 'application/json' };
  const url = (cardId: string) => `${ctx.baseUrl}/sandbox/cards/${cardId}/simulate/authorization`;
  const spreadLoad = { title: 'cards: authorization over 1,000 cards', url: url(cardIds[0]), urls: cardIds.map(url), method: 'POST' as const, headers, body };
  // Each process's peak memory under the load: what deploy/k8s requests and limits are set from.
  const memory = ctx.sampleMemory?.();
  const spread = await ctx.load(spreadLoad);
  const peaks = memory?.();
  // The same load with a second cards process (a replica, as Kubernetes scales it), in the same run.
  let twoReplicas: LoadResult | undefined;
  if (ctx.addReplica && ctx.removeReplica) {
    const replica = await ctx.addReplica('cards');
    twoReplicas = await ctx.load({ ...spreadLoad, title: 'cards: authorization over 1,000 cards, 2 cards replicas' });
    await ctx.removeReplica(replica);
  }
  const single = await ctx.load({ title: 'cards: authorization on one card', url: url(cardIds[0]), method: 'POST', headers, body });
  // The same spread load offered at the target rate, evenly spaced (an open loop over at most 50
  // connections, time waiting for one counted): the latency at 1,000 authorizations per second,
  // rather than with 50 callers always waiting.
  const paced = await ctx.load({
    title: 'cards: authorization at 1,000/s offered',
    url: url(cardIds[0]),
    urls: cardIds.map(url),
    method: 'POST',
    headers,
    body,
    overallRate: 1000,
  });

  const workQueue = ctx.env ? await delayedPullBacklog(ctx, cardIds.map(url), headers) : [];

  return [
    ...figuresOf('cards: authorization, 1,000 cards', spread, 1000),
    ...(twoReplicas ? figuresOf('cards: authorization, 2 cards replicas', twoReplicas) : []),
    ...figuresOf('cards: authorization, one card', single, 300),
    ...figuresOf('cards: 1,000/s offered, open loop', paced),
    ...[...(peaks ?? new Map<string, number>())].map(([name, mb]): BenchFigure => ({
      scenario: 'cards: peak memory under load',
      metric: name.replace(/^distributed-/, ''),
      value: mb,
      unit: 'MB',
    })),
    ...workQueue,
  ];
}

/**
 * The cards work queue under delayed pulls (descriptor 005: each authorization's pull comes ~30 s
 * later, scaled by SANDBOX_TIME_SCALE, from the scheduler through the `cards-worker` JetStream
 * consumer): a closed-loop load of such authorizations, then how long one cards process takes to
 * work off what it left. Sampled every 250 ms: the consumer's lag (pending plus unacknowledged
 * messages, what KEDA's nats-jetstream scaler reads) and the due jobs waiting in the scheduler.
 */
async function delayedPullBacklog(ctx: BenchContext, urls: string[], headers: Record<string, string>): Promise<BenchFigure[]> {
  const env = ctx.env!;
  const namespace = env.NATS_NAMESPACE;
  const stream = `${(namespace ?? 'PAYKIT').replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}_EVENTS`;
  const nc = await connect({ servers: [env.NATS_URL] });
  const jsm = await nc.jetstreamManager();
  const db = new Client({ connectionString: env.CARDS_DATABASE_URL });
  await db.connect();
  const backlog = async () => {
    const info = await jsm.consumers.info(stream, CARDS_WORKER_CONSUMER);
    const due = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM scheduled_job WHERE status IN ('PENDING', 'RUNNING') AND run_at <= now()`);
    const pending = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM card_transaction WHERE status = 'PENDING'`);
    return { lag: info.num_pending + info.num_ack_pending, due: due.rows[0].n, open: pending.rows[0].n };
  };
  let peakLag = 0;
  let peakDue = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const now = await backlog();
      peakLag = Math.max(peakLag, now.lag);
      peakDue = Math.max(peakDue, now.due);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const bodies = ['BENCH PULL 005'].map((descriptor) => JSON.stringify({ amount: AMOUNT, currency: USDC, merchant: { descriptor, mcc: '5411', country: 'US' } }));
  const load = await ctx.load({ title: 'cards: delayed-pull authorizations', url: urls[0], urls, method: 'POST', headers, bodies });
  const endedAt = Date.now();
  const left = await backlog();
  // Worked off: every delayed pull done (no card transaction PENDING any more), at most 3 minutes.
  while ((await backlog()).open > 0 && Date.now() - endedAt < 180_000) await new Promise((resolve) => setTimeout(resolve, 250));
  const drainMs = Date.now() - endedAt;
  sampling = false;
  await sampler;
  const done = await backlog();
  await db.end();
  await nc.close();
  const pulls = load.total;
  return [
    { scenario: 'cards: delayed pulls (work queue)', metric: 'authorizations', value: Math.round(load.requestsPerSecond), unit: 'req/s (each one a pull ~30 ms later)' },
    { scenario: 'cards: delayed pulls (work queue)', metric: 'peak consumer lag', value: peakLag, unit: `messages (${CARDS_WORKER_CONSUMER}: pending + unacknowledged)` },
    { scenario: 'cards: delayed pulls (work queue)', metric: 'peak due jobs', value: peakDue, unit: 'scheduled jobs due and not yet run' },
    { scenario: 'cards: delayed pulls (work queue)', metric: 'left at load end', value: left.open, unit: `pulls not done (lag ${left.lag}, due jobs ${left.due})` },
    {
      scenario: 'cards: delayed pulls (work queue)',
      metric: 'worked off after load',
      value: Math.round(left.open / Math.max(0.001, drainMs / 1000)),
      unit: `pulls/s by one cards process (${left.open} in ${(drainMs / 1000).toFixed(1)} s; ${done.open} of ${pulls} left)`,
    },
  ];
}

/** A closed loop's throughput has a target (`minimumRate`); an open loop's is the rate offered. */
function figuresOf(scenario: string, result: LoadResult, minimumRate?: number): BenchFigure[] {
  const throughput: BenchFigure = { scenario, metric: 'req/s', value: Math.round(result.requestsPerSecond), unit: 'req/s' };
  const figures: BenchFigure[] = [
    minimumRate === undefined ? throughput : { ...throughput, target: `>= ${minimumRate}`, met: result.requestsPerSecond >= minimumRate },
    { scenario, metric: 'p50', value: result.p50Ms, unit: 'ms' },
    { scenario, metric: 'p99', value: result.p99Ms, unit: 'ms', target: '< 50', met: result.p99Ms < 50 },
  ];
  if (result.cpu) figures.push({ scenario, metric: 'CPU per request', value: result.cpu.totalUs, unit: `us (${result.cpu.byProcess})` });
  if (result.non2xx + result.errors > 0) figures.push({ scenario, metric: 'failed requests', value: result.non2xx + result.errors, unit: 'requests', target: '0', met: false });
  return figures;
}

async function poll<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('cards bench setup: condition not met in time');
}
