import { setTimeout as sleep } from 'node:timers/promises';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEvent, uuidv7 } from '@paykit/contracts';
import { processMetrics, RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { EventBatchHandler, EventHandler } from '@paykit/transport';
import { returningRows } from '../query-rows';
import { DeadLetterEntity, DeadLetterSource } from './dead-letter.entity';
import { backoffAfter, DEFAULT_RETRY_POLICY, isTransientFailure, RetryPolicy } from './failure-classification';

/** What a mechanism parks: the message as it would replay it, and why it gave up. */
export interface ParkRequest {
  source: DeadLetterSource;
  consumer: string;
  messageId: string;
  subject: string;
  resourceKey?: string | null;
  platformId?: string | null;
  payload: unknown;
  error: unknown;
  attempts: number;
  firstFailedAt: Date;
}

/** Re-publishes or re-queues one parked message, once; a transient failure leaves the request for the next pass. */
export type DeadLetterReplayer = (letter: DeadLetterEntity) => Promise<void>;

/** How often a process looks for replays an operator asked for (`npm run dead-letters -- replay`). */
const REPLAY_POLL_MS = 10_000;
const REPLAY_CLAIM_SECONDS = 60;

/** The metric every parked message increments, by service and source (served on the probe port's /metrics). */
export const DEAD_LETTERS_METRIC = 'paykit_dead_letters_parked_total';

const PARK_SQL = `INSERT INTO dead_letter (id, source, consumer, message_id, subject, resource_key, platform_id, payload, error, error_stack, attempts, first_failed_at, last_failed_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, now())
  ON CONFLICT (source, consumer, message_id) DO UPDATE
    SET payload = EXCLUDED.payload, error = EXCLUDED.error, error_stack = EXCLUDED.error_stack, attempts = EXCLUDED.attempts,
        last_failed_at = now(), parked_count = dead_letter.parked_count + 1,
        replay_requested_at = NULL, replay_claimed_until = NULL, replayed_at = NULL
  RETURNING id`;

/**
 * The service's dead-letter table and the one retry rule every mechanism follows (outbox relay,
 * event consumers on either bus, scheduler, webhook delivery): a transient failure (see
 * `isTransientFailure`) is retried for as long as it lasts; any other is retried `maxAttempts`
 * times with exponential backoff, then the message is parked here, logged once at error level
 * (its id, never its payload) and counted, and the mechanism moves on to the next one. An operator
 * replays a parked message with `npm run dead-letters -- replay <id>`: that marks the row, and the
 * service that owns it re-publishes or re-queues it once through the replayer its mechanism
 * registered.
 */
@Injectable()
export class DeadLetterStore implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeadLetterStore.name);
  private readonly replayers = new Map<string, DeadLetterReplayer>();
  readonly policy: RetryPolicy;
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private stopped = true;
  private readonly stopping = new AbortController();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
  ) {
    this.policy = config.deadLetters ?? DEFAULT_RETRY_POLICY;
  }

  onApplicationBootstrap(): void {
    this.stopped = false;
    this.arm();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
  }

  /** Parks a message (in the caller's transaction when given); logs and counts it once. */
  async park(request: ParkRequest, runner: DataSource | EntityManager = this.dataSource): Promise<string> {
    const error = request.error instanceof Error ? request.error : new Error(String(request.error));
    const [row] = await returningRows<{ id: string }>(runner, PARK_SQL, [
      uuidv7(),
      request.source,
      request.consumer,
      request.messageId,
      request.subject,
      request.resourceKey ?? null,
      request.platformId ?? null,
      JSON.stringify(request.payload ?? null),
      error.message.slice(0, 2000) || error.name,
      error.stack?.slice(0, 8000) ?? null,
      request.attempts,
      request.firstFailedAt,
    ]);
    processMetrics.increment(DEAD_LETTERS_METRIC, { service: this.serviceName(), source: request.source });
    this.logger.error(
      `Dead-lettered ${request.source} message ${request.messageId} (${request.subject}) of ${request.consumer} after ${request.attempts} attempts: ` +
        `${error.message} [dead letter ${row.id}; npm run dead-letters -- show ${row.id}]`,
    );
    return row.id;
  }

  /**
   * A durable consumer's handler with the retry rule applied: a non-transient failure is retried in
   * place (the same resource's later events wait behind it meanwhile, as the bus's ordering rule
   * says) up to `maxAttempts` times, then the event is parked and the handler returns, so the bus
   * acknowledges it and moves on. A transient failure is thrown for the bus to retry as before.
   * Replays of what it parked go through the same handler.
   */
  guard(consumer: string, handler: EventHandler): EventHandler {
    const guarded = this.retriedThenParked(consumer, handler);
    this.onReplay('event-consumer', consumer, (letter) => guarded(letter.payload as DomainEvent));
    return guarded;
  }

  /**
   * The batch form of `guard` (for `EventBus.consumeBatches`): a batch whose handler fails for a
   * non-transient reason is handled again one event at a time, each under `guard`'s rule, so the
   * poison event is parked alone and the others are applied (a batch handler applies all or
   * nothing, so nothing of the failed batch was applied). Meanwhile the consumer's later batches
   * wait: at most the bounded retries of the one event. A transient failure is thrown for the bus
   * to retry the batch as before.
   */
  guardBatch(consumer: string, handler: EventBatchHandler): EventBatchHandler {
    const one = this.retriedThenParked(consumer, (event) => handler([event]));
    this.onReplay('event-consumer', consumer, (letter) => one(letter.payload as DomainEvent));
    return async (events) => {
      if (events.length === 1) return one(events[0]);
      try {
        await handler(events);
      } catch (error) {
        if (isTransientFailure(error)) throw error;
        this.logger.warn(`A batch of ${events.length} events failed in ${consumer}; handling them one by one: ${(error as Error).message}`);
        for (const event of events) await one(event);
      }
    };
  }

  /** `guard`'s rule around one event's handler. */
  private retriedThenParked(consumer: string, handler: EventHandler): EventHandler {
    return async (event) => {
      const firstFailedAt = new Date();
      for (let attempt = 1; ; attempt += 1) {
        try {
          await handler(event);
          return;
        } catch (error) {
          if (isTransientFailure(error)) throw error;
          const last = attempt >= this.policy.maxAttempts || !isRetryable(error);
          if (last || this.stopping.signal.aborted) {
            // Stopping: the bus gets it back unacknowledged and another process counts afresh.
            if (!last) throw error;
            await this.park({ ...eventLetter(consumer, event), error, attempts: attempt, firstFailedAt });
            return;
          }
          this.logger.warn(`Event ${event.eventId} (${event.subject}) failed in ${consumer} (attempt ${attempt} of ${this.policy.maxAttempts}): ${(error as Error).message}`);
          await sleep(backoffAfter(this.policy, attempt), undefined, { signal: this.stopping.signal }).catch(() => undefined);
        }
      }
    };
  }

  /** How a mechanism replays what it parked; `consumer` '*' serves every consumer of the source. */
  onReplay(source: DeadLetterSource, consumer: string, replayer: DeadLetterReplayer): void {
    this.replayers.set(`${source}\u0000${consumer}`, replayer);
  }

  private replayerOf(letter: DeadLetterEntity): DeadLetterReplayer | undefined {
    return this.replayers.get(`${letter.source}\u0000${letter.consumer}`) ?? this.replayers.get(`${letter.source}\u0000*`);
  }

  private serviceName(): string {
    const name = (this.dataSource.options as { applicationName?: string }).applicationName;
    return name?.replace(/^paykit-/, '') ?? 'unknown';
  }

  private arm(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.polling = this.replayRequested()
        .then(() => undefined)
        .catch((error: unknown) => {
          if (!this.stopped) this.logger.warn(`Dead-letter replay poll failed: ${(error as Error).message}`);
        })
        .finally(() => {
          this.polling = undefined;
          // Embedded mode: the command cannot open the data while the server runs, so requests
          // only ever wait for the next start, which this first pass served.
          if (this.config.mode !== 'embedded') this.arm();
        });
    }, REPLAY_POLL_MS);
  }

  /**
   * Replays what an operator asked for, each once: claimed with a lease (so replicas share the
   * work), marked replayed before the replay runs (a replay that fails for good parks the message
   * again, which clears the mark), and given back when the replay fails transiently or this
   * process has no replayer for it (another service's replica may).
   */
  async replayRequested(): Promise<number> {
    if (this.replayers.size === 0) return 0;
    const claimed = await returningRows<{ id: string }>(
      this.dataSource,
      `UPDATE dead_letter SET replay_claimed_until = now() + interval '${REPLAY_CLAIM_SECONDS} seconds'
        WHERE id IN (SELECT id FROM dead_letter WHERE replay_requested_at IS NOT NULL AND (replay_claimed_until IS NULL OR replay_claimed_until < now())
                      ORDER BY replay_requested_at LIMIT 20 FOR UPDATE SKIP LOCKED)
        RETURNING id`,
    );
    let replayed = 0;
    for (const { id } of claimed) {
      if (this.stopping.signal.aborted) break;
      const letter = await this.dataSource.getRepository(DeadLetterEntity).findOneByOrFail({ id });
      const replayer = this.replayerOf(letter);
      if (!replayer) {
        await this.dataSource.query(`UPDATE dead_letter SET replay_claimed_until = NULL WHERE id = $1`, [id]);
        continue;
      }
      await this.dataSource.query(`UPDATE dead_letter SET replayed_at = now(), replay_requested_at = NULL, replay_claimed_until = NULL WHERE id = $1`, [id]);
      try {
        await replayer(letter);
        replayed += 1;
        this.logger.log(`Dead letter ${id} (${letter.source} message ${letter.messageId}) replayed`);
      } catch (error) {
        this.logger.warn(`Replay of dead letter ${id} failed, retried later: ${(error as Error).message}`);
        await this.dataSource.query(`UPDATE dead_letter SET replayed_at = NULL, replay_requested_at = now() WHERE id = $1 AND replayed_at IS NOT NULL`, [id]);
      }
    }
    return replayed;
  }
}

