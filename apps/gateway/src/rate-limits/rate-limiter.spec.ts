import { ServiceError } from '@paykit/errors';
import { GatewayConfig, loadGatewayConfig } from '../config/gateway-config';
import { RateLimiter } from './rate-limiter';
import { RateLimitStore, WindowCounter } from './rate-limit-store';

/** The store's statements over a Map: one shared instance plays the gateway's database. */
class MemoryStore {
  readonly hits = new Map<string, number>();
  statements = 0;

  private bump(counter: WindowCounter, amount: number): number {
    const key = `${counter.key}@${counter.windowStart}`;
    const total = (this.hits.get(key) ?? 0) + amount;
    this.hits.set(key, total);
    return total;
  }

  async add(counter: WindowCounter, amount: number): Promise<number> {
    this.statements++;
    await new Promise((resolve) => setImmediate(resolve));
    return this.bump(counter, amount);
  }

  async increment(counters: WindowCounter[]): Promise<Map<string, number>> {
    this.statements++;
    await new Promise((resolve) => setImmediate(resolve));
    return new Map(counters.map((counter) => [counter.key, this.bump(counter, 1)]));
  }

  async sweep(): Promise<void> {}
}

function limiter(store: MemoryStore, env: Record<string, string>, now: () => number): RateLimiter {
  const config: GatewayConfig = loadGatewayConfig({ AUTH_FAILURE_DELAY_MS: '0', ...env });
  const rateLimiter = new RateLimiter(store as unknown as RateLimitStore, config);
  rateLimiter.clock = now;
  return rateLimiter;
}

async function outcome(attempt: Promise<void>): Promise<'admitted' | number> {
  try {
    await attempt;
    return 'admitted';
  } catch (error) {
    return (error as ServiceError).status;
  }
}

describe(RateLimiter.name, () => {
  const at = 1_700_000_000_000;

  it('two replicas sharing one database never admit more than the limit in a window, and ask it once per share', async () => {
    const store = new MemoryStore();
    const replicas = [0, 1].map(() => limiter(store, { RATE_LIMIT_REQUESTS: '100', RATE_LIMIT_WINDOW_SECONDS: '10' }, () => at));
    const outcomes = await Promise.all(Array.from({ length: 400 }, (_, i) => outcome(replicas[i % 2].admit('token:tok_1'))));
    const admitted = outcomes.filter((each) => each === 'admitted').length;
    expect(admitted).toBeLessThanOrEqual(100);
    // At most one share (100 / 20) per replica goes unused.
    expect(admitted).toBeGreaterThanOrEqual(100 - 2 * 5);
    expect(outcomes.filter((each) => each !== 'admitted').every((each) => each === 429)).toBe(true);
    expect(store.statements).toBeLessThanOrEqual(100 / 5 + 4);
  });

  it('starts a token afresh in the next window', async () => {
    const store = new MemoryStore();
    let now = at - (at % 10_000);
    const replica = limiter(store, { RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '10' }, () => now);
    for (let i = 0; i < 3; i++) expect(await outcome(replica.admit('token:tok_1'))).toBe('admitted');
    await expect(replica.admit('token:tok_1')).rejects.toMatchObject({ code: 'RATE_LIMITED', headers: { 'Retry-After': '10' } });
    now += 10_000;
    expect(await outcome(replica.admit('token:tok_1'))).toBe('admitted');
  });

  const refusedForFailures = { code: 'RATE_LIMITED', details: { reason: 'AUTHENTICATION_FAILURES' } };

  it('locks the address that keeps failing for a token id, not the platform calling with it from elsewhere', async () => {
    const store = new MemoryStore();
    const replica = limiter(store, { AUTH_FAILURE_LIMIT_PER_TOKEN: '2', AUTH_FAILURE_LIMIT_PER_ADDRESS: '100' }, () => at);
    await replica.authenticationFailed('tok_1', '10.0.0.1');
    await replica.authenticationFailed('tok_1', '10.0.0.1');
    await expect(replica.authenticationFailed('tok_1', '10.0.0.1')).rejects.toMatchObject(refusedForFailures);
    expect(() => replica.assertNotLocked('tok_1', '10.0.0.1')).toThrow(ServiceError);
    expect(() => replica.assertNotLocked('tok_1', '10.0.0.2')).not.toThrow();
    expect(() => replica.assertNotLocked('tok_2', '10.0.0.1')).not.toThrow();
  });

  it('once a token id has failed past its limit from many addresses, locks each address that fails for it again, on any replica', async () => {
    const store = new MemoryStore();
    const [first, second] = [0, 1].map(() => limiter(store, { AUTH_FAILURE_LIMIT_PER_TOKEN: '2', AUTH_FAILURE_LIMIT_PER_ADDRESS: '100' }, () => at));
    await first.authenticationFailed('tok_1', '10.0.0.1');
    await second.authenticationFailed('tok_1', '10.0.0.2');
    await expect(first.authenticationFailed('tok_1', '10.0.0.3')).rejects.toMatchObject(refusedForFailures);
    await expect(second.authenticationFailed('tok_1', '10.0.0.4')).rejects.toMatchObject(refusedForFailures);
    expect(() => first.assertNotLocked('tok_1', '10.0.0.3')).toThrow(ServiceError);
    expect(() => second.assertNotLocked('tok_1', '10.0.0.4')).toThrow(ServiceError);
    // An address with no failures (the platform's) is still answered, on both replicas.
    expect(() => first.assertNotLocked('tok_1', '10.0.0.9')).not.toThrow();
    expect(() => second.assertNotLocked('tok_1', '10.0.0.9')).not.toThrow();
  });

  it('locks an address that fails with many token ids, for every token id, and no other address', async () => {
    const store = new MemoryStore();
    const replica = limiter(store, { AUTH_FAILURE_LIMIT_PER_TOKEN: '100', AUTH_FAILURE_LIMIT_PER_ADDRESS: '3' }, () => at);
    for (const tokenId of ['tok_a', 'tok_b', 'tok_c']) await replica.authenticationFailed(tokenId, '10.0.0.1');
    await expect(replica.authenticationFailed('tok_d', '10.0.0.1')).rejects.toMatchObject(refusedForFailures);
    expect(() => replica.assertNotLocked('tok_z', '10.0.0.1')).toThrow(ServiceError);
    expect(() => replica.assertNotLocked('tok_a', '10.0.0.2')).not.toThrow();
  });

  it('lifts a lock when its window ends', async () => {
    const store = new MemoryStore();
    let now = at - (at % 300_000);
    const replica = limiter(store, { AUTH_FAILURE_LIMIT_PER_TOKEN: '1' }, () => now);
    await replica.authenticationFailed('tok_1', '10.0.0.1');
    await expect(replica.authenticationFailed('tok_1', '10.0.0.1')).rejects.toMatchObject(refusedForFailures);
    now += 300_000;
    expect(() => replica.assertNotLocked('tok_1', '10.0.0.1')).not.toThrow();
  });

  it('keeps counting nothing and admitting everything when a limit is 0', async () => {
    const store = new MemoryStore();
    const replica = limiter(store, { RATE_LIMIT_REQUESTS: '0', AUTH_FAILURE_LIMIT_PER_TOKEN: '0', AUTH_FAILURE_LIMIT_PER_ADDRESS: '0' }, () => at);
    for (let i = 0; i < 50; i++) await replica.admit('token:tok_1');
    for (let i = 0; i < 50; i++) await replica.authenticationFailed('tok_1', '10.0.0.1');
    expect(store.statements).toBe(0);
  });
});
