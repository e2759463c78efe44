import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { INCOMING_SUBJECTS, tenantContext, tenantEnvironment } from '@paykit/contracts';
import { backoffAfter, Clock, DeadLetterStore, idlePollMs, isTransientFailure, StatementBatcher } from '@paykit/persistence';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../config/webhooks-config';
import { signatureHeader } from '../signing/webhook-signature';
import { WebhookConfigService } from '../webhook-config/webhook-config.service';
import { AttemptRecord, ClaimedDelivery, DeliveriesRepository, DELIVERY_WORKER, LeaseTerms, RecordedAttempt } from './deliveries.repository';
import { DeliveryFaults } from './delivery-faults';
import { isRetried, nextRetryAt } from './retry-schedule';
import { AttemptOutcome, sendWebhook } from './webhook-sender';

/** Idle poll: picks up retries, other replicas' expired leases and anything a kick missed. */
const POLL_MS = 2_000;
/** Retry times kept for a timely wake-up; later ones are found by the poll. */
const MAX_WAKE_TIMES = 10_000;
/**
 * Wake-ups (retry times, new deliveries the inbox could not lease) are at least this far apart
 * while claims find nothing to lease, so a backlog behind a failing receiver (retries spread by
 * jitter, followers stored behind their resource's pending head) shares claims rather than runs
 * one each: a claim reads the whole due backlog.
 */
const WAKE_SPACING_MS = 100;
/**
 * Slots freed by failed attempts, while others are still out, gather this long (or until a quarter
 * of a platform's slots are free) before they are claimed: a claim reads the due backlog, and one
 * per failure costs more than the attempts it starts when a receiver fails fast (in embedded mode,
 * more than the whole single database session has).
 */
const CLAIM_GATHER_MS = 20;
/** The webhook whose answer is a decision on an incoming payment (200 approves, 403 rejects). */
const DECISION_WEBHOOK_TYPE = 'INCOMING_PAYMENT.PENDING';

