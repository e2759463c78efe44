import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { AckPolicy, connect, DeliverPolicy, JSONCodec, JsMsg, NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { DomainEvent } from '@paykit/contracts';
import { EventHandler, InProcessBroker } from './in-process-broker';
import { pingNats } from './nats.transport';

export const EVENT_BUS = Symbol('EVENT_BUS');

/**
 * Publishes domain events (from the outbox relay) and delivers them to durable consumers.
 * Delivery is at least once: consumers deduplicate by `eventId`.
 */
export interface EventBus {
  /** Concurrent calls are written to the bus in call order (the relay relies on it to pipeline). */
  publish(event: DomainEvent): Promise<void>;
  /**
   * A durable, named consumer: it resumes where it stopped after a restart. A consumer that reads
   * events passes `handleEvents({...})` (typed, versioned and validated per subject); only one that
   * stores events unread (the webhooks inbox) takes them as they come.
   */
  consume(consumerName: string, subjectFilter: string, handler: EventHandler, options?: ConsumeOptions): Promise<void>;
  /** Readiness: fails while a bus that has connected cannot reach its broker; absent in-process. */
  ping?(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export interface ConsumeOptions {
  /**
   * Events handled at once (default 1). Events about the same resource are still handled one
   * after another, in stream order; only events about different resources overlap. An event whose
   * handler fails is retried until it succeeds, holding its slot: its resource's later events wait
   * for it (as on the in-process bus, where the relay retries it), the other resources use the rest.
   * Consumers wrap their handler in the dead-letter guard (libs/persistence `DeadLetterStore.guard`),
   * which parks a poison event after bounded retries and returns: only transient failures reach
   * this retry, so it lasts only as long as the outage.
   */
  concurrency?: number;
}

export class InProcessEventBus implements EventBus {
  private readonly names: string[] = [];
  constructor(private readonly broker: InProcessBroker) {}

  private tail: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private failedInFlight = false;

  /**
   * Deliveries happen one at a time, in call order, like a stream's. Once one fails, the
   * publishes queued behind it fail too (until the queue drains), so a relay that publishes
   * a batch at once never delivers an event ahead of an earlier one it must retry.
   */
  publish(event: DomainEvent): Promise<void> {
    this.inFlight += 1;
    const run = this.tail
      .then(async () => {
        if (this.failedInFlight) throw new Error('An earlier event failed to publish; it is retried first');
        try {
          await this.broker.publish(event);
        } catch (error) {
          this.failedInFlight = true;
          throw error;
        }
      })
      .finally(() => {
        this.inFlight -= 1;
        if (this.inFlight === 0) this.failedInFlight = false;
      });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** The relay hands each event to every consumer and waits: one at a time, so no options apply. */
  async consume(consumerName: string, subjectFilter: string, handler: EventHandler): Promise<void> {
    this.names.push(consumerName);
    this.broker.addConsumer(consumerName, subjectFilter, handler);
  }

  async close(): Promise<void> {
    for (const name of this.names) this.broker.removeConsumer(name);
  }
}

export interface JetStreamOptions {
  url: string;
  /** Stream name and subject namespace; separate stacks on one server use separate ones. */
  namespace?: string;
  connectionName: string;
}

const codec = JSONCodec<DomainEvent>();
/** A failed event is retried in place after this long, doubling up to the maximum. */
const RETRY_FIRST_DELAY_MS = 100;
const RETRY_MAX_DELAY_MS = 5000;
/**
 * How long the server waits for a delivered message's acknowledgement before delivering it again.
 * A live consumer keeps the messages it holds from expiring; so this is how long the events a
 * crashed process held wait before another process gets them.
 */
const ACK_WAIT_MS = 10_000;
/**
 * Messages given back on close are redelivered after this delay, not at once: at once, the server
 * may hand the first of them straight back to this consumer's pull request, which is being
 * withdrawn, and it would then wait out the ack wait (seen with nats-server 2.9).
 */
const GIVE_BACK_DELAY_MS = 200;
/** Messages asked of the server at once, per event handled at once. */
const PULL_PER_HANDLER = 4;

/** Distributed mode: one file-backed JetStream stream holds every service's events. */
export class JetStreamEventBus implements EventBus {
  private readonly logger = new Logger(JetStreamEventBus.name);
  private connection?: NatsConnection;
  private connecting?: Promise<NatsConnection>;
  private readonly stopHandles: Array<() => void> = [];
  /** Ends the retries' waits on close. */
  private readonly stopping = new AbortController();
  private closing = false;

  constructor(private readonly options: JetStreamOptions) {}

  private get streamName(): string {
    return `${(this.options.namespace ?? 'PAYKIT').replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}_EVENTS`;
  }

  private subject(subject: string): string {
    return this.options.namespace ? `${this.options.namespace}.${subject}` : subject;
  }

  private async nats(): Promise<NatsConnection> {
    if (this.connection) return this.connection;
    this.connecting ??= (async () => {
      const nc = await connect({
        servers: [this.options.url],
        name: this.options.connectionName,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        // No stack captured for every publish (each is a request to the server): measured as a
        // few percent of the cards service's CPU under load, for traces nothing reads.
        noAsyncTraces: true,
      });
      const jsm = await nc.jetstreamManager();
      const config = {
        name: this.streamName,
        subjects: [this.subject('*.events.>')],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        // Publishing with msgID = eventId makes a relay retry within this window a no-op.
        duplicate_window: nanos(10 * 60 * 1000),
        max_age: nanos(7 * 24 * 3600 * 1000),
      };
      try {
        await jsm.streams.info(this.streamName);
      } catch {
        await jsm.streams.add(config);
      }
      this.connection = nc;
      return nc;
    })();
    try {
      return await this.connecting;
    } finally {
      this.connecting = undefined;
    }
  }

  async publish(event: DomainEvent): Promise<void> {
    const nc = await this.nats();
    await nc.jetstream().publish(this.subject(event.subject), codec.encode(event), { msgID: event.eventId });
  }

  async consume(consumerName: string, subjectFilter: string, handler: EventHandler, options: ConsumeOptions = {}): Promise<void> {
    const nc = await this.nats();
    const jsm = await nc.jetstreamManager();
    const durable = consumerName.replace(/[^A-Za-z0-9_-]/g, '_');
    const filter = this.subject(subjectFilter);
    const existing = await jsm.consumers.info(this.streamName, durable).catch(() => undefined);
    if (existing && existing.config.filter_subject !== filter) {
      // The durable consumer keeps its position; only what it receives from now on changes.
      await jsm.consumers.update(this.streamName, durable, { filter_subject: filter });
    } else if (!existing) {
      await jsm.consumers.add(this.streamName, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: filter,
        ack_wait: nanos(ACK_WAIT_MS),
        max_ack_pending: 1000,
      });
    }
    const consumer = await nc.jetstream().consumers.get(this.streamName, durable);
    const limit = Math.max(1, options.concurrency ?? 1);
    // Every message received and not yet acknowledged, in stream order. The server is told they are
    // still being worked on (one waiting behind a failing event may wait long); on close they are
    // given back in that order, so the next consumer gets them before anything newer. Their number
    // is bounded by the consumer's max_ack_pending.
    const held = new Set<JsMsg>();
    const keepAlive = setInterval(() => {
      try {
        for (const message of held) message.working();
      } catch {
        // The connection closed: the bus is closing.
      }
    }, ACK_WAIT_MS / 3).unref();
    const handle = async (message: JsMsg, event: DomainEvent): Promise<void> => {
      // Given back on close.
      if (this.closing) return;
      // A failed event is retried here rather than given back to the server for later: its
      // resource's next events wait in this process's queue behind it, so none overtakes it.
      for (let failures = 0; !(await succeeds(handler, event)); failures += 1) {
        if (this.closing) return;
        const delay = Math.min(RETRY_MAX_DELAY_MS, RETRY_FIRST_DELAY_MS * 2 ** failures);
        this.logger.warn(`Event ${event.eventId} (${event.subject}) not handled by ${durable}; retry in ${delay} ms`);
        if (!(await sleep(delay, true, { signal: this.stopping.signal }).catch(() => false))) return;
      }
      if (this.closing) return;
      held.delete(message);
      message.ack();
    };
    // Each resource's events are handled in stream order: a message takes one of the `limit` slots
    // (in arrival order, so with one slot, messages go one by one), then waits for the previous
    // message about the same resource, which took its slot earlier.
    const lastOfResource = new Map<string, Promise<void>>();
    const slots = new Slots(limit);
    const receive = (message: JsMsg): void => {
      let event: DomainEvent;
      try {
        event = codec.decode(message.data);
      } catch {
        // No retry makes it readable, and it must not hold up the events behind it.
        this.logger.error(`Undecodable message ${message.seq} on ${message.subject} dropped by ${durable}`);
        message.term();
        return;
      }
      held.add(message);
      const key = event.resourceId;
      const previous = lastOfResource.get(key);
      const handled = (async () => {
        await slots.take();
        try {
          await previous;
          await handle(message, event);
        } finally {
          slots.give();
        }
      })();
      lastOfResource.set(key, handled);
      void handled.then(() => {
        if (lastOfResource.get(key) === handled) lastOfResource.delete(key);
      });
    };
    // Callbacks rather than the iterator: messages the client buffered would otherwise be dropped on close, not given back.
    const messages = await consumer.consume({ max_messages: Math.max(16, limit * PULL_PER_HANDLER), callback: receive });
    this.stopHandles.push(() => {
      clearInterval(keepAlive);
      void messages.close();
      for (const message of held) giveBack(message);
      held.clear();
    });
  }

  /**
   * Readiness: once the bus has connected (it connects on its first publish or consumer), its
   * connection answers a ping; before that there is nothing of its own to check.
   */
  async ping(timeoutMs: number): Promise<void> {
    if (this.connection) await pingNats(this.connection, timeoutMs);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.stopping.abort();
    for (const stop of this.stopHandles) stop();
    if (this.connection) await this.connection.drain();
    this.connection = undefined;
  }
}

/** At most `size` holders at once; the others wait in the order they asked. */
class Slots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  take(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}

/** Hands a message back to the server for prompt redelivery; once the connection is gone, it is redelivered after its ack wait. */
function giveBack(message: JsMsg): void {
  try {
    message.nak(GIVE_BACK_DELAY_MS);
  } catch {
    // Closed meanwhile.
  }
}

/** Whether the handler took the event (a failure is retried by the caller). */
async function succeeds(handler: EventHandler, event: DomainEvent): Promise<boolean> {
  try {
    await handler(event);
    return true;
  } catch {
    return false;
  }
}
