import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { AckPolicy, connect, Consumer, DeliverPolicy, JetStreamManager, JSONCodec, JsMsg, NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { DomainEvent } from '@paykit/contracts';
import { EventBatchHandler, EventHandler, InProcessBroker } from './in-process-broker';
import { natsServers, pingNats, traceMessageHeaders, traceOfMessage } from './nats.transport';
import { contextFrom, eventTrace, inSpan, linkTo, rememberEventTrace, SpanKind, TraceHeaders, tracingEnabled } from './tracing';

export const EVENT_BUS = Symbol('EVENT_BUS');

/**
 * Publishes domain events (from the outbox relay) and delivers them to durable consumers.
 * Delivery is at least once: consumers deduplicate by `eventId`.
 */
export interface EventBus {
  /**
   * Concurrent calls are written to the bus in call order (the relay relies on it to pipeline).
   * `trace`: the context the event was written in (its outbox row's), carried to the consumers.
   */
  publish(event: DomainEvent, trace?: TraceHeaders): Promise<void>;
  /**
   * A durable, named consumer: it resumes where it stopped after a restart. A consumer that reads
   * events passes `handleEvents({...})` (typed, versioned and validated per subject); only one that
   * stores events unread (the webhooks inbox) takes them as they come.
   */
  consume(consumerName: string, subjectFilter: string, handler: EventHandler, options?: ConsumeOptions): Promise<void>;
  /**
   * A durable consumer that takes events in batches, for work that is cheaper done for many
   * events at once (one statement for a batch, not one per event). The handler gets up to
   * `maxBatch` events in stream order, one batch at a time: what arrives while a batch is being
   * handled makes the next one, so batches grow with the load and an event never waits for
   * others to arrive. A batch is acknowledged once its handler succeeded; a failure retries the
   * whole batch, holding the consumer (the handler's dead-letter guard, `DeadLetterStore.guardBatch`,
   * isolates a poison event by handling the batch's events one by one, so only transient
   * failures reach this retry). The consumer name is the same durable as `consume` would make.
   */
  consumeBatches(consumerName: string, subjectFilter: string, handler: EventBatchHandler, options?: BatchConsumeOptions): Promise<void>;
  /** Readiness: fails while a bus that has connected cannot reach its broker; absent in-process. */
  ping?(timeoutMs: number): Promise<void>;
  /** Each durable consumer of this bus and the events it has not yet acknowledged (waiting and in flight); absent in-process. */
  consumerLag?(): Promise<Array<{ consumer: string; pending: number }>>;
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

export interface BatchConsumeOptions {
  /** Events handed to the handler at once, at most (default 100). */
  maxBatch?: number;
}

const DEFAULT_MAX_BATCH = 100;

interface QueuedPublish {
  event: DomainEvent;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class InProcessEventBus implements EventBus {
  private readonly names: string[] = [];
  constructor(private readonly broker: InProcessBroker) {}

  private tail: Promise<void> = Promise.resolve();
  private queued: QueuedPublish[] = [];
  private inFlight = 0;
  private failedInFlight = false;

  /**
   * Deliveries happen in call order, like a stream's: the publishes made together (a relay
   * publishes its claimed batch at once) are delivered together, so a batch consumer gets them
   * as one batch. Once one fails, the publishes queued behind it fail too (until the queue
   * drains), so a relay never delivers an event ahead of an earlier one it must retry.
   */
  publish(event: DomainEvent): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.inFlight += 1;
      this.queued.push({ event, resolve, reject });
      // The first publish of a burst schedules the delivery of everything queued by the time it runs.
      if (this.queued.length === 1) this.tail = this.tail.then(() => this.deliverQueued());
    });
  }

  private async deliverQueued(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    let outcome: { delivered: number; error?: unknown };
    if (this.failedInFlight) outcome = { delivered: 0, error: new Error('An earlier event failed to publish; it is retried first') };
    else outcome = await this.broker.deliver(batch.map((entry) => entry.event)).catch((error: unknown) => ({ delivered: 0, error }));
    if (outcome.delivered < batch.length) this.failedInFlight = true;
    for (const [index, entry] of batch.entries()) {
      if (index < outcome.delivered) entry.resolve();
      else entry.reject(outcome.error);
    }
    this.inFlight -= batch.length;
    if (this.inFlight === 0) this.failedInFlight = false;
  }

  /** The relay hands each event to every consumer and waits: one at a time, so no options apply. */
  async consume(consumerName: string, subjectFilter: string, handler: EventHandler): Promise<void> {
    this.names.push(consumerName);
    this.broker.addConsumer(consumerName, subjectFilter, handler);
  }

  /** Batches are the events a relay published together that the consumer takes, `maxBatch` at a time. */
  async consumeBatches(consumerName: string, subjectFilter: string, handler: EventBatchHandler, options: BatchConsumeOptions = {}): Promise<void> {
    this.names.push(consumerName);
    this.broker.addBatchConsumer(consumerName, subjectFilter, handler, Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH));
  }

  async close(): Promise<void> {
    for (const name of this.names) this.broker.removeConsumer(name);
  }
}

