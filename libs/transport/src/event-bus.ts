import { AckPolicy, connect, DeliverPolicy, JSONCodec, JsMsg, NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { DomainEvent } from '@paykit/contracts';
import { EventHandler, InProcessBroker } from './in-process-broker';

export const EVENT_BUS = Symbol('EVENT_BUS');

/**
 * Publishes domain events (from the outbox relay) and delivers them to durable consumers.
 * Delivery is at least once: consumers deduplicate by `eventId`.
 */
export interface EventBus {
  /** Concurrent calls are written to the bus in call order (the relay relies on it to pipeline). */
  publish(event: DomainEvent): Promise<void>;
  /** A durable, named consumer: it resumes where it stopped after a restart. */
  consume(consumerName: string, subjectFilter: string, handler: EventHandler, options?: ConsumeOptions): Promise<void>;
  close(): Promise<void>;
}

export interface ConsumeOptions {
  /**
   * Events handled at once (default 1). Events about the same resource are still handled one
   * after another, in stream order; only events about different resources overlap.
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
const RETRY_DELAY_MS = 1000;

/** Distributed mode: one file-backed JetStream stream holds every service's events. */
export class JetStreamEventBus implements EventBus {
  private connection?: NatsConnection;
  private connecting?: Promise<NatsConnection>;
  private readonly stopHandles: Array<() => void> = [];
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
    try {
      await jsm.consumers.info(this.streamName, durable);
    } catch {
      await jsm.consumers.add(this.streamName, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: this.subject(subjectFilter),
        ack_wait: nanos(30_000),
        max_ack_pending: 1000,
      });
    }
    const consumer = await nc.jetstream().consumers.get(this.streamName, durable);
    const messages = await consumer.consume({ max_messages: 256 });
    this.stopHandles.push(() => void messages.close());
    const limit = Math.max(1, options.concurrency ?? 1);
    const handle = async (message: JsMsg, event: DomainEvent | undefined): Promise<void> => {
      try {
        if (!event) throw new Error('Undecodable event');
        await handler(event);
        message.ack();
      } catch {
        // After close the connection is gone; the unacknowledged message is redelivered later.
        if (!this.closing) message.nak(RETRY_DELAY_MS);
      }
    };
    void (async () => {
      // Each resource's events are handled in stream order: a message waits for the previous one
      // about the same resource (with the default concurrency of 1, for the previous message).
      const inFlight = new Set<Promise<void>>();
      const lastOfResource = new Map<string, Promise<void>>();
      for await (const message of messages) {
        let event: DomainEvent | undefined;
        try {
          event = codec.decode(message.data);
        } catch {
          event = undefined;
        }
        const key = event?.resourceId ?? '';
        const handled = (lastOfResource.get(key) ?? Promise.resolve()).then(() => handle(message, event));
        lastOfResource.set(key, handled);
        inFlight.add(handled);
        void handled.then(() => {
          inFlight.delete(handled);
          if (lastOfResource.get(key) === handled) lastOfResource.delete(key);
        });
        if (inFlight.size >= limit) await Promise.race(inFlight);
      }
    })().catch((error: unknown) => {
      // Closing the bus ends the iteration with CONNECTION_CLOSED; unacknowledged messages are redelivered.
      if (!this.closing) throw error;
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const stop of this.stopHandles) stop();
    if (this.connection) await this.connection.drain();
    this.connection = undefined;
  }
}