/** Attempts recorded by one statement at most. */
const RECORD_BATCH = 64;
/** On shutdown, attempts in flight get this long to finish before they are interrupted (and retried later). */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * Delivers webhooks from the delivery table: durable (rows, not memory), at least once, with a
 * lease per attempt (FOR UPDATE-free conditional claim, so replicas never attempt one delivery
 * twice while a lease holds; a new delivery that can go out at once is leased as it is stored).
 * The network call happens outside any transaction; its outcome is recorded afterwards in one
 * statement, with the others that ended together. Concurrency is bounded per platform (so a
 * hanging receiver only ever holds its own platform's slots) and per process.
 *
 * A receiver's failures follow the retry schedule (retry-schedule.ts: the guide's, including what is never retried). A delivery that cannot even
 * be attempted (an error of ours, not the receiver's) is postponed with backoff; when the error is
 * not transient and repeats `maxAttempts` times, the delivery is parked (FAILED, plus a dead letter:
 * `npm run dead-letters -- replay` makes it due again), so it neither spins nor holds up its
 * resource's later webhooks.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly attempts = new Set<Promise<void>>();
  /** Leased deliveries whose receiver has answered, their attempt still being recorded: their slot is free. */
  private readonly answered = new Set<string>();
  /** Deliveries that could not be attempted: how often in a row, since when (in memory: a restart counts afresh). */
  private readonly unattemptable = new Map<string, { failures: number; firstFailedAt: Date }>();
  private readonly shutdown = new AbortController();
  private inFlight = 0;
  private stopped = true;
  private passing = false;
  private again = false;
  /** The pass in progress, if any. */
  private current?: Promise<void>;
  private pollTimer?: NodeJS.Timeout;
  /** The leasing statement in progress (they run one at a time). */
  private leasing: Promise<unknown> = Promise.resolve();
  private wake?: { at: number; timer: NodeJS.Timeout };
  /** When the last wake-up fired (real time). */
  private lastWakeAt = 0;
  /**
   * Whether the last claim left due deliveries behind for want of room: only then is a slot freed
   * by a failed attempt worth a claim. Otherwise due work appears only by the events that kick
   * for themselves (a stored delivery, a settled one freeing its resource's next, a retry time,
   * a redelivery), and a receiver failing fast does not set off one claim per failure.
   */
  private dueWaitingForRoom = true;
  /** Whether the last claim leased anything: while claims lease, a possible new due delivery is claimed at once. */
  private lastClaimLeased = true;
  /** Slots freed (receivers answered) since the last claim began. */
  private freedSinceClaim = 0;
  /** Freed slots that are claimed at once rather than after CLAIM_GATHER_MS. */
  private readonly claimBatch: number;
  private gatherTimer?: NodeJS.Timeout;
  /** Retry times of this worker's failed attempts, earliest first. */
  private readonly wakeTimes: number[] = [];
  /** Attempts that end together are recorded by one statement. */
  private readonly recorder = new StatementBatcher<AttemptRecord, RecordedAttempt>({
    run: (records) => this.deliveries.recordAttempts(records),
    keyOf: (record) => record.deliveryId,
    maxBatch: RECORD_BATCH,
    maxInFlight: 2,
  });

  private readonly idlePollMs: number;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly platforms: WebhookConfigService,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: Clock,
    private readonly faults: DeliveryFaults,
    @Optional() @Inject(RUNTIME_CONFIG) runtime?: RuntimeConfig,
  ) {
    this.idlePollMs = runtime ? idlePollMs(runtime, POLL_MS) : POLL_MS;
    this.claimBatch = Math.ceil(config.maxConcurrencyPerPlatform / 4);
    deadLetters.onReplay('webhook-delivery', DELIVERY_WORKER, async (letter) => {
      await this.deliveries.revive(letter.messageId, Clock.real());
      this.kick();
    });
    // An advanced test clock is answered once the retries it made due have started.
    clock.onAdvance(async (_platformId, store) => {
      await store();
      this.kick();
      while (this.current) await this.current;
    });
  }

  onApplicationBootstrap(): void {
    // Every attempt in flight listens for shutdown on this one signal.
    setMaxListeners(0, this.shutdown.signal);
    this.stopped = false;
    this.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    clearTimeout(this.gatherTimer);
    if (this.wake) clearTimeout(this.wake.timer);
    // A pass in progress starts nothing once stopped; then attempts in flight get a grace period.
    while (this.passing) await new Promise((resolve) => setTimeout(resolve, 5));
    await this.leasing;
    const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
    await Promise.race([Promise.allSettled([...this.attempts]), grace]);
    this.shutdown.abort();
    await Promise.allSettled([...this.attempts]);
  }

  /**
   * Deliveries may have come due (stored but not leased at once): claimed now while claims
   * lease, otherwise at the next wake-up (within WAKE_SPACING_MS).
   */
  lookSoon(): void {
    if (this.lastClaimLeased) this.kick();
    else this.wakeAt(Clock.real());
  }

  /** Look for due deliveries now (one settled and freed its resource's next, a slot freed for work waiting, a redelivery). */
  kick(): void {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    clearTimeout(this.pollTimer);
    const pass = this.pass().finally(() => {
      if (this.current === pass) this.current = undefined;
    });
    this.current = pass;
  }

  /**
   * A claim for slots freed by failed attempts: now when enough have gathered or no other attempt
   * is still waiting for its receiver (nothing more would gather), else after CLAIM_GATHER_MS.
   */
  private claimFreedSlots(): void {
    if (this.freedSinceClaim >= this.claimBatch || this.answered.size >= this.inFlight) {
      this.kick();
    } else if (!this.gatherTimer && !this.stopped) {
      this.gatherTimer = setTimeout(() => {
        this.gatherTimer = undefined;
        this.kick();
      }, CLAIM_GATHER_MS);
    }
  }

  private async pass(): Promise<void> {
    this.passing = true;
    try {
      do {
        this.again = false;
        if (this.inFlight < this.config.maxConcurrency) await this.claimAndStart();
      } while (this.again && !this.stopped);
    } catch (error) {
      if (!this.stopped) this.logger.warn(`Webhook delivery poll failed: ${(error as Error).message}`);
    } finally {
      this.passing = false;
      if (!this.stopped) this.pollTimer = setTimeout(() => this.kick(), this.idlePollMs);
    }
  }

  private claimAndStart(): Promise<void> {
    return this.lease(async (terms) => {
      // This claim serves every slot freed so far (the inbox's leasing statement serves new deliveries only).
      this.freedSinceClaim = 0;
      clearTimeout(this.gatherTimer);
      this.gatherTimer = undefined;
      const claim = await this.deliveries.claimDue(terms);
      this.dueWaitingForRoom = claim.waitingForRoom;
      this.lastClaimLeased = claim.leased.length > 0;
      return { leased: claim.leased, result: undefined };
    });
  }

  /**
   * Runs a statement that leases deliveries — the claim of due ones, or the inbox storing new
   * ones that can go out at once — one at a time in this process, so the room per platform each
   * counts in the database includes what the previous one leased; then starts what it leased.
   */
  lease<T>(statement: (terms: LeaseTerms) => Promise<{ leased: ClaimedDelivery[]; result: T }>): Promise<T> {
    const turn = this.leasing.then(async () => {
      const now = Clock.real();
      const terms: LeaseTerms = {
        now,
        leaseToken: randomUUID(),
        // A crashed worker's deliveries come back once their lease expires.
        leaseUntil: new Date(now.getTime() + this.config.deliveryTimeoutMs + this.config.leaseMarginMs),
        perPlatform: this.config.maxConcurrencyPerPlatform,
        limit: this.stopped ? 0 : this.config.maxConcurrency - this.inFlight,
        answered: [...this.answered],
      };
      const { leased, result } = await statement(terms);
      if (this.stopped) await Promise.all(leased.map((delivery) => this.deliveries.release(delivery.id, terms.leaseToken)));
      else for (const delivery of leased) this.start(delivery, terms.leaseToken);
      return result;
    });
    this.leasing = turn.catch(() => undefined);
    return turn;
  }

  private start(delivery: ClaimedDelivery, leaseToken: string): void {
    this.inFlight += 1;
    const attempt = this.attempt(delivery, leaseToken)
      .then(
        (retryScheduled) => {
          this.unattemptable.delete(delivery.id);
          return retryScheduled;
        },
        // Not recorded at all (the database is away): the lease expires and the delivery comes back.
        (error: unknown) =>
          this.notAttempted(delivery, leaseToken, error).then(
            () => false,
            (recording: unknown) => {
              this.logger.warn(`Webhook delivery ${delivery.id} could not be attempted nor given back: ${(recording as Error).message}`);
              return false;
            },
          ),
      )
      .then((retryScheduled) => {
        this.attempts.delete(attempt);
        this.inFlight -= 1;
        // A delivery that left the queue may free its resource's next one; a retry only frees a slot.
        if (!retryScheduled) this.kick();
        else if (this.dueWaitingForRoom) this.claimFreedSlots();
      });
    this.attempts.add(attempt);
  }

  /** One attempt, recorded; true when the delivery stays queued for another attempt (its wake-up is armed). */
  private async attempt(delivery: ClaimedDelivery, leaseToken: string): Promise<boolean> {
    const endpoint = delivery.endpointUrl;
    // Attempts and their retry times are in the platform's time (its test clock may be ahead).
    const offsetMs = await this.clock.offsetMs(delivery.platformId);
    const attemptedAt = new Date(Clock.real().getTime() + offsetMs);
    const notSent = (error: string): AttemptOutcome => ({ attemptedAt, latencyMs: 0, error, succeeded: false });
    let outcome: AttemptOutcome;
    const injected = endpoint && tenantEnvironment(delivery.platformId) === 'sandbox' ? await this.faults.take(delivery.platformId) : undefined;
    if (!endpoint) {
      outcome = notSent('No webhook endpoint is configured');
    } else if (injected) {
      // A sandbox fault (POST /sandbox/faults): the attempt fails as if the receiver had answered so.
      outcome = {
        attemptedAt,
        latencyMs: 0,
        statusCode: injected.status,
        error: `Injected sandbox fault ${injected.id}: not sent, recorded as answered ${injected.status}`,
        succeeded: false,
      };
    } else {
      const signature = await this.platforms.signingKey(delivery.platformId).then(
        (key) => signatureHeader(key, delivery.body),
        // Recorded and retried on the schedule rather than spinning (e.g. a changed key-encryption key).
        (error: unknown) => new Error(`The signing key could not be opened: ${(error as Error).message}`),
      );
      outcome =
        signature instanceof Error
          ? notSent(signature.message)
          : await sendWebhook({
              url: endpoint,
              body: delivery.body,
              signature,
              timeoutMs: this.config.deliveryTimeoutMs,
              signal: this.shutdown.signal,
              keepResponseBody: delivery.type === DECISION_WEBHOOK_TYPE,
            }).then((sent) => ({ ...sent, attemptedAt }));
    }
    // An incoming payment's PENDING webhook asks for a decision: 403 is the platform's answer (a rejection), not a failed delivery.
    const decision = delivery.type === DECISION_WEBHOOK_TYPE && (outcome.statusCode === 200 || outcome.statusCode === 403) ? outcome.statusCode : undefined;
    if (decision === 403) outcome = { attemptedAt: outcome.attemptedAt, latencyMs: outcome.latencyMs, statusCode: 403, succeeded: true };
    // The receiver is free for the next delivery while this attempt is recorded.
    this.answered.add(delivery.id);
    this.freedSinceClaim += 1;
    // A receiver that answers is claimed for at once; one that fails, after freed slots gather.
    if (this.dueWaitingForRoom) {
      if (outcome.succeeded) this.kick();
      else this.claimFreedSlots();
    }
    let next: Date | undefined;
    try {
      next = await this.record(delivery, leaseToken, endpoint ?? '', outcome);
    } finally {
      this.answered.delete(delivery.id);
    }
    this.logger.debug(
      `Webhook ${delivery.id} ${delivery.type}: ${outcome.succeeded ? 'delivered' : `attempt failed (${outcome.error})`} in ${outcome.latencyMs} ms` +
        (next ? `, next attempt at ${next.toISOString()}` : ''),
    );
    // The wake-up timer runs on real time.
    if (next) this.wakeAt(new Date(next.getTime() - offsetMs));
    if (decision !== undefined) await this.reportDecision(delivery, decision === 200, outcome.responseBody);
    return next !== undefined;
  }

  /** A delivery that could not be attempted: postponed with backoff, or parked once a non-transient error has repeated enough. */
  private async notAttempted(delivery: ClaimedDelivery, leaseToken: string, error: unknown): Promise<void> {
    const transient = isTransientFailure(error);
    const failing = this.unattemptable.get(delivery.id) ?? { failures: 0, firstFailedAt: Clock.real() };
    failing.failures += 1;
    this.unattemptable.set(delivery.id, failing);
    if (!transient && failing.failures >= this.deadLetters.policy.maxAttempts) {
      this.unattemptable.delete(delivery.id);
      await this.deliveries.park(delivery, leaseToken, this.deadLetters, { error, attempts: failing.failures, firstFailedAt: failing.firstFailedAt });
      return;
    }
    const retryAt = new Date(Clock.real().getTime() + backoffAfter(this.deadLetters.policy, failing.failures));
    this.logger.warn(`Webhook delivery ${delivery.id} could not be attempted (${failing.failures}${transient ? ', transient' : ''}): ${(error as Error).message}`);
    await this.deliveries.postpone(delivery.id, leaseToken, retryAt);
    this.wakeAt(retryAt);
  }

  /**
   * Tells payments the platform's answer, after the attempt is recorded. A failure is logged, not
   * retried: the platform can still decide through the API, and the payment's deadline stands.
   */
  private async reportDecision(delivery: ClaimedDelivery, approved: boolean, responseBody: string | undefined): Promise<void> {
    try {
      const transactionId = (JSON.parse(delivery.body) as { data?: { id?: unknown } }).data?.id;
      if (typeof transactionId !== 'string') return;
      let receiverCustomerInfo: Record<string, unknown> | undefined;
      try {
        const answer = responseBody ? (JSON.parse(responseBody) as unknown) : undefined;
        const info = answer && typeof answer === 'object' ? (answer as { receiverCustomerInfo?: unknown }).receiverCustomerInfo : undefined;
        if (info && typeof info === 'object' && !Array.isArray(info)) receiverCustomerInfo = info as Record<string, unknown>;
      } catch {
        // An answer that is not JSON approves without receiver data.
      }
      await this.services.request(
        INCOMING_SUBJECTS.webhookDecision,
        { transactionId, approved, ...(receiverCustomerInfo ? { receiverCustomerInfo } : {}) },
        tenantContext(delivery.platformId, `webhook:${delivery.id}`),
      );
    } catch (error) {
      this.logger.warn(`Webhook ${delivery.id}: the platform's decision could not be passed on: ${(error as Error).message}`);
    }
  }

  /** Records the attempt and moves the delivery on (delivered, retry later, or failed); returns the next attempt time if any. */
  private async record(delivery: ClaimedDelivery, leaseToken: string, endpoint: string, outcome: AttemptOutcome): Promise<Date | undefined> {
    const now = Clock.real();
    let next: AttemptRecord['next'];
    if (outcome.succeeded) {
      next = { status: 'SUCCEEDED', nextAttemptAt: null, roundFailures: 0, roundStartedAt: delivery.roundStartedAt };
    } else {
      const roundStartedAt = delivery.roundStartedAt ?? outcome.attemptedAt;
      const failures = delivery.roundFailures + 1;
      // Counted from when the attempt started, not from its recording: an attempt begun before the
      // window closed is followed by one when it closes, however long the attempt took. A 409, a
      // TEST webhook and an incoming payment's PENDING one are not retried (the guide's policy).
      const retryAt = isRetried(delivery.type, outcome.statusCode) ? nextRetryAt(this.config, failures, roundStartedAt, outcome.attemptedAt) : undefined;
      next = { status: retryAt ? 'PENDING' : 'FAILED', nextAttemptAt: retryAt ?? null, roundFailures: failures, roundStartedAt };
    }
    const { effect, number } = await this.recorder.add({
      deliveryId: delivery.id,
      leaseToken,
      claimedRedeliverRequestedAt: delivery.redeliverRequestedAt,
      trigger: delivery.redeliverRequestedAt ? 'MANUAL' : 'SCHEDULED',
      attemptedAt: outcome.attemptedAt,
      endpoint,
      statusCode: outcome.statusCode ?? null,
      latencyMs: outcome.latencyMs,
      error: outcome.error ?? null,
      succeeded: outcome.succeeded,
      now,
      next,
    });
    // A redelivery requested while this attempt was in flight is due now.
    if (effect === 'REDELIVERY_REQUESTED') return now;
    if (effect === 'LEASE_LOST') return undefined;
    if (next.status === 'FAILED') this.logger.warn(`Webhook ${delivery.id} ${delivery.type} failed for good after ${number} attempts: ${outcome.error}`);
    return next.nextAttemptAt ?? undefined;
  }

  /**
   * Arms a kick for a retry time, so scaled sandbox retries happen on time rather than at the next
   * poll. Every pending time is kept (one timer, for the earliest): a retry due after another
   * one is not left to the poll.
   */
  private wakeAt(at: Date): void {
    if (this.stopped) return;
    const when = at.getTime();
    const index = this.wakeTimes.findIndex((time) => time > when);
    if (index < 0) this.wakeTimes.push(when);
    else this.wakeTimes.splice(index, 0, when);
    // The latest times beyond the cap are left to the poll.
    if (this.wakeTimes.length > MAX_WAKE_TIMES) this.wakeTimes.pop();
    this.armWake();
  }

  private armWake(): void {
    const next = this.wakeTimes[0];
    if (next === undefined || this.stopped || this.wake?.at === next) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = setTimeout(
      () => {
        this.wake = undefined;
        this.lastWakeAt = Clock.real().getTime();
        while (this.wakeTimes.length > 0 && this.wakeTimes[0] <= Clock.real().getTime()) this.wakeTimes.shift();
        this.kick();
        this.armWake();
      },
      Math.max(0, next - Clock.real().getTime(), this.lastWakeAt + WAKE_SPACING_MS - Clock.real().getTime()) + 1,
    );
    this.wake = { at: next, timer };
  }
}
