import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ServiceError } from '@paykit/errors';
import { GatewayConfig, RateLimitConfig } from '../config/gateway-config';
import { GATEWAY_CONFIG } from '../http/tokens';
import { RateLimitStore, WindowCounter } from './rate-limit-store';

/** A replica's share of one token's window: requests it may still admit without asking the database. */
interface RequestBudget {
  windowStart: number;
  remaining: number;
  /** The global counter reached the limit: once `remaining` is spent, nothing more this window. */
  final: boolean;
  reserving?: Promise<void>;
}

const MAX_TRACKED_KEYS = 10_000;
const SWEEP_INTERVAL_MS = 60_000;
/** At most this many delay steps for a failed authentication. */
const MAX_DELAY_STEPS = 10;

function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);
}

function windowOf(key: string, nowMs: number, seconds: number): WindowCounter {
  const length = seconds * 1000;
  const windowStart = Math.floor(nowMs / length) * length;
  return { key, windowStart, expiresAt: new Date(windowStart + length) };
}

function rateLimited(message: string, untilMs: number, nowMs: number, details: Record<string, unknown>): ServiceError {
  const seconds = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  return new ServiceError('RATE_LIMITED', message, { ...details, retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) });
}

/**
 * Request rate per API token and brute-force protection, both counted across every gateway
 * replica in fixed windows of the gateway's database (RateLimitStore).
 *
 * Requests: a replica reserves a share of a token's window (a twentieth of the limit, at most
 * 1,000 requests) with one upsert, admits requests from it locally, and reserves the next share
 * when half is spent, so a request rarely waits for the database. A reservation grants only what
 * is left under the limit, so all replicas together never admit more than the limit in a window;
 * what a replica reserved and did not use is lost when the window ends (at most one share per
 * replica per window admitted less).
 *
 * Failed authentications are counted at once, in three counters: per address, per presented
 * token id from that address, and per token id from anywhere. Locks fall on the source of the
 * failures, never on the token: a token id is not secret (it is the Basic user name), so a lock
 * on it would let anyone shut its platform out. Past half a limit each failure is answered later
 * (a step per failure); past the limit the address (every token id from it), or the pair (that
 * token id from that address, even with the right secret), answers 429 until the window ends.
 * When one token id gathers more failures than its limit from many addresses, every address that
 * fails for it once more is locked for it: a spread-out guesser gets one guess per address, while
 * the platform, whose calls do not fail, is still answered (docs/decisions.md).
 */
