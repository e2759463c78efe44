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
 * Failed authentications: every failure is counted at once, per presented token id and per
 * client address. Past half a limit each failure is answered later (a step per failure); past
 * the limit the failure, and every later attempt with that token id or from that address even
 * with the right secret, answers 429 until the window ends. A replica learns of a lock from its
 * own failures' counts and from its reservations (which read the token's failure count).
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

  /** Before verifying credentials: refuses a token id or an address this replica knows is locked. */
  assertNotLocked(tokenId: string | undefined, address: string | undefined): void {
    // The common case, on every request: nothing locked, nothing to digest.
    if (this.locks.size === 0) return;
    const now = this.clock();
    for (const key of [tokenId === undefined ? undefined : this.tokenFailureKey(tokenId), address === undefined ? undefined : this.addressFailureKey(address)]) {
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
    const counted: Array<{ counter: WindowCounter; limit: number }> = [];
    if (perToken > 0 && tokenId !== undefined) counted.push({ counter: windowOf(this.tokenFailureKey(tokenId), now, seconds), limit: perToken });
    if (perAddress > 0) counted.push({ counter: windowOf(this.addressFailureKey(address), now, seconds), limit: perAddress });
    if (counted.length === 0) return;
    let totals: Map<string, number>;
    try {
      totals = await this.store.increment(counted.map(({ counter }) => counter));
    } catch (error) {
      // Counting must not turn a 401 into a 5xx: without the database the failure goes uncounted.
      this.logger.warn(`Failed authentication not counted: ${(error as Error).message}`);
      return;
    }
    let steps = 0;
    for (const { counter, limit } of counted) {
      const total = totals.get(counter.key) ?? 0;
      if (total > limit) {
        this.remember(this.locks, counter.key, counter.expiresAt.getTime());
        throw rateLimited('Too many failed authentications; retry later', counter.expiresAt.getTime(), now, { reason: 'AUTHENTICATION_FAILURES' });
      }
      steps = Math.max(steps, total - Math.floor(limit / 2));
    }
    if (steps > 0 && this.limits.authFailureDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(steps, MAX_DELAY_STEPS) * this.limits.authFailureDelayMs));
    }
  }

  /**
   * After a successful authentication: admits one request of `callerKey` (an API token or an
   * agent) or refuses it with 429; `tokenId` is the Basic token id, whose failure lock the
   * reservation reads on the way.
   */
  async admit(callerKey: string, tokenId?: string): Promise<void> {
    const { requestsPerWindow: limit, requestWindowSeconds: seconds } = this.limits;
    if (limit === 0) return;
    for (;;) {
      const now = this.clock();
      // A reservation may have learned that the token is locked by failures on another replica.
      if (tokenId !== undefined) this.assertNotLocked(tokenId, undefined);
      const counter = windowOf(`requests:${callerKey}`, now, seconds);
      let budget = this.budgets.get(callerKey);
      if (!budget || budget.windowStart !== counter.windowStart) {
        budget = { windowStart: counter.windowStart, remaining: 0, final: false };
        this.remember(this.budgets, callerKey, budget);
      }
      if (budget.remaining > 0) {
        budget.remaining -= 1;
        if (!budget.final && !budget.reserving && budget.remaining <= this.share() / 2) {
          this.startReserving(budget, counter, tokenId).catch((error: Error) => this.logger.warn(`Rate limit reservation failed: ${error.message}`));
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
        await (budget.reserving ?? this.startReserving(budget, counter, tokenId));
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
  private startReserving(budget: RequestBudget, counter: WindowCounter, tokenId: string | undefined): Promise<void> {
    const reserving: Promise<void> = this.reserve(budget, counter, tokenId).finally(() => {
      if (budget.reserving === reserving) budget.reserving = undefined;
    });
    budget.reserving = reserving;
    return reserving;
  }

  private async reserve(budget: RequestBudget, counter: WindowCounter, tokenId: string | undefined): Promise<void> {
    const limit = this.limits.requestsPerWindow;
    const share = this.share();
    const failures =
      tokenId !== undefined && this.limits.authFailuresPerToken > 0 ? windowOf(this.tokenFailureKey(tokenId), this.clock(), this.limits.authFailureWindowSeconds) : undefined;
    const { total, other } = await this.store.add(counter, share, failures);
    const granted = Math.max(0, Math.min(share, limit - (total - share)));
    budget.remaining += granted;
    if (total >= limit) budget.final = true;
    if (failures && other > this.limits.authFailuresPerToken) this.remember(this.locks, failures.key, failures.expiresAt.getTime());
  }

  private tokenFailureKey(tokenId: string): string {
    // Digests: a presented id is the caller's text (any length, any bytes).
    return `auth-failures:token:${digest(tokenId)}`;
  }

  private addressFailureKey(address: string): string {
    return `auth-failures:address:${digest(address)}`;
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
