import { DomainEvent } from '@paykit/contracts';
import { WireReply } from './message-dispatch';

/** What a request handler sees: the decoded message; it answers with the decoded reply. */
export type InProcessRequestHandler = (data: unknown) => Promise<WireReply>;
export type EventHandler = (event: DomainEvent) => Promise<void>;
/** A batch consumer's handler: events in stream order, all to be applied or none (it fails as a whole). */
export type EventBatchHandler = (events: DomainEvent[]) => Promise<void>;

/** How far a delivery got: the events before `delivered` reached every consumer; the failure that stopped the rest. */
export interface DeliveryOutcome {
  delivered: number;
  error?: unknown;
}

interface Consumer {
  matches: (subject: string) => boolean;
  /** Hands the consumer its events of a delivery, in order; answers the index of the first one it did not take. */
  take: (events: DomainEvent[]) => Promise<{ failedAt: number; error?: unknown }>;
}

/**
 * The in-process stand-in for NATS in embedded mode: one registry of request handlers by
 * subject and of durable event consumers. Messages are JSON round-tripped so handlers see
 * exactly what they would see over the wire.
 */
export class InProcessBroker {
  private readonly handlers = new Map<string, InProcessRequestHandler>();
  private readonly consumers = new Map<string, Consumer>();

  register(subject: string, handler: InProcessRequestHandler): void {
    this.handlers.set(subject, handler);
  }

  unregister(subject: string): void {
    this.handlers.delete(subject);
  }

  hasHandler(subject: string): boolean {
    return this.handlers.has(subject);
  }

  async request(subject: string, data: unknown): Promise<WireReply | undefined> {
    const handler = this.handlers.get(subject);
    if (!handler) return undefined;
    const reply = await handler(roundTrip(data));
    return roundTrip<WireReply>(reply);
  }

  /** A consumer that takes one event at a time. */
  addConsumer(name: string, subjectFilter: string, handler: EventHandler): void {
    const matches = subjectMatcher(subjectFilter);
    this.consumers.set(name, {
      matches,
      take: async (events) => {
        for (const [index, event] of events.entries()) {
          if (!matches(event.subject)) continue;
          try {
            await handler(roundTrip(event));
          } catch (error) {
            return { failedAt: index, error };
          }
        }
        return { failedAt: events.length };
      },
    });
  }

  /** A consumer that takes its events of a delivery in batches of at most `maxBatch`. */
  addBatchConsumer(name: string, subjectFilter: string, handler: EventBatchHandler, maxBatch: number): void {
    const matches = subjectMatcher(subjectFilter);
    this.consumers.set(name, {
      matches,
      take: async (events) => {
        const mine = [...events.entries()].filter(([, event]) => matches(event.subject));
        for (let start = 0; start < mine.length; start += maxBatch) {
          const batch = mine.slice(start, start + maxBatch);
          try {
            await handler(batch.map(([, event]) => roundTrip(event)));
          } catch (error) {
            return { failedAt: batch[0][0], error };
          }
        }
        return { failedAt: events.length };
      },
    });
  }

  removeConsumer(name: string): void {
    this.consumers.delete(name);
  }

  /**
   * Delivers an event to every matching consumer and resolves once all acknowledged.
   * A consumer failure rejects, so the outbox relay keeps the event and retries.
   */
  async publish(event: DomainEvent): Promise<void> {
    const { delivered, error } = await this.deliver([event]);
    if (delivered < 1) throw error;
  }

  /**
   * Delivers events, in order, to every matching consumer (consumers side by side, each taking
   * its events in order, batch consumers in batches). Answers how many events, from the first,
   * reached every consumer: a consumer stops at its first failure, and the events from the
   * earliest failure on are to be delivered again (consumers are idempotent: the others may
   * have taken some of them already).
   */
  async deliver(events: DomainEvent[]): Promise<DeliveryOutcome> {
    const outcomes = await Promise.all([...this.consumers.values()].map((consumer) => consumer.take(events)));
    let outcome: DeliveryOutcome = { delivered: events.length };
    for (const { failedAt, error } of outcomes) if (failedAt < outcome.delivered) outcome = { delivered: failedAt, error };
    return outcome;
  }

  reset(): void {
    this.handlers.clear();
    this.consumers.clear();
  }
}

function roundTrip<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** NATS-style subject filter: `*` one token, `>` the rest. */
export function subjectMatcher(filter: string): (subject: string) => boolean {
  const pattern = filter
    .split('.')
    .map((token) => (token === '*' ? '[^.]+' : token === '>' ? '.+' : token.replace(/[-/\\^$+?()|[\]{}]/g, '\\$&')))
    .join('\\.');
  const regex = new RegExp(`^${pattern}$`);
  return (subject) => regex.test(subject);
}

/** One broker per process: all apps of the embedded mode meet here. */
export const embeddedBroker = new InProcessBroker();