/**
 * How the one JetStream stream and its durable consumers are kept. The defaults suit one NATS
 * server (a laptop, the test stacks); on a cluster of three, `replicas: 3` keeps every event and
 * every consumer's position on three servers, so losing one loses nothing (the production
 * overlays and the Helm chart set it; NATS_STREAM_* in libs/runtime's config).
 */
export interface EventStreamSettings {
  /** Copies of every event, each on its own server (1-5, at most the cluster's size). */
  replicas: number;
  /** Copies of each durable consumer's state; the stream's by default. */
  consumerReplicas: number;
  storage: 'file' | 'memory';
  /** `limits`: events stay until `maxAgeSeconds`, read by every consumer in its own time; `interest`: until every consumer acknowledged them. */
  retention: 'limits' | 'interest';
  maxAgeSeconds: number;
}

export const EVENT_STREAM_DEFAULTS: EventStreamSettings = { replicas: 1, consumerReplicas: 1, storage: 'file', retention: 'limits', maxAgeSeconds: 7 * 24 * 3600 };

export interface JetStreamOptions {
  /** One URL or several separated by commas. */
  url: string;
  stream?: EventStreamSettings;
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
  /** The durable consumers this bus runs (their lag is a metric). */
  private readonly consumers = new Set<string>();
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
        servers: natsServers(this.options.url),
        name: this.options.connectionName,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        // No stack captured for every publish (each is a request to the server): measured as a
        // few percent of the cards service's CPU under load, for traces nothing reads.
        noAsyncTraces: true,
      });
      try {
        await this.ensureStream(await nc.jetstreamManager());
      } catch (error) {
        // No stream yet (a cluster still electing its leader): the next call connects again.
        await nc.close();
        throw error;
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

  private get settings(): EventStreamSettings {
    return this.options.stream ?? EVENT_STREAM_DEFAULTS;
  }

  /**
   * Creates the stream, or brings an existing one to the configured replicas and age (both can
   * change on a live stream: NATS copies the events to the new replicas). Storage and retention
   * are fixed at creation: a difference is logged, not applied.
   */
  private async ensureStream(jsm: JetStreamManager): Promise<void> {
    const settings = this.settings;
    const config = {
      name: this.streamName,
      subjects: [this.subject('*.events.>')],
      storage: settings.storage === 'memory' ? StorageType.Memory : StorageType.File,
      retention: settings.retention === 'interest' ? RetentionPolicy.Interest : RetentionPolicy.Limits,
      num_replicas: settings.replicas,
      // Publishing with msgID = eventId makes a relay retry within this window a no-op.
      duplicate_window: nanos(10 * 60 * 1000),
      max_age: nanos(settings.maxAgeSeconds * 1000),
    };
    const existing = await jsm.streams.info(this.streamName).catch(() => undefined);
    if (!existing) {
      await jsm.streams.add(config);
      return;
    }
    if (existing.config.storage !== config.storage || existing.config.retention !== config.retention) {
      this.logger.warn(`Stream ${this.streamName} keeps its storage (${existing.config.storage}) and retention (${existing.config.retention}); they are fixed at creation`);
    }
    if (existing.config.num_replicas !== config.num_replicas || existing.config.max_age !== config.max_age) {
      await jsm.streams.update(this.streamName, { ...existing.config, num_replicas: config.num_replicas, max_age: config.max_age });
    }
  }

  async publish(event: DomainEvent, trace?: TraceHeaders): Promise<void> {
    const nc = await this.nats();
    const carried = traceMessageHeaders(trace);
    await nc.jetstream().publish(this.subject(event.subject), codec.encode(event), carried ? { msgID: event.eventId, headers: carried } : { msgID: event.eventId });
  }

  /** The durable consumer of that name, created or, when its filter changed, updated (it keeps its position). */
  private async durableConsumer(consumerName: string, subjectFilter: string): Promise<{ durable: string; consumer: Consumer }> {
    const nc = await this.nats();
    const jsm = await nc.jetstreamManager();
    const durable = consumerName.replace(/[^A-Za-z0-9_-]/g, '_');
    const filter = this.subject(subjectFilter);
    const existing = await jsm.consumers.info(this.streamName, durable).catch(() => undefined);
    const replicas = this.settings.consumerReplicas;
    if (existing && (existing.config.filter_subject !== filter || (existing.config.num_replicas ?? 0) !== replicas)) {
      // The durable consumer keeps its position; only what it receives from now on, or where its state is kept, changes.
      await jsm.consumers.update(this.streamName, durable, { filter_subject: filter, num_replicas: replicas });
    } else if (!existing) {
      await jsm.consumers.add(this.streamName, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: filter,
        ack_wait: nanos(ACK_WAIT_MS),
        max_ack_pending: 1000,
        num_replicas: replicas,
      });
    }
    this.consumers.add(durable);
    return { durable, consumer: await nc.jetstream().consumers.get(this.streamName, durable) };
  }

  /**
   * Keeps the server told that the held messages are being worked on (one waiting behind a
   * failing event may wait long); answers the stop that gives them back, in stream order, so the
   * next consumer gets them before anything newer. Their number is bounded by max_ack_pending.
   */
  private holding(held: Set<JsMsg>): () => void {
    const keepAlive = setInterval(() => {
      try {
        for (const message of held) message.working();
      } catch {
        // The connection closed: the bus is closing.
      }
    }, ACK_WAIT_MS / 3).unref();
    return () => {
      clearInterval(keepAlive);
      for (const message of held) giveBack(message);
      held.clear();
    };
  }

  /** The message's event; an undecodable one is terminated (no retry makes it readable, and it must not hold up the events behind it). */
  private decoded(message: JsMsg, durable: string): DomainEvent | undefined {
    try {
      const event = codec.decode(message.data);
      if (tracingEnabled()) rememberEventTrace(event, traceOfMessage(message.headers));
      return event;
    } catch {
      this.logger.error(`Undecodable message ${message.seq} on ${message.subject} dropped by ${durable}`);
      message.term();
      return undefined;
    }
  }

  /** Retries `attempt` with doubling backoff until it succeeds (true) or the bus closes (false). */
  private async untilHandled(attempt: () => Promise<boolean>, describe: () => string): Promise<boolean> {
    for (let failures = 0; !(await attempt()); failures += 1) {
      if (this.closing) return false;
      const delay = Math.min(RETRY_MAX_DELAY_MS, RETRY_FIRST_DELAY_MS * 2 ** failures);
      this.logger.warn(`${describe()}; retry in ${delay} ms`);
      if (!(await sleep(delay, true, { signal: this.stopping.signal }).catch(() => false))) return false;
    }
    return !this.closing;
  }

  async consume(consumerName: string, subjectFilter: string, handler: EventHandler, options: ConsumeOptions = {}): Promise<void> {
    const { durable, consumer } = await this.durableConsumer(consumerName, subjectFilter);
    const limit = Math.max(1, options.concurrency ?? 1);
    // Every message received and not yet acknowledged, in stream order.
    const held = new Set<JsMsg>();
    const stopHolding = this.holding(held);
    const handle = async (message: JsMsg, event: DomainEvent): Promise<void> => {
      // Given back on close.
      if (this.closing) return;
      // A failed event is retried here rather than given back to the server for later: its
      // resource's next events wait in this process's queue behind it, so none overtakes it.
      const handled = await this.untilHandled(
        () => succeeds(() => consumed(durable, [event], () => handler(event))),
        () => `Event ${event.eventId} (${event.subject}) not handled by ${durable}`,
      );
      if (!handled) return;
      held.delete(message);
      message.ack();
    };
    // Each resource's events are handled in stream order: a message takes one of the `limit` slots
    // (in arrival order, so with one slot, messages go one by one), then waits for the previous
    // message about the same resource, which took its slot earlier.
    const lastOfResource = new Map<string, Promise<void>>();
    const slots = new Slots(limit);
    const receive = (message: JsMsg): void => {
      const event = this.decoded(message, durable);
      if (!event) return;
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
      void messages.close();
      stopHolding();
    });
  }

  async consumeBatches(consumerName: string, subjectFilter: string, handler: EventBatchHandler, options: BatchConsumeOptions = {}): Promise<void> {
    const { durable, consumer } = await this.durableConsumer(consumerName, subjectFilter);
    const maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH);
    const held = new Set<JsMsg>();
    const stopHolding = this.holding(held);
    // Received, in stream order, and not yet handed to the handler.
    const waiting: Array<{ message: JsMsg; event: DomainEvent }> = [];
    let pumping = false;
    const pump = async (): Promise<void> => {
      if (pumping) return;
      pumping = true;
      try {
        // The messages of one read from the server arrive one callback after another: let them all in.
        await new Promise((resolve) => setImmediate(resolve));
        while (waiting.length > 0 && !this.closing) {
          const batch = waiting.splice(0, maxBatch);
          const events = batch.map((entry) => entry.event);
          const handled = await this.untilHandled(
            () => succeeds(() => consumed(durable, events, () => handler(events))),
            () => `A batch of ${events.length} events from ${events[0].eventId} (${events[0].subject}) not handled by ${durable}`,
          );
          // Not handled: the bus is closing, and gives them back.
          if (!handled) return;
          for (const { message } of batch) {
            held.delete(message);
            message.ack();
          }
        }
      } finally {
        pumping = false;
      }
    };
    const receive = (message: JsMsg): void => {
      const event = this.decoded(message, durable);
      if (!event) return;
      held.add(message);
      waiting.push({ message, event });
      void pump();
    };
    const messages = await consumer.consume({ max_messages: Math.max(16, maxBatch * 2), callback: receive });
    this.stopHandles.push(() => {
      void messages.close();
      stopHolding();
    });
  }

  /** The lag of each durable consumer this bus runs, as the server counts it (shared by every replica's bus). */
  async consumerLag(): Promise<Array<{ consumer: string; pending: number }>> {
    if (!this.connection || this.consumers.size === 0) return [];
    const jsm = await this.connection.jetstreamManager();
    return Promise.all(
      [...this.consumers].map(async (durable) => {
        const info = await jsm.consumers.info(this.streamName, durable);
        return { consumer: durable, pending: info.num_pending + info.num_ack_pending };
      }),
    );
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

/**
 * A consumer's handling of events as a span of the trace the first was published in (each of a
 * batch's events linked); with tracing off, just the handling.
 */
function consumed(durable: string, events: DomainEvent[], handle: () => Promise<void>): Promise<void> {
  if (!tracingEnabled()) return handle();
  const first = eventTrace(events[0]);
  const links = events.slice(1).flatMap((event) => linkTo(eventTrace(event)) ?? []);
  const attributes = {
    'messaging.system': 'nats',
    'messaging.consumer.group.name': durable,
    'messaging.destination.name': events[0].subject,
    'messaging.batch.message_count': events.length,
  };
  return inSpan(`consume ${events[0].subject}`, { kind: SpanKind.CONSUMER, parent: contextFrom(first), links, attributes }, handle);
}

/** Whether the handler took its events (a failure is retried by the caller). */
async function succeeds(handle: () => Promise<void>): Promise<boolean> {
  try {
    await handle();
    return true;
  } catch {
    return false;
  }
}
