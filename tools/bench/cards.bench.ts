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
      const card = await call<{ id: string }>('POST', '/cards', { cardholderId: customer.id, platformCardId: `bench-${index}-${i}-900`, form: 'VIRTUAL', fundingSources: [wallet] });
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
  const spread = await ctx.load({ title: 'cards: authorization over 1,000 cards', url: url(cardIds[0]), urls: cardIds.map(url), method: 'POST', headers, body });
  const single = await ctx.load({ title: 'cards: authorization on one card', url: url(cardIds[0]), method: 'POST', headers, body });
  // The same spread load offered at the target rate, evenly spaced (an open loop over at most 50
  // connections, time waiting for one counted): the latency at 1,000 authorizations per second,
  // rather than with 50 callers always waiting.
  const paced = await ctx.load({ title: 'cards: authorization at 1,000/s offered', url: url(cardIds[0]), urls: cardIds.map(url), method: 'POST', headers, body, overallRate: 1000 });

  return [
    ...figuresOf('cards: authorization, 1,000 cards', spread, 1000),
    ...figuresOf('cards: authorization, one card', single, 300),
    ...figuresOf('cards: 1,000/s offered, open loop', paced),
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