/** A failure its thrower marks as one no retry can cure (e.g. `UnreadableEvent`): parked at the first. */
function isRetryable(error: unknown): boolean {
  return (error as { retryable?: unknown } | null)?.retryable !== false;
}

function eventLetter(consumer: string, event: DomainEvent): Omit<ParkRequest, 'error' | 'attempts' | 'firstFailedAt'> {
  return {
    source: 'event-consumer',
    consumer,
    messageId: event.eventId,
    subject: event.subject,
    resourceKey: event.resourceId,
    platformId: event.platformId,
    payload: event,
  };
}

/**
 * Operator side (tools/dead-letters.ts): the parked messages of one service's database, and the
 * replay request its running service carries out.
 */
export const deadLetterQueries = {
  list(dataSource: DataSource, limit = 100): Promise<DeadLetterEntity[]> {
    return dataSource.getRepository(DeadLetterEntity).find({ order: { lastFailedAt: 'DESC' }, take: limit });
  },
  find(dataSource: DataSource, id: string): Promise<DeadLetterEntity | null> {
    return dataSource.getRepository(DeadLetterEntity).findOneBy({ id });
  },
  /** Marks a parked message for replay; false when there is no such message. */
  async requestReplay(dataSource: DataSource, id: string): Promise<boolean> {
    const rows = await returningRows(dataSource, `UPDATE dead_letter SET replay_requested_at = now(), replay_claimed_until = NULL WHERE id = $1 RETURNING 1`, [id]);
    return rows.length > 0;
  },
};
