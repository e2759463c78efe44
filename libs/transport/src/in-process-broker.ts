import { DomainEvent } from '@paykit/contracts';
import { WireReply } from './message-dispatch';

/** What a request handler sees: the decoded message; it answers with the decoded reply. */
export type InProcessRequestHandler = (data: unknown) => Promise<WireReply>;
export type EventHandler = (event: DomainEvent) => Promise<void>;

/**
 * The in-process stand-in for NATS in embedded mode: one registry of request handlers by
 * subject and of durable event consumers. Messages are JSON round-tripped so handlers see
 * exactly what they would see over the wire.
 */
export class InProcessBroker {
  private readonly handlers = new Map<string, InProcessRequestHandler>();
  private readonly consumers = new Map<string, { matches: (subject: string) => boolean; handler: EventHandler }>();

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

  addConsumer(name: string, subjectFilter: string, handler: EventHandler): void {
    this.consumers.set(name, { matches: subjectMatcher(subjectFilter), handler });
  }

  removeConsumer(name: string): void {
    this.consumers.delete(name);
  }

  /**
   * Delivers an event to every matching consumer and resolves once all acknowledged.
   * A consumer failure rejects, so the outbox relay keeps the event and retries.
   */
  async publish(event: DomainEvent): Promise<void> {
    const deliveries = [...this.consumers.values()].filter((consumer) => consumer.matches(event.subject)).map((consumer) => consumer.handler(roundTrip<DomainEvent>(event)));
    await Promise.all(deliveries);
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
