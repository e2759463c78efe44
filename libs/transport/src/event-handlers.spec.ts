import { CARDS_WORK_EVENTS, ContractChanges, CUSTOMERS_EVENTS, DomainEvent, PAYMENTS_EVENTS } from '@paykit/contracts';
import { NewerContractVersion } from './contract-reading';
import { handleEventBatches, handleEvents, ReadEvent, UnreadableEvent } from './event-handlers';

const CUSTOMER_ID = 'Customer:0190a5b8-0000-7000-8000-000000000001';

function customerCreated(data: unknown, schemaVersion = 1): DomainEvent {
  return {
    eventId: '0190a5b8-0000-7000-8000-0000000000e1',
    subject: CUSTOMERS_EVENTS.customerCreated,
    occurredAt: '2026-11-25T10:00:00.000Z',
    platformId: 'Platform:1',
    schemaVersion,
    resourceId: CUSTOMER_ID,
    data,
  };
}

/** Handles customer-created events into `received`. */
function recorder(changes?: ContractChanges): { handle: (event: DomainEvent) => Promise<void>; received: Array<ReadEvent<typeof CUSTOMERS_EVENTS.customerCreated>> } {
  const received: Array<ReadEvent<typeof CUSTOMERS_EVENTS.customerCreated>> = [];
  const handle = handleEvents({ [CUSTOMERS_EVENTS.customerCreated]: async (event) => void received.push(event) }, changes);
  return { handle, received };
}

describe(handleEvents.name, () => {
  it('hands the handler the fields its payload contract reads, validated; fields it does not read are dropped', async () => {
    const { handle, received } = recorder();
    await handle(customerCreated({ id: CUSTOMER_ID, email: 'ada@example.com', fullName: 'Ada', addedLater: true }));
    expect(received).toHaveLength(1);
    expect(received[0].data).toEqual({ id: CUSTOMER_ID, email: 'ada@example.com' });
    expect(received[0]).toMatchObject({ subject: CUSTOMERS_EVENTS.customerCreated, platformId: 'Platform:1', resourceId: CUSTOMER_ID });
  });

  it('acknowledges unread the events of subjects it has no handler for', async () => {
    const { handle, received } = recorder();
    await expect(handle({ ...customerCreated({ anything: 1 }), subject: PAYMENTS_EVENTS.transactionStatusChanged })).resolves.toBeUndefined();
    await expect(handle({ ...customerCreated({ anything: 1 }), subject: CARDS_WORK_EVENTS.pullDue })).resolves.toBeUndefined();
    expect(received).toEqual([]);
  });

  it('fails an event whose payload breaks its contract as unreadable, naming the fields (no retry would make it valid: it is parked)', async () => {
    const { handle, received } = recorder();
    const failure = handle(customerCreated({ id: 'not a customer id', email: 7 }));
    await expect(failure).rejects.toBeInstanceOf(UnreadableEvent);
    await expect(failure).rejects.toMatchObject({ retryable: false, message: expect.stringMatching(/"field":"id".*"field":"email"|"field":"email".*"field":"id"/) });
    expect(received).toEqual([]);
  });

  it('reads the previous version of a changed contract through its upcaster', async () => {
    // Version 2 renamed `emailAddress` (version 1) to `email`.
    const changes: ContractChanges = {
      [CUSTOMERS_EVENTS.customerCreated]: {
        version: 2,
        fromPrevious: (previous) => {
          const { emailAddress, ...rest } = previous as { emailAddress?: string };
          return { ...rest, email: emailAddress };
        },
      },
    };
    const { handle, received } = recorder(changes);
    await handle(customerCreated({ id: CUSTOMER_ID, emailAddress: 'old@example.com' }, 1));
    await handle(customerCreated({ id: CUSTOMER_ID, email: 'new@example.com' }, 2));
    expect(received.map((event) => event.data.email)).toEqual(['old@example.com', 'new@example.com']);
  });

  it('fails an event from a newer release, so the bus retries it until an upgraded replica takes it', async () => {
    const { handle, received } = recorder();
    await expect(handle(customerCreated({ id: CUSTOMER_ID }, 2))).rejects.toBeInstanceOf(NewerContractVersion);
    expect(received).toEqual([]);
  });
});

describe(handleEventBatches.name, () => {
  const customerUpdated = (id: string): DomainEvent => ({ ...customerCreated({ id }), eventId: `updated ${id}`, subject: CUSTOMERS_EVENTS.customerUpdated, resourceId: id });
  const otherCustomer = 'Customer:0190a5b8-0000-7000-8000-000000000002';

  it("hands each run of one subject's events to its handler at once, runs in stream order, other subjects unread", async () => {
    const calls: string[] = [];
    const handle = handleEventBatches({
      [CUSTOMERS_EVENTS.customerCreated]: async (events) => void calls.push(`created ${events.map((event) => event.data.id).join(',')}`),
      [CUSTOMERS_EVENTS.customerUpdated]: async (events) => void calls.push(`updated ${events.map((event) => event.data.id).join(',')}`),
    });
    await handle([
      customerCreated({ id: CUSTOMER_ID, fullName: 'dropped' }),
      { ...customerCreated({ anything: 1 }), subject: PAYMENTS_EVENTS.transactionStatusChanged },
      customerCreated({ id: otherCustomer }),
      customerUpdated(CUSTOMER_ID),
      customerCreated({ id: otherCustomer }),
    ]);
    expect(calls).toEqual([`created ${CUSTOMER_ID},${otherCustomer}`, `updated ${CUSTOMER_ID}`, `created ${otherCustomer}`]);
  });

  it('fails the whole batch when one event breaks its contract (the guard then takes the events one by one)', async () => {
    const applied: string[] = [];
    const handle = handleEventBatches({ [CUSTOMERS_EVENTS.customerCreated]: async (events) => void applied.push(...events.map((event) => event.data.id)) });
    await expect(handle([customerCreated({ id: CUSTOMER_ID }), customerCreated({ id: 'not a customer id' })])).rejects.toBeInstanceOf(UnreadableEvent);
    expect(applied).toEqual([]);
  });
});
