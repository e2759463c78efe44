/** What a lookup found, and until when it may be served from the cache (never past the credential's own expiry). */
export interface Loaded<V> {
  value: V;
  expiresAt?: number;
}

export interface VerifiedCacheOptions {
  /** Backstop: an entry is served at most this long after it was read, in case an invalidation is missed. 0: no caching. */
  ttlMs: number;
  maxEntries: number;
  /** Real time in ms (injected by tests). */
  now?: () => number;
}

/**
 * One gateway replica's cache of verified credentials, kept right by invalidations
 * (AuthInvalidations): `invalidate` drops entries at once, and a lookup that was in flight
 * across an invalidation (the generation moved) is answered but not kept, since it may have read
 * the row before the change committed. While invalidations may be missed (`suspend`, the
 * listener is down) nothing is served or kept.
 */
export class VerifiedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private generation = 0;
  private live = true;
  private readonly now: () => number;

  constructor(private readonly options: VerifiedCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The cached value of `key`, or what `load` reads now (undefined: nothing valid, never cached). */
  async get(key: string, load: () => Promise<Loaded<V> | undefined>): Promise<V | undefined> {
    const now = this.now();
    const cached = this.entries.get(key);
    if (cached && this.live && cached.until > now) return cached.value;
    if (cached) this.entries.delete(key);
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return undefined;
    if (this.live && this.options.ttlMs > 0 && generation === this.generation) {
      const until = Math.min(now + this.options.ttlMs, loaded.expiresAt ?? Infinity);
      if (this.entries.size >= this.options.maxEntries) this.entries.clear();
      this.entries.set(key, { value: loaded.value, until });
    }
    return loaded.value;
  }

  /** Drops every entry `matches` selects (every entry without one); lookups in flight are not kept. */
  invalidate(matches?: (key: string, value: V) => boolean): void {
    this.generation++;
    if (!matches) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) if (matches(key, entry.value)) this.entries.delete(key);
  }

  /** Invalidations may be missed from now on: serve and keep nothing. */
  suspend(): void {
    this.live = false;
    this.invalidate();
  }

  /** Invalidations arrive again: start afresh (whatever was missed meanwhile is forgotten). */
  resume(): void {
    this.invalidate();
    this.live = true;
  }

  get size(): number {
    return this.entries.size;
  }
}
