import { AckPolicy, connect, DeliverPolicy, JSONCodec, NatsConnection, nanos, RetentionPolicy, StorageType } from 'nats';
import { DomainEvent } from '@paykit/contracts';
import { EventHandler, InProcessBroker } from './in-process-broker';

export const EVENT_BUS = Symbol('EVENT_BUS');

/**
 * Publishes domain events (from the outbox relay) and delivers them to durable consumers.
 * Delivery is at least once: consumers deduplicate by `eventId`.
 */
export interface EventBus {
  publish(event: DomainEvent): Promise<void>;
  /** A durable, named consumer: it resumes where it stopped after a restart. */
  consume(consumerName: string, subjectFilter: string, handler: EventHandler): Promise<void>;
  close(): Promise<void>;
}

export class InProcessEventBus implements EventBus {
  private readonly names: string[] = [];
  constructor(private readonly broker: InProcessBroker) {}

  publish(event: DomainEvent): Promise<void> {
    return this.broker.publish(event);
  }

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

  async consume(consumerName: string, subjectFilter: string, handler: EventHandler): Promise<void> {
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
    void (async () => {
      // One message at a time per consumer keeps each resource's events in order.
      for await (const message of messages) {
        try {
          await handler(codec.decode(message.data));
          message.ack();
        } catch {
          message.nak(RETRY_DELAY_MS);
        }
      }
    })();
  }

  async close(): Promise<void> {
    for (const stop of this.stopHandles) stop();
    if (this.connection) await this.connection.drain();
    this.connection = undefined;
  }
}
