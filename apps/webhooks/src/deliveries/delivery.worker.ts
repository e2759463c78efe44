import { randomUUID } from 'node:crypto';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { TransactionRunner } from '@paykit/persistence';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../config/webhooks-config';
import { signatureHeader } from '../signing/webhook-signature';
import { WebhookConfigService } from '../webhook-config/webhook-config.service';
import { ClaimedDelivery, DeliveriesRepository } from './deliveries.repository';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { nextRetryAt } from './retry-schedule';
import { AttemptOutcome, sendWebhook } from './webhook-sender';

/** Idle poll: picks up retries, other replicas' expired leases and anything a kick missed. */
const POLL_MS = 250;
/** A lease outlives the attempt's timeout by this much; a crashed worker's deliveries come back after it. */
const LEASE_MARGIN_MS = 20_000;
/** On shutdown, attempts in flight get this long to finish before they are interrupted (and retried later). */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * Delivers webhooks from the delivery table: durable (rows, not memory), at least once, with a
 * lease per attempt (FOR UPDATE-free conditional claim, so replicas never attempt one delivery
 * twice while a lease holds). The network call happens outside any transaction; its outcome is
 * recorded afterwards in one. Concurrency is bounded per platform (so a hanging receiver only
 * ever holds its own platform's slots) and per process.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly inFlightByPlatform = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private inFlight = 0;
  private stopped = true;
  private passing = false;
  private again = false;
  private pollTimer?: NodeJS.Timeout;
  private wake?: { at: number; timer: NodeJS.Timeout };

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly platforms: WebhookConfigService,
    private readonly transactions: TransactionRunner,
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    if (this.wake) clearTimeout(this.wake.timer);
    // A pass in progress starts nothing once stopped; then attempts in flight get a grace period.
    while (this.passing) await new Promise((resolve) => setTimeout(resolve, 5));
    const grace = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref());
    await Promise.race([Promise.allSettled([...this.attempts]), grace]);
    this.shutdown.abort();
    await Promise.allSettled([...this.attempts]);
  }

  /** Look for due deliveries now (a new delivery was stored, or a slot freed up). */
  kick(): void {
    if (this.stopped) return;
    if (this.passing) {
      this.again = true;
      return;
    }
    clearTimeout(this.pollTimer);
    void this.pass();
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
      if (!this.stopped) this.pollTimer = setTimeout(() => this.kick(), POLL_MS);
    }
  }

  private async claimAndStart(): Promise<void> {
    const now = new Date();
    const perPlatform = this.config.maxConcurrencyPerPlatform;
    const due = await this.deliveries.due(now, perPlatform);
    const chosen: string[] = [];
    const taken = new Map<string, number>();
    let room = this.config.maxConcurrency - this.inFlight;
    for (const candidate of due) {
      if (room <= 0) break;
      // In flight across every replica (leases in the database) or locally, whichever is more.
      const busy = Math.max(candidate.inFlight, this.inFlightByPlatform.get(candidate.platformId) ?? 0) + (taken.get(candidate.platformId) ?? 0);
      if (busy >= perPlatform) continue;
      taken.set(candidate.platformId, (taken.get(candidate.platformId) ?? 0) + 1);
      chosen.push(candidate.id);
      room -= 1;
    }
    if (chosen.length === 0) return;
    const leaseToken = randomUUID();
    const claimed = await this.deliveries.claim(chosen, now, new Date(now.getTime() + this.config.deliveryTimeoutMs + LEASE_MARGIN_MS), leaseToken);
    if (this.stopped) {
      await Promise.all(claimed.map((delivery) => this.deliveries.release(delivery.id, leaseToken)));
      return;
    }
    for (const delivery of claimed) this.start(delivery, leaseToken);
    // A full batch suggests more is due.
    if (claimed.length > 0) this.again = true;
  }

  private start(delivery: ClaimedDelivery, leaseToken: string): void {
    this.inFlight += 1;
    this.inFlightByPlatform.set(delivery.platformId, (this.inFlightByPlatform.get(delivery.platformId) ?? 0) + 1);
    const claimedAt = new Date();
    const attempt = this.attempt(delivery, leaseToken, claimedAt)
      .catch(async (error: unknown) => {
        this.logger.error(`Webhook delivery ${delivery.id} could not be attempted: ${(error as Error).message}`);
        await this.deliveries.release(delivery.id, leaseToken).catch(() => undefined);
      })
      .finally(() => {
        this.attempts.delete(attempt);
        this.inFlight -= 1;
        const left = (this.inFlightByPlatform.get(delivery.platformId) ?? 1) - 1;
        if (left > 0) this.inFlightByPlatform.set(delivery.platformId, left);
        else this.inFlightByPlatform.delete(delivery.platformId);
        this.kick();
      });
    this.attempts.add(attempt);
  }

  private async attempt(delivery: ClaimedDelivery, leaseToken: string, claimedAt: Date): Promise<void> {
    const endpoint = delivery.endpointUrl;
    const notSent = (error: string): AttemptOutcome => ({ attemptedAt: new Date(), latencyMs: 0, error, succeeded: false });
    let outcome: AttemptOutcome;
    if (!endpoint) {
      outcome = notSent('No webhook endpoint is configured');
    } else {
      const signature = await this.platforms.signingKey(delivery.platformId).then(
        (key) => signatureHeader(key, delivery.body),
        // Recorded and retried on the schedule rather than spinning (e.g. a changed key-encryption key).
        (error: unknown) => new Error(`The signing key could not be opened: ${(error as Error).message}`),
      );
      outcome =
        signature instanceof Error
          ? notSent(signature.message)
          : await sendWebhook({ url: endpoint, body: delivery.body, signature, timeoutMs: this.config.deliveryTimeoutMs, signal: this.shutdown.signal });
    }
    const next = await this.record(delivery, leaseToken, claimedAt, endpoint ?? '', outcome);
    this.logger.debug(
      `Webhook ${delivery.id} ${delivery.type}: ${outcome.succeeded ? 'delivered' : `attempt failed (${outcome.error})`} in ${outcome.latencyMs} ms` +
        (next ? `, next attempt at ${next.toISOString()}` : ''),
    );
    if (next) this.wakeAt(next);
  }

  /** Records the attempt and moves the delivery on (delivered, retry later, or failed); returns the next attempt time if any. */
  private async record(delivery: ClaimedDelivery, leaseToken: string, claimedAt: Date, endpoint: string, outcome: AttemptOutcome): Promise<Date | undefined> {
    return this.transactions.run(async (manager) => {
      const state = await this.deliveries.lockForAttempt(manager, delivery.id);
      const number = state.attemptCount + 1;
      await this.deliveries.insertAttempt(manager, {
        deliveryId: delivery.id,
        number,
        trigger: delivery.redeliverRequested ? 'MANUAL' : 'SCHEDULED',
        attemptedAt: outcome.attemptedAt,
        endpoint,
        statusCode: outcome.statusCode ?? null,
        latencyMs: outcome.latencyMs,
        error: outcome.error ?? null,
        succeeded: outcome.succeeded,
      });
      const now = new Date();
      const changes: Partial<WebhookDeliveryEntity> = {
        attemptCount: number,
        lastAttemptAt: outcome.attemptedAt,
        lastStatusCode: outcome.statusCode ?? null,
        lastError: outcome.error ?? null,
        updatedAt: now,
      };
      // Only the lease holder moves the delivery on; a stale worker's attempt is recorded and nothing more.
      if (state.leaseToken !== leaseToken) {
        await this.deliveries.update(manager, delivery.id, changes);
        return undefined;
      }
      let next: Date | undefined;
      Object.assign(changes, { lockedUntil: null, leaseToken: null });
      if (state.redeliverRequestedAt && state.redeliverRequestedAt > claimedAt) {
        // A redelivery was requested while this attempt was in flight: honour it.
        next = now;
        Object.assign(changes, { status: 'PENDING', nextAttemptAt: now, roundFailures: 0, roundStartedAt: null });
      } else if (outcome.succeeded) {
        Object.assign(changes, { status: 'SUCCEEDED', deliveredAt: outcome.attemptedAt, nextAttemptAt: null, roundFailures: 0, redeliverRequestedAt: null });
      } else {
        const roundStartedAt = state.roundStartedAt ?? outcome.attemptedAt;
        const failures = state.roundFailures + 1;
        next = nextRetryAt(this.config, failures, roundStartedAt, now);
        Object.assign(
          changes,
          next
            ? { status: 'PENDING', nextAttemptAt: next, roundFailures: failures, roundStartedAt, redeliverRequestedAt: null }
            : { status: 'FAILED', nextAttemptAt: null, roundFailures: failures, roundStartedAt, redeliverRequestedAt: null },
        );
        if (!next) this.logger.warn(`Webhook ${delivery.id} ${delivery.type} failed for good after ${number} attempts: ${outcome.error}`);
      }
      await this.deliveries.update(manager, delivery.id, changes);
      return next;
    });
  }

  /** Arms a kick for a retry time, so scaled sandbox retries happen on time rather than at the next poll. */
  private wakeAt(at: Date): void {
    if (this.stopped) return;
    const when = at.getTime();
    if (this.wake && this.wake.at <= when && this.wake.at > Date.now()) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = setTimeout(() => {
      this.wake = undefined;
      this.kick();
    }, Math.max(0, when - Date.now()) + 1);
    this.wake = { at: when, timer };
  }
}
