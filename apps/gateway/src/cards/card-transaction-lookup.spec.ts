import { CallerContext, CardTransaction, Page, Transaction } from '@paykit/contracts';
import { ServiceClient } from '@paykit/transport';
import { listWithCardTransactions } from './card-transaction-lookup';

const caller: CallerContext = { platformId: 'platform-1', environment: 'sandbox', requestId: 'spec' };
// UUIDv7-like ids: the uuid part orders them by creation (here: by the digit).
const uuid = (n: number) => `0190f1c2-7a6b-7cc1-9a2e-00000000000${n}`;
const payment = (n: number) => ({ id: `Transaction:${uuid(n)}`, type: 'OUTGOING' }) as unknown as Transaction;
const card = (n: number) => ({ id: `CardTransaction:${uuid(n)}`, type: 'CARD' }) as unknown as CardTransaction;
const cursorOf = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

function setup(payments: Transaction[], cards: CardTransaction[]) {
  const request = jest.fn((_subject: string, payload: { limit: number; cursor?: string; sortOrder?: string }) => {
    const past = payload.cursor === undefined ? undefined : Buffer.from(payload.cursor, 'base64url').toString('utf8').split(':')[1];
    const asc = payload.sortOrder === 'asc';
    const rows = cards
      .filter((c) => past === undefined || (asc ? c.id.split(':')[1] > past : c.id.split(':')[1] < past))
      .sort((a, b) => (asc ? 1 : -1) * (a.id.split(':')[1] < b.id.split(':')[1] ? -1 : 1));
    return Promise.resolve<Page<CardTransaction>>({ data: rows.slice(0, payload.limit), hasMore: rows.length > payload.limit });
  });
  const listPayments = jest.fn((cursor: string | undefined, limit: number, asc = false) => {
    const past = cursor === undefined ? undefined : Buffer.from(cursor, 'base64url').toString('utf8').split(':')[1];
    const rows = payments
      .filter((p) => past === undefined || (asc ? p.id.split(':')[1] > past : p.id.split(':')[1] < past))
      .sort((a, b) => (asc ? 1 : -1) * (a.id.split(':')[1] < b.id.split(':')[1] ? -1 : 1));
    return Promise.resolve<Page<Transaction>>({ data: rows.slice(0, limit), hasMore: rows.length > limit });
  });
  return { services: { request } as unknown as ServiceClient, request, listPayments };
}

describe(listWithCardTransactions.name, () => {
  it('merges both owners newest first, page after page, with one cursor', async () => {
    const { services, listPayments } = setup([payment(1), payment(4), payment(5)], [card(2), card(3), card(6)]);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listWithCardTransactions(services, { limit: 2, cursor }, caller, listPayments);
      seen.push(...page.data.map((t) => t.id));
      cursor = page.nextCursor;
      if (page.hasMore) expect(cursor).toBe(cursorOf(page.data[page.data.length - 1].id));
    } while (cursor);
    expect(seen.map((id) => Number(id.slice(-1)))).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('merges oldest first with sortOrder asc', async () => {
    const { services } = setup([payment(1), payment(4)], [card(2), card(3)]);
    const listPayments = jest.fn((cursor: string | undefined, limit: number) => {
      const past = cursor === undefined ? undefined : Buffer.from(cursor, 'base64url').toString('utf8').split(':')[1];
      const rows = [payment(1), payment(4)].filter((p) => past === undefined || p.id.split(':')[1] > past);
      return Promise.resolve<Page<Transaction>>({ data: rows.slice(0, limit), hasMore: rows.length > limit });
    });
    const first = await listWithCardTransactions(services, { limit: 3, sortOrder: 'asc' }, caller, listPayments);
    expect(first.data.map((t) => Number(t.id.slice(-1)))).toEqual([1, 2, 3]);
    const next = await listWithCardTransactions(services, { limit: 3, sortOrder: 'asc', cursor: first.nextCursor }, caller, listPayments);
    expect(next.data.map((t) => Number(t.id.slice(-1)))).toEqual([4]);
    expect(next.hasMore).toBe(false);
  });

  it.each([
    ['a type', { type: 'OUTGOING' as const }],
    ['a reference', { reference: 'INV-1' }],
    ['a receiver account', { receiverAccountIdentifier: 'ExternalAccount:x' }],
    ['a status no card transaction has', { status: 'COMPLETED' as const }],
    ["the platform's own customer id", { customerId: 'Platform:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }],
    ['two different accounts', { accountId: 'InternalAccount:a', senderAccountIdentifier: 'InternalAccount:b' }],
  ])('leaves card transactions out for %s', async (_, filters) => {
    const { services, request, listPayments } = setup([payment(1)], [card(2)]);
    const page = await listWithCardTransactions(services, { limit: 5, ...filters }, caller, listPayments);
    expect(page.data.map((t) => t.id)).toEqual([payment(1).id]);
    expect(request).not.toHaveBeenCalled();
  });

  it('hands a cursor it never issued to payments, which refuses it', async () => {
    const { services, request, listPayments } = setup([], []);
    await listWithCardTransactions(services, { cursor: 'bm9wZQ' }, caller, listPayments);
    expect(listPayments).toHaveBeenCalledWith('bm9wZQ', 20);
    expect(request).not.toHaveBeenCalled();
  });

  it('asks cards with the funding account, the customer, the status and an inclusive end date', async () => {
    const { services, request, listPayments } = setup([], []);
    await listWithCardTransactions(
      services,
      { accountIdentifier: 'InternalAccount:a', customerId: 'Customer:c', status: 'PENDING', endDate: '2025-10-13T00:00:00.000Z', platformCustomerId: 'emp-1' },
      caller,
      listPayments,
    );
    expect(request).toHaveBeenCalledWith(
      'cards.card-transaction.search',
      expect.objectContaining({
        accountId: 'InternalAccount:a',
        customerId: 'Customer:c',
        status: 'PENDING',
        platformCustomerId: 'emp-1',
        createdBefore: '2025-10-13T00:00:00.001Z',
      }),
      caller,
    );
  });
});
