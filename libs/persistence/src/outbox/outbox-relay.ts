import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEvent } from '@paykit/contracts';
import { contextFrom, currentTraceHeaders, EVENT_BUS, EventBus, inSpan, SpanKind, tracingEnabled } from '@paykit/transport';
import { EVENTS_READY, EventsReadyGate, RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { returningRows } from '../query-rows';
import { idlePollMs } from '../idle-poll';
import { DeadLetterStore } from '../dead-letters/dead-letter-store';
import { backoffAfter, isTransientFailure } from '../dead-letters/failure-classification';

const BATCH_SIZE = 100;
/** Commits kick the relay (TransactionRunner); the poll only picks up an expired claim of a replica that died. */
const IDLE_POLL_MS = 10_000;
/** A pass that published rows ends; their deletion rides on the next claim, or runs this soon. */
const SETTLE_DELAY_MS = 10;
const MAX_BACKOFF_MS = 5000;
const CLAIM_SECONDS = 30;

/**
 * Deletes the published rows ($1) and claims the next batch: a relay pass's one statement. Planned
 * afresh each time, not prepared (see preparedStatement): a plan made while the outbox was empty
 * would scan a large backlog.
 */
const SETTLE_AND_CLAIM_SQL = `WITH settled AS (
    DELETE FROM outbox_event WHERE seq = ANY($1::bigint[]) RETURNING seq
  )
  UPDATE outbox_event SET claimed_until = now() + interval '${CLAIM_SECONDS} seconds', attempts = attempts + 1
   WHERE seq IN (SELECT seq FROM outbox_event
                  WHERE (claimed_until IS NULL OR claimed_until < now())
                    AND seq <> ALL($1::bigint[])
                  ORDER BY seq LIMIT ${BATCH_SIZE} FOR UPDATE SKIP LOCKED)
   RETURNING seq, event, trace_context`;

/**
 * Publishes committed outbox rows to the bus in commit order, at least once, and deletes
 * them once published (the bus has them then). Rows are claimed with a lease (FOR UPDATE
 * SKIP LOCKED), so replicas share the work and a crashed relay's claim expires. Publishing
 * happens outside any transaction.
 *
 * A row the bus keeps refusing with a non-transient error (the consumers park what they cannot
 * handle themselves, so this is the bus refusing the event) is retried `maxAttempts` times and then
 * moved to the dead-letter table, so the rows behind it go out; a transient failure (the bus
 * unreachable) holds the relay, retried with backoff, for as long as it lasts.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private running = false;
  private rerun = false;
  private stopped = true;
  private shutDown = false;
  private failures = 0;
  /** Rows published and not yet deleted: the next claim deletes them in the same statement. */
  private published: string[] = [];
  /** Non-transient failures of the row that failed first, by seq (in memory: a restart starts the count again). */
  private readonly failing = new Map<string, { failures: number; firstFailedAt: Date }>();

  private readonly idlePollMs: number;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(EVENTS_READY) private readonly eventsReady: EventsReadyGate,
    private readonly deadLetters: DeadLetterStore,
    @Optional() @Inject(RUNTIME_CONFIG) config?: RuntimeConfig,
  ) {
    this.idlePollMs = config ? idlePollMs(config, IDLE_POLL_MS) : IDLE_POLL_MS;
    // A replayed row goes back into the outbox, under its event id, and out with the next pass.
    deadLetters.onReplay('outbox-relay', '*', async (letter) => {
      const event = letter.payload as DomainEvent;
      await this.dataSource.query(`INSERT INTO outbox_event (id, subject, event) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
        event.eventId,
        event.subject,
        JSON.stringify(event),
      ]);
      this.kick();
    });
  }

  onApplicationBootstrap(): void {
    void this.eventsReady.whenReady.then(() => {
      if (this.shutDown) return;
      this.stopped = false;
      this.kick();
    });
  }

  /**
   * Stops (and waits for the pass in progress) before the database closes: Nest destroys the
   * DataSource in its own shutdown hook, and a query caught by that never settles.
   */
  beforeApplicationShutdown(): Promise<void> {
    return this.onApplicationShutdown();
  }

  async onApplicationShutdown(): Promise<void> {
    this.shutDown = true;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((r) => setTimeout(r, 10));
    // Published rows left for the next claim: deleted now, so a restart does not publish them again.
    const published = this.published;
    this.published = [];
    await this.settle(published, []).catch((error: unknown) => this.logger.warn(`Could not delete published outbox rows: ${(error as Error).message}`));
  }

  /** Called after a commit that wrote events: publish now rather than at the next poll. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.rerun = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    let delay = this.idlePollMs;
    try {
      let claimed: number;
      // A full batch may leave more behind; a partial one drained the outbox as of its claim
      // (rows committed since then kicked again, so `rerun`).
      do {
        this.rerun = false;
        claimed = await this.publishBatch();
      } while ((claimed === BATCH_SIZE || this.rerun) && !this.stopped);
      // Under load the next kick comes first and deletes them with its claim: one statement a pass.
      if (this.published.length > 0) delay = SETTLE_DELAY_MS;
      this.failures = 0;
    } catch (error) {
      this.failures += 1;
      delay = Math.min(MAX_BACKOFF_MS, backoffAfter(this.deadLetters.policy, this.failures));
      if (!this.stopped) this.logger.warn(`Outbox publish failed (retry in ${delay} ms): ${(error as Error).message}`);
    } finally {
      this.running = false;
      if (!this.stopped) this.timer = setTimeout(() => this.kick(), delay);
    }
  }

  /**
   * Deletes the previous (published) batch and claims the next in one statement (one round trip
   * per batch), then publishes it. A relay that dies before deleting a batch publishes it again
   * once the claim expires; the bus drops the repeat (message id = event id).
   */
  private async publishBatch(): Promise<number> {
    const claimed = await returningRows<{ seq: string; event: DomainEvent; trace_context: string | null }>(this.dataSource, SETTLE_AND_CLAIM_SQL, [this.published]);
    this.published = [];
    if (claimed.length === 0) return 0;
    claimed.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
    // The whole batch is handed to the bus at once (it keeps call order), so one round trip
    // to the broker serves many events; only the prefix before a failure counts as published.
    const results = await Promise.allSettled(claimed.map((row) => (tracingEnabled() ? this.tracedPublish(row) : this.bus.publish(row.event))));
    const firstFailure = results.findIndex((result) => result.status === 'rejected');
    const published = claimed.slice(0, firstFailure < 0 ? claimed.length : firstFailure).map((row) => row.seq);
    if (firstFailure >= 0) {
      await this.settle(
        published,
        claimed.slice(published.length).map((row) => row.seq),
      );
      const reason: unknown = (results[firstFailure] as PromiseRejectedResult).reason;
      if (await this.parkedAfterFailure(claimed[firstFailure], reason)) {
        // Moved aside: the rows behind it go out in the next pass, at once.
        this.rerun = true;
        return claimed.length;
      }
      throw reason;
    }
    for (const row of claimed) this.failing.delete(row.seq);
    this.published = published;
    return claimed.length;
  }

  /** The publish as a span of the trace the row was written in, whose context goes with the event. */
  private tracedPublish(row: { event: DomainEvent; trace_context: string | null }): Promise<void> {
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': row.event.subject, 'messaging.message.id': row.event.eventId };
    return inSpan(`publish ${row.event.subject}`, { kind: SpanKind.PRODUCER, parent: contextFrom(row.trace_context), attributes }, () =>
      this.bus.publish(row.event, currentTraceHeaders()),
    );
  }

  /** Counts a non-transient failure of the row; at the limit, moves it to the dead-letter table (true). */
  private async parkedAfterFailure(row: { seq: string; event: DomainEvent }, reason: unknown): Promise<boolean> {
    if (isTransientFailure(reason)) return false;
    const failing = this.failing.get(row.seq) ?? { failures: 0, firstFailedAt: new Date() };
    failing.failures += 1;
    this.failing.set(row.seq, failing);
    if (failing.failures < this.deadLetters.policy.maxAttempts) return false;
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`DELETE FROM outbox_event WHERE seq = $1`, [row.seq]);
      await this.deadLetters.park(
        {
          source: 'outbox-relay',
          consumer: 'relay',
          messageId: row.event.eventId,
          subject: row.event.subject,
          resourceKey: row.event.resourceId,
          platformId: row.event.platformId,
          payload: row.event,
          error: reason,
          attempts: failing.failures,
          firstFailedAt: failing.firstFailedAt,
        },
        manager,
      );
    });
    this.failing.delete(row.seq);
    return true;
  }

  private async settle(published: string[], unpublished: string[]): Promise<void> {
    if (published.length > 0) {
      await this.dataSource.query(`DELETE FROM outbox_event WHERE seq IN (${placeholders(published)})`, published);
    }
    if (unpublished.length > 0) {
      await this.dataSource.query(`UPDATE outbox_event SET claimed_until = NULL WHERE seq IN (${placeholders(unpublished)})`, unpublished);
    }
  }
}

function placeholders(values: unknown[]): string {
  return values.map((_, i) => `$${i + 1}`).join(', ');
}
