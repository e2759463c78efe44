import { CallerContext, CUSTOMERS_EVENTS, DomainEvent, MessageEnvelope, PAYMENTS_SUBJECTS, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { NatsClient, RemoteError, RequestTransport } from '@paykit/transport';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import recordedEvents from './previous-contract-version/events.json';
import recordedMessages from './previous-contract-version/messages.json';

/**
 * Independent deploys (docs/compatibility.md): a service rolled to this version still reads what
 * the services one version behind send it. The fixtures are one message of every request/reply
 * subject and one event of every subject, recorded from the release before contract versions were
 * stamped (so every one is version 1), as the embedded suite sent them. They are replayed here,
 * as they are, over NATS and JetStream (the wire an older replica uses), against the current
 * handlers and consumers.
 */
describe('messages and events of the previous contract version', () => {
  let t: TestStack;
  let transport: RequestTransport;

  beforeAll(async () => {
    t = await startTestStack();
    transport = new NatsClient({ url: t.env.NATS_URL, namespace: t.env.NATS_NAMESPACE, name: 'previous-contract-version' });
  });

  afterAll(async () => {
    await transport?.close();
    await t?.stop();
  });

  it('every request reaches a handler and passes its current contract', async () => {
    const refusals: string[] = [];
    for (const { subject, envelope } of recordedMessages as Array<{ subject: string; envelope: MessageEnvelope<unknown> }>) {
      if (RETIRED_SUBJECTS.includes(subject)) continue;
      // Contracts are checked before any handler logic, so a refusal shows even though the replayed ids name nothing here.
      await transport.request(subject, envelope, 10_000).catch((error: unknown) => {
        if (!(error instanceof RemoteError)) return refusals.push(`${subject}: ${String(error)}`);
        const { code, details } = error.serialized as { code?: string; details?: { reason?: string } };
        // A body id that names nothing here (UNKNOWN_REFERENCE) passed the contract: its handler looked it up.
        if (details?.reason === 'UNKNOWN_REFERENCE') return;
        if (code === undefined || CONTRACT_REFUSALS.includes(code)) refusals.push(`${subject}: ${JSON.stringify(error.serialized)}`);
      });
    }
    expect(refusals).toEqual([]);
    expect(recordedMessages.length).toBeGreaterThanOrEqual(77);
  });

  it('every event reaches the webhooks inbox, and the events a service reads are acted on', async () => {
    const events = recordedEvents as DomainEvent[];
    for (const event of events) await t.stack.runtime.eventBus.publish(event);
    for (const [platformId, ofPlatform] of groupBy(events, (event) => event.platformId)) {
      const ctx = contextOf(platformId);
      await eventually(async () => {
        const received = new Set((await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, {}, ctx)).map((event) => event.eventId));
        return ofPlatform.every((event) => received.has(event.eventId)) || undefined;
      });
    }
    // The payments service read the customer-created event: the customer's internal accounts exist.
    const created = events.find((event) => event.subject === CUSTOMERS_EVENTS.customerCreated)!;
    const accounts = await eventually(async () => {
      const page = await t.stack.runtime.client.request(
        PAYMENTS_SUBJECTS.listInternalAccounts,
        { owner: 'CUSTOMER', customerId: created.resourceId },
        contextOf(created.platformId),
      );
      return page.data.length > 0 ? page.data : undefined;
    });
    expect(accounts.every((account) => account.customerId === created.resourceId)).toBe(true);
  });
});

/**
 * Subjects served no more, each retired only after every caller of the previous release stopped
 * calling it (docs/compatibility.md: the callers are rolled first).
 */
const RETIRED_SUBJECTS = [
  // The gateway called it before the email change became a signed action of the customers service.
  'customers.customer.validate-update',
];

/** What a handler answers when a message does not meet its contract (or is of a version it does not read). */
const CONTRACT_REFUSALS = ['INVALID_INPUT', 'INVALID_REQUEST_FORMAT', 'SERVICE_UNAVAILABLE'];

function contextOf(platformId: string): CallerContext {
  return { platformId, environment: 'sandbox', requestId: 'previous-contract-version' };
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}