@Injectable()
export class RateLimiter implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly limits: RateLimitConfig;
  private readonly budgets = new Map<string, RequestBudget>();
  /** Counter key -> epoch ms until which authentication is refused (locks this replica knows of). */
  private readonly locks = new Map<string, number>();
  private sweeper?: NodeJS.Timeout;
  /** The clock windows are cut from (replaceable in tests). */
  clock: () => number = Date.now;

  constructor(
    private readonly store: RateLimitStore,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.limits = config.rateLimits;
  }

  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => {
      this.store.sweep(new Date(this.clock())).catch((error: Error) => this.logger.warn(`Rate limit sweep failed: ${error.message}`));
    }, SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Before verifying credentials: refuses an address, or a token id from that address, this replica knows is locked. */
  assertNotLocked(tokenId: string | undefined, address: string): void {
    // The common case, on every request: nothing locked, nothing to digest.
    if (this.locks.size === 0) return;
    const now = this.clock();
    for (const key of [this.addressFailureKey(address), tokenId === undefined ? undefined : this.pairFailureKey(tokenId, address)]) {
      if (key === undefined) continue;
      const until = this.locks.get(key);
      if (until === undefined) continue;
      if (until > now) throw rateLimited('Too many failed authentications; retry later', until, now, { reason: 'AUTHENTICATION_FAILURES' });
      this.locks.delete(key);
    }
  }

  /** After a failed authentication: counts it; slows the answer past half a limit and refuses past the limit. */
  async authenticationFailed(tokenId: string | undefined, address: string): Promise<void> {
    const { authFailuresPerToken: perToken, authFailuresPerAddress: perAddress, authFailureWindowSeconds: seconds } = this.limits;
    const now = this.clock();
    const byAddress = perAddress > 0 ? windowOf(this.addressFailureKey(address), now, seconds) : undefined;
    const byPair = perToken > 0 && tokenId !== undefined ? windowOf(this.pairFailureKey(tokenId, address), now, seconds) : undefined;
    const byToken = perToken > 0 && tokenId !== undefined ? windowOf(this.tokenFailureKey(tokenId), now, seconds) : undefined;
    const counters = [byAddress, byPair, byToken].filter((counter): counter is WindowCounter => counter !== undefined);
    if (counters.length === 0) return;
    let totals: Map<string, number>;
    try {
      totals = await this.store.increment(counters);
    } catch (error) {
      // Counting must not turn a 401 into a 5xx: without the database the failure goes uncounted.
      this.logger.warn(`Failed authentication not counted: ${(error as Error).message}`);
      return;
    }
    const total = (counter: WindowCounter | undefined) => (counter ? (totals.get(counter.key) ?? 0) : 0);
    // The lock falls on the source: the address, or this token id from this address (also when
    // the token id is failing from everywhere at once).
    const lock = byAddress && total(byAddress) > perAddress ? byAddress : byPair && (total(byPair) > perToken || total(byToken) > perToken) ? byPair : undefined;
    if (lock) {
      this.remember(this.locks, lock.key, lock.expiresAt.getTime());
      throw rateLimited('Too many failed authentications; retry later', lock.expiresAt.getTime(), now, { reason: 'AUTHENTICATION_FAILURES' });
    }
    const steps = Math.max(total(byAddress) - Math.floor(perAddress / 2), total(byPair) - Math.floor(perToken / 2));
    if (steps > 0 && this.limits.authFailureDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(steps, MAX_DELAY_STEPS) * this.limits.authFailureDelayMs));
    }
  }

  /** After a successful authentication: admits one request of `callerKey` (an API token or an agent) or refuses it with 429. */
  async admit(callerKey: string): Promise<void> {
    const { requestsPerWindow: limit, requestWindowSeconds: seconds } = this.limits;
    if (limit === 0) return;
    for (;;) {
      const now = this.clock();
      const counter = windowOf(`requests:${callerKey}`, now, seconds);
      let budget = this.budgets.get(callerKey);
      if (!budget || budget.windowStart !== counter.windowStart) {
        budget = { windowStart: counter.windowStart, remaining: 0, final: false };
        this.remember(this.budgets, callerKey, budget);
      }
      if (budget.remaining > 0) {
        budget.remaining -= 1;
        if (!budget.final && !budget.reserving && budget.remaining <= this.share() / 2) {
          this.startReserving(budget, counter).catch((error: Error) => this.logger.warn(`Rate limit reservation failed: ${error.message}`));
        }
        return;
      }
      if (budget.final) {
        throw rateLimited('Too many requests for this API token; retry later', counter.expiresAt.getTime(), now, {
          reason: 'REQUEST_RATE',
          limit,
          windowSeconds: seconds,
        });
      }
      try {
        await (budget.reserving ?? this.startReserving(budget, counter));
      } catch (error) {
        // Without the database, requests are admitted rather than refused (and each one retries).
        this.logger.warn(`Rate limit reservation failed; request admitted: ${(error as Error).message}`);
        return;
      }
    }
  }

  /** A replica's share of a window: small enough to be fair between replicas, large enough to spare the database. */
  private share(): number {
    return Math.min(1000, Math.max(1, Math.floor(this.limits.requestsPerWindow / 20)));
  }

  /** One reservation at a time per budget; requests that find the budget empty wait for it. */
  private startReserving(budget: RequestBudget, counter: WindowCounter): Promise<void> {
    const reserving: Promise<void> = this.reserve(budget, counter).finally(() => {
      if (budget.reserving === reserving) budget.reserving = undefined;
    });
    budget.reserving = reserving;
    return reserving;
  }

  private async reserve(budget: RequestBudget, counter: WindowCounter): Promise<void> {
    const limit = this.limits.requestsPerWindow;
    const share = this.share();
    const total = await this.store.add(counter, share);
    const granted = Math.max(0, Math.min(share, limit - (total - share)));
    budget.remaining += granted;
    if (total >= limit) budget.final = true;
  }

  private tokenFailureKey(tokenId: string): string {
    // Digests: a presented id is the caller's text (any length, any bytes).
    return `auth-failures:token:${digest(tokenId)}`;
  }

  private addressFailureKey(address: string): string {
    return `auth-failures:address:${digest(address)}`;
  }

  private pairFailureKey(tokenId: string, address: string): string {
    // A separator no address holds: the pair (`a:b`, `c`) is never the pair (`a`, `b:c`).
    return `auth-failures:pair:${digest(`${address}\n${tokenId}`)}`;
  }

  /** Sets an entry, first dropping ended windows' entries when the map is large (bounded memory). */
  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    if (map.size >= MAX_TRACKED_KEYS && !map.has(key)) {
      const now = this.clock();
      for (const [each, entry] of map) {
        const until = typeof entry === 'number' ? entry : (entry as RequestBudget).windowStart + this.limits.requestWindowSeconds * 1000;
        if (until <= now) map.delete(each);
      }
      if (map.size >= MAX_TRACKED_KEYS) map.clear();
    }
    map.set(key, value);
  }
}
