import { Loaded, VerifiedCache } from './verified-cache';

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe(VerifiedCache.name, () => {
  let now: number;
  const cache = (ttlMs = 5_000, maxEntries = 100): VerifiedCache<string> => new VerifiedCache<string>({ ttlMs, maxEntries, now: () => now });
  beforeEach(() => (now = 1_000_000));

  it('serves a verification from memory until the backstop TTL, then reads again', async () => {
    const verified = cache();
    const load = jest.fn(async (): Promise<Loaded<string>> => ({ value: `read at ${now}` }));
    expect(await verified.get('k', load)).toBe('read at 1000000');
    now += 4_999;
    expect(await verified.get('k', load)).toBe('read at 1000000');
    now += 1;
    expect(await verified.get('k', load)).toBe('read at 1005000');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("never serves an entry past the credential's own expiry", async () => {
    const verified = cache();
    const load = jest.fn(async (): Promise<Loaded<string>> => ({ value: 'v', expiresAt: now + 1_000 }));
    await verified.get('k', load);
    now += 1_000;
    await verified.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing a lookup did not find, and nothing with a TTL of 0', async () => {
    const load = jest.fn(async (): Promise<Loaded<string> | undefined> => undefined);
    const verified = cache();
    expect(await verified.get('k', load)).toBeUndefined();
    expect(verified.size).toBe(0);
    const off = cache(0);
    await off.get('k', async () => ({ value: 'v' }));
    expect(off.size).toBe(0);
  });

  it('drops only the entries an invalidation selects', async () => {
    const verified = cache();
    await verified.get('a', async () => ({ value: 'agent-1' }));
    await verified.get('b', async () => ({ value: 'agent-2' }));
    verified.invalidate((_key, value) => value === 'agent-1');
    const load = jest.fn(async () => ({ value: 'fresh' }));
    expect(await verified.get('a', load)).toBe('fresh');
    expect(await verified.get('b', load)).toBe('agent-2');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('answers but does not keep a lookup that raced an invalidation (it may have read the row before the change committed)', async () => {
    const verified = cache();
    const read = deferred<Loaded<string>>();
    const racing = verified.get('k', () => read.promise);
    verified.invalidate((key) => key === 'other');
    read.resolve({ value: 'before the change' });
    expect(await racing).toBe('before the change');
    expect(verified.size).toBe(0);
    const load = jest.fn(async () => ({ value: 'after the change' }));
    expect(await verified.get('k', load)).toBe('after the change');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('serves and keeps nothing while suspended, and starts empty on resume (a reconnected listener may have missed changes)', async () => {
    const verified = cache();
    await verified.get('k', async () => ({ value: 'old' }));
    verified.suspend();
    const load = jest.fn(async () => ({ value: 'read' }));
    await verified.get('k', load);
    await verified.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(verified.size).toBe(0);

    // A lookup in flight across the resume is not kept either.
    const read = deferred<Loaded<string>>();
    const racing = verified.get('k', () => read.promise);
    verified.resume();
    read.resolve({ value: 'read while suspended' });
    await racing;
    expect(verified.size).toBe(0);
    await verified.get('k', load);
    await verified.get('k', load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('stays within its size bound', async () => {
    const verified = cache(5_000, 2);
    for (const key of ['a', 'b', 'c']) await verified.get(key, async () => ({ value: key }));
    expect(verified.size).toBeLessThanOrEqual(2);
  });
});
