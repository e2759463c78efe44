import { randomInt } from 'node:crypto';
import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, PAYMENTS_SUBJECTS, Transaction, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { usdExternalAccountBody } from '../support/payments-fixtures';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { WebhookReceiver } from './customers.support';

/**
 * Payments core, part 2: transfer-out and transfer-in through the gateway, with every
 * sandbox outcome of the spec's table, idempotency, readiness, limits and the transactions
 * they leave behind (and their webhooks).
 */
describe('Payments: transfers and transactions', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;
  let notReadyCustomer: string;

  const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    ctx = { platformId: platform.platformId, environment: 'sandbox', requestId: 'payments-transfers-test' };
    // Created before the platform turns regulated: its KYC stays PENDING.
    notReadyCustomer = await newCustomer();
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** A customer with every field USD and EUR require (GET /config providerRequiredCustomerFields). */
  async function newCustomer(fields: Record<string, unknown> = { birthDate: '1990-04-12', nationality: 'GB', address }): Promise<string> {
    const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com', ...fields });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function internalAccount(customerId: string, currency = 'USD'): Promise<string> {
    return eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=${currency}&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
  }

  /** A USD external account whose account number ends in `suffix` (the sandbox outcome). */
  async function externalAccount(customerId: string | null, suffix: string): Promise<string> {
    const body = usdExternalAccountBody(suffix);
    const created = customerId ? await api.post('/customers/external-accounts', { customerId, ...body }) : await api.post('/platform/external-accounts', body);
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('ACTIVE');
    return created.body.id;
  }

  async function fund(accountId: string, amount: number): Promise<void> {
    expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
  }

  async function balanceOf(accountId: string): Promise<number> {
    return (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;
  }

  async function settled(transactionId: string): Promise<Transaction> {
    return eventually(async () => {
      const fetched = await api.get(`/transactions/${transactionId}`);
      return fetched.body.status === 'COMPLETED' || fetched.body.status === 'FAILED' ? (fetched.body as Transaction) : undefined;
    });
  }

  async function webhookTypes(resourceId: string, count: number): Promise<string[]> {
    return eventually(async () => {
      const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId }, ctx);
      // Events the platform is not told about (an incoming PROCESSING) carry no webhook type.
      const announced = received.flatMap((event) => (event.webhookType ? [event.webhookType] : []));
      return announced.length >= count ? announced : undefined;
    }, 30_000);
  }

  /** The platform's sandbox time `ms` from now, ISO-8601. */
  async function platformTimeIn(ms: number): Promise<string> {
    return new Date(Date.parse((await api.get('/sandbox/clock')).body.now) + ms).toISOString();
  }

  async function readyCustomerWithFunds(suffix: string, funds: number) {
    const customerId = await newCustomer();
    const accountId = await internalAccount(customerId);
    if (funds > 0) await fund(accountId, funds);
    const externalId = await externalAccount(customerId, suffix);
    return { customerId, accountId, externalId };
  }

  describe('transfer-out: sandbox outcomes by the last 3 digits of the destination', () => {
    it.each([
      ['002', 'FAILED', 'LIMIT_EXCEEDED', 10_000, ['OUTGOING_PAYMENT.FAILED']],
      ['003', 'FAILED', 'ACCOUNT_INVALID', 10_000, ['OUTGOING_PAYMENT.FAILED']],
      ['004', 'FAILED', 'ACCOUNT_CANNOT_RECEIVE', 10_000, ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.FAILED']],
      ['005', 'FAILED', 'PAYOUT_RETURNED', 10_000, ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED']],
      ['001', 'COMPLETED', undefined, 7_500, ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.COMPLETED']],
    ])('suffix %s ends %s (%s), leaving %d, announced as %j', async (suffix, status, failureReason, finalBalance, events) => {
      const { customerId, accountId, externalId } = await readyCustomerWithFunds(suffix, 10_000);
      const created = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 2_500 });
      expect(created.status).toBe(201);
      const failsImmediately = suffix === '002' || suffix === '003';
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^Transaction:[0-9a-f-]{36}$/),
        type: 'OUTGOING',
        status: failsImmediately ? 'FAILED' : 'PENDING',
        direction: 'DEBIT',
        customerId,
        platformCustomerId: expect.any(String),
        source: { sourceType: 'ACCOUNT', accountId, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: externalId, currency: 'USD' },
        paymentRail: 'ACH',
        railSelectionMode: 'AUTO',
        sentAmount: { amount: 2_500, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
        receivedAmount: { amount: 2_500, currency: { code: 'USD' } },
      });
      // (That an accepted transfer holds its amount at once is what the 200-concurrent test below shows.)
      // Every step is due within 30 s of sandbox time: the test clock passes them, no waiting on real time.
      await advanceClock(api, 31);
      const final = await settled(created.body.id);
      expect(final.status).toBe(status);
      expect(final.failureReason).toBe(failureReason);
      expect(final.settledAt).toEqual(expect.any(String));
      expect(await balanceOf(accountId)).toBe(finalBalance);
      expect(await webhookTypes(created.body.id, events.length)).toEqual(events);
    });

    it('sends the transaction, as GET returns it, with each webhook', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const created = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100, description: 'Payout #1' });
      const final = await settled(created.body.id);
      await webhookTypes(created.body.id, 2);
      const deliveries = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: created.body.id }, ctx);
      expect(deliveries.map((d) => d.subject)).toEqual(['payments.events.transaction.status-changed', 'payments.events.transaction.status-changed']);
      expect(final).toMatchObject({ description: 'Payout #1', status: 'COMPLETED' });
    });
  });

  describe('transfer-in: sandbox outcomes by the last 3 digits of the source', () => {
    it.each([
      ['002', 'FAILED', 'COLLECTION_FAILED', 0, ['INCOMING_PAYMENT.FAILED']],
      ['003', 'FAILED', 'COLLECTION_FAILED', 0, ['INCOMING_PAYMENT.FAILED']],
      ['004', 'FAILED', 'COLLECTION_FAILED', 0, ['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']],
      // PROCESSING of a pull is visible on GET, but the API announces no webhook for it.
      ['005', 'FAILED', 'COLLECTION_FAILED', 0, ['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']],
      ['789', 'COMPLETED', undefined, 4_200, ['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']],
    ])('suffix %s ends %s (%s), leaving %d, announced as %j', async (suffix, status, failureReason, finalBalance, events) => {
      const { accountId, externalId } = await readyCustomerWithFunds(suffix, 0);
      const created = await api.post('/transfer-in', { source: { accountId: externalId }, destination: { accountId }, amount: 4_200 });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        type: 'INCOMING',
        direction: 'CREDIT',
        source: { sourceType: 'ACCOUNT', accountId: externalId },
        destination: { destinationType: 'ACCOUNT', accountId },
      });
      expect(created.body).not.toHaveProperty('paymentRail');
      expect(created.body.status).toBe(suffix === '002' || suffix === '003' ? 'FAILED' : 'PENDING');
      const final = await settled(created.body.id);
      expect(final.status).toBe(status);
      expect(final.failureReason).toBe(failureReason);
      expect(await balanceOf(accountId)).toBe(finalBalance);
      expect(await webhookTypes(created.body.id, events.length)).toEqual(events);
    });
  });

  it("moves the platform's own accounts to and from the platform's external accounts", async () => {
    const platformAccounts = await api.get('/platform/internal-accounts?currency=USD');
    const accountId = platformAccounts.body.data[0].id;
    const externalId = await externalAccount(null, '321');
    const incoming = await api.post('/transfer-in', { source: { accountId: externalId }, destination: { accountId }, amount: 900 });
    expect(incoming.status).toBe(201);
    // The platform's own accounts have no customer: their transactions name the platform.
    expect(incoming.body).toMatchObject({ customerId: ctx.platformId, platformCustomerId: ctx.platformId });
    const mine = await api.get(`/transactions?customerId=${encodeURIComponent(ctx.platformId)}`);
    expect(mine.body.data.map((tx: Transaction) => tx.id)).toContain(incoming.body.id);
    expect((await settled(incoming.body.id)).status).toBe('COMPLETED');
    const outgoing = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 400 });
    expect((await settled(outgoing.body.id)).status).toBe('COMPLETED');
    expect(await balanceOf(accountId)).toBe(500);
  });

  describe("the reference's transfer fields", () => {
    it('keeps destination.paymentRail, remittanceInformation and purposeOfPayment, returns them on GET and filters by the remittance text', async () => {
      const { customerId, accountId, externalId } = await readyCustomerWithFunds('001', 10_000);
      const remittanceInformation = `Invoice ${randomInt(1e9)}`;
      const created = await api.post('/transfer-out', {
        source: { accountId },
        destination: { accountId: externalId, paymentRail: 'WIRE' },
        amount: 1_250,
        remittanceInformation,
        purposeOfPayment: 'GOODS_OR_SERVICES',
      });
      expect(created.status).toBe(201);
      const expected = {
        direction: 'DEBIT',
        customerId,
        paymentRail: 'WIRE',
        railSelectionMode: 'MANUAL',
        remittanceInformation,
        purposeOfPayment: 'GOODS_OR_SERVICES',
        sentAmount: { amount: 1_250 },
      };
      expect(created.body).toMatchObject(expected);
      expect((await api.get(`/transactions/${created.body.id}`)).body).toMatchObject(expected);
      const listed = await api.get(`/transactions?reference=${encodeURIComponent(remittanceInformation)}`);
      expect(listed.body.data.map((tx: Transaction) => tx.id)).toEqual([created.body.id]);
      const customer = await api.get(`/customers/${customerId}`);
      expect(created.body.platformCustomerId).toBe(customer.body.platformCustomerId);
      const byPlatformCustomer = await api.get(`/transactions?platformCustomerId=${encodeURIComponent(customer.body.platformCustomerId)}&senderAccountIdentifier=${accountId}`);
      expect(byPlatformCustomer.body.data.map((tx: Transaction) => tx.id)).toEqual([created.body.id]);
    });

    it('lists every invalid reference field at once: an unknown rail, remittance text over 80 characters, an unknown purpose', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const response = await api.post('/transfer-out', {
        source: { accountId },
        destination: { accountId: externalId, paymentRail: 'CARRIER_PIGEON' },
        amount: 100,
        remittanceInformation: 'x'.repeat(81),
        purposeOfPayment: 'BRIBE',
      });
      expect(response.status).toBe(400);
      expect(response.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['destination.paymentRail', 'purposeOfPayment', 'remittanceInformation']);
      expect(await balanceOf(accountId)).toBe(1_000);
    });

    it('sends the whole available balance when a transfer-out omits the amount', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 7_300);
      const created = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId } });
      expect(created.status).toBe(201);
      expect(created.body.sentAmount.amount).toBe(7_300);
      expect((await settled(created.body.id)).status).toBe('COMPLETED');
      expect(await balanceOf(accountId)).toBe(0);
      // Nothing left to send: refused, nothing created.
      const empty = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId } });
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ code: 'INVALID_AMOUNT', details: { field: 'amount', availableBalance: 0 } });
      expect((await api.get(`/transactions?accountId=${accountId}`)).body.data).toHaveLength(1);
    });

    it('answers 400 INVALID_AMOUNT to a transfer-in without an amount, creating nothing', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 0);
      const response = await api.post('/transfer-in', { source: { accountId: externalId }, destination: { accountId } });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_AMOUNT', details: { field: 'amount' } });
      expect((await api.get(`/transactions?accountId=${accountId}`)).body.data).toEqual([]);
    });

    it('lists oldest first with sortOrder=asc and filters by sender and receiver', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const first = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100 });
      const second = await api.post('/transfer-in', { source: { accountId: externalId }, destination: { accountId }, amount: 100 });
      const ascending = await api.get(`/transactions?accountIdentifier=${accountId}&sortOrder=asc`);
      expect(ascending.body.data.map((tx: Transaction) => tx.id)).toEqual([first.body.id, second.body.id]);
      const sent = await api.get(`/transactions?senderAccountIdentifier=${accountId}`);
      expect(sent.body.data.map((tx: Transaction) => tx.id)).toEqual([first.body.id]);
      expect(sent.body.totalCount).toBe(1);
      expect(ascending.body.totalCount).toBe(2);
      const received = await api.get(`/transactions?receiverAccountIdentifier=${accountId}&startDate=2020-01-01T00:00:00Z`);
      expect(received.body.data.map((tx: Transaction) => tx.id)).toEqual([second.body.id]);
      expect((await api.get(`/transactions?accountId=${accountId}&status=REFUNDED`)).body).toMatchObject({ data: [], totalCount: 0 });
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeat of the same request with the same transaction and moves the money once', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const body = { source: { accountId }, destination: { accountId: externalId }, amount: 300 };
      const headers = { 'idempotency-key': `out-${randomInt(1e9)}` };
      const first = await api.post('/transfer-out', body, { headers });
      const replays = await Promise.all([1, 2, 3].map(() => api.post('/transfer-out', body, { headers })));
      expect(first.status).toBe(201);
      for (const replay of replays) {
        expect(replay.status).toBe(201);
        expect(replay.body).toEqual(first.body);
      }
      await settled(first.body.id);
      expect(await balanceOf(accountId)).toBe(700);
      const listed = await api.get(`/transactions?accountId=${accountId}`);
      expect(listed.body.data).toHaveLength(1);
    });

    it('lets concurrent first uses of one key create one transaction', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const body = { source: { accountId: externalId }, destination: { accountId }, amount: 250 };
      const headers = { 'idempotency-key': `in-${randomInt(1e9)}` };
      const answers = await Promise.all(Array.from({ length: 8 }, () => api.post('/transfer-in', body, { headers })));
      expect(new Set(answers.map((a) => a.status))).toEqual(new Set([201]));
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      await settled(answers[0].body.id);
      expect(await balanceOf(accountId)).toBe(1_250);
    });

    it('refuses the same key with another body with 409 CONFLICT and moves nothing', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const headers = { 'idempotency-key': `reuse-${randomInt(1e9)}` };
      const first = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100 }, { headers });
      expect(first.status).toBe(201);
      const other = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 101 }, { headers });
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ status: 409, code: 'CONFLICT', details: { reason: 'IDEMPOTENCY_KEY_REUSED' } });
      const otherDirection = await api.post('/transfer-in', { source: { accountId: externalId }, destination: { accountId }, amount: 100 }, { headers });
      expect(otherDirection.status).toBe(409);
      await settled(first.body.id);
      expect(await balanceOf(accountId)).toBe(900);
    });
  });

  describe('refusals (nothing moves)', () => {
    it('lists every invalid field at once', async () => {
      const response = await api.post('/transfer-out', { source: { accountId: 'ExternalAccount:00000000-0000-7000-8000-000000000000' }, destination: {}, amount: 0, extra: 1 });
      expect(response.status).toBe(400);
      const fields = response.body.details.errors.map((e: { field: string }) => e.field).sort();
      expect(fields).toEqual(['amount', 'destination.accountId', 'extra', 'source.accountId']);
      const pattern = response.body.details.errors.find((e: { field: string }) => e.field === 'source.accountId');
      expect(pattern.constraint.pattern).toMatch(/^\^InternalAccount:/);
    });

    it.each(['/transfer-out', '/transfer-in'])('%s with an empty body names the missing source and destination', async (path) => {
      const response = await api.post(path, {});
      expect(response.status).toBe(400);
      expect(response.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['destination', 'source']);
    });

    it('answers 403 USER_NOT_READY for a customer whose KYC is not APPROVED', async () => {
      const accountId = await internalAccount(notReadyCustomer);
      await fund(accountId, 1_000);
      const externalId = await externalAccount(notReadyCustomer, '001');
      for (const [path, body] of [
        ['/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100 }],
        ['/transfer-in', { source: { accountId: externalId }, destination: { accountId }, amount: 100 }],
      ] as const) {
        const response = await api.post(path, body);
        expect(response.status).toBe(403);
        expect(response.body.code).toBe('USER_NOT_READY');
      }
      expect(await balanceOf(accountId)).toBe(1_000);
    });

    it('answers 400 MISSING_MANDATORY_USER_INFO for a customer lacking fields the currency requires', async () => {
      const customerId = await newCustomer({});
      const accountId = await internalAccount(customerId);
      await fund(accountId, 1_000);
      const externalId = await externalAccount(customerId, '001');
      const response = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100 });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'MISSING_MANDATORY_USER_INFO', details: { missingFields: expect.arrayContaining(['birthDate']) } });
      expect(await balanceOf(accountId)).toBe(1_000);
    });

    it('answers 400 INVALID_AMOUNT when the available balance is short, creating no transaction', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 999);
      const response = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 1_000 });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_AMOUNT', details: { reason: 'INSUFFICIENT_FUNDS' } });
      expect((await api.get(`/transactions?accountId=${accountId}`)).body.data).toEqual([]);
      expect(await balanceOf(accountId)).toBe(999);
    });

    it.each([
      ['an amount above the per-transfer limit', { amount: 100_000_001 }, 400, 'AMOUNT_OUT_OF_RANGE'],
      ["a currency other than the accounts'", { currency: 'EUR' }, 400, 'INVALID_CURRENCY'],
    ])('answers %s (%j) with %d %s', async (_, change, status, code) => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const response = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100, ...change });
      expect(response.status).toBe(status);
      expect(response.body.code).toBe(code);
      expect(await balanceOf(accountId)).toBe(1_000);
    });

    it('answers 400 INVALID_CURRENCY between accounts of different currencies', async () => {
      const { customerId, externalId } = await readyCustomerWithFunds('001', 0);
      const eurAccount = await internalAccount(customerId, 'EUR');
      const response = await api.post('/transfer-in', { source: { accountId: externalId }, destination: { accountId: eurAccount }, amount: 100 });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_CURRENCY');
    });

    it("answers 403 COUNTERPARTY_NOT_ALLOWED for another customer's external account", async () => {
      const { accountId } = await readyCustomerWithFunds('001', 1_000);
      const stranger = await readyCustomerWithFunds('001', 0);
      const response = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: stranger.externalId }, amount: 100 });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('COUNTERPARTY_NOT_ALLOWED');
    });

    it('answers 400 INVALID_BANK_ACCOUNT for an external account that is no longer ACTIVE', async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      expect((await api.delete(`/customers/external-accounts/${externalId}`)).status).toBeLessThan(300);
      const response = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100 });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_BANK_ACCOUNT');
    });

    it("answers another platform's or an unknown internal account with 404 REFERENCE_NOT_FOUND", async () => {
      const { accountId, externalId } = await readyCustomerWithFunds('001', 1_000);
      const other = await t.newPlatform();
      const response = await other.api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100 });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
      const unknown = await api.post('/transfer-out', {
        source: { accountId: 'InternalAccount:00000000-0000-7000-8000-000000000000' },
        destination: { accountId: externalId },
        amount: 100,
      });
      expect(unknown.body.code).toBe('REFERENCE_NOT_FOUND');
    });

    it("answers 403 VELOCITY_LIMIT_EXCEEDED past a customer's daily count or amount", async () => {
      const { customerId, accountId, externalId } = await readyCustomerWithFunds('001', 10_000);
      await t.stack.runtime.client.request(PAYMENTS_SUBJECTS.setVelocityLimit, { customerId, currency: 'USD', maxCountPerDay: 2, maxAmountPerDay: 1_000 }, ctx);
      const out = (amount: number) => api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount });
      expect((await out(600)).status).toBe(201);
      const overAmount = await out(401);
      expect(overAmount.status).toBe(403);
      expect(overAmount.body).toMatchObject({ code: 'VELOCITY_LIMIT_EXCEEDED', details: { maxAmountPerDay: 1_000, amountLast24h: 600 } });
      expect((await out(400)).status).toBe(201);
      const overCount = await out(1);
      expect(overCount.status).toBe(403);
      expect(overCount.body.details).toMatchObject({ maxCountPerDay: 2, countLast24h: 2 });
    });
  });

  it('lets exactly 100 of 200 concurrent transfer-outs through on an account funded for 100, leaving zero', async () => {
    const { accountId, externalId } = await readyCustomerWithFunds('001', 100 * 50);
    const answers = await Promise.all(Array.from({ length: 200 }, () => api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 50 })));
    // Tallied by status and code, so an answer of any other kind shows in the failure.
    const tally: Record<string, number> = {};
    for (const answer of answers) {
      const kind = answer.status === 201 ? '201' : `${answer.status} ${answer.body?.code}`;
      tally[kind] = (tally[kind] ?? 0) + 1;
    }
    expect(tally).toEqual({ '201': 100, '400 INVALID_AMOUNT': 100 });
    for (const answer of answers.filter((a) => a.status === 201)) expect((await settled(answer.body.id)).status).toBe('COMPLETED');
    expect(await balanceOf(accountId)).toBe(0);
  });

  describe('transactions', () => {
    let customerId: string;
    let accountId: string;
    let ids: string[];

    beforeAll(async () => {
      const setup = await readyCustomerWithFunds('001', 10_000);
      customerId = setup.customerId;
      accountId = setup.accountId;
      const failing = await externalAccount(customerId, '002');
      ids = [];
      for (const [path, body] of [
        ['/transfer-out', { source: { accountId }, destination: { accountId: setup.externalId }, amount: 100 }],
        ['/transfer-in', { source: { accountId: setup.externalId }, destination: { accountId }, amount: 200 }],
        ['/transfer-out', { source: { accountId }, destination: { accountId: failing }, amount: 300 }],
      ] as const) {
        const created = await api.post(path, body);
        expect(created.status).toBe(201);
        ids.push(created.body.id);
      }
      await Promise.all(ids.map(settled));
    });

    it('gets one, and answers an unknown or foreign id with 404 TRANSACTION_NOT_FOUND', async () => {
      expect((await api.get(`/transactions/${ids[0]}`)).body).toMatchObject({ id: ids[0], status: 'COMPLETED' });
      const other = await t.newPlatform();
      for (const response of [await other.api.get(`/transactions/${ids[0]}`), await api.get('/transactions/Transaction:00000000-0000-7000-8000-000000000000')]) {
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
      }
      expect((await other.api.get(`/transactions?customerId=${customerId}`)).body.data).toEqual([]);
    });

    it.each([
      ['customer', () => `customerId=${customerId}`, [2, 1, 0]],
      ['account', () => `accountId=${accountId}`, [2, 1, 0]],
      ['status', () => `customerId=${customerId}&status=FAILED`, [2]],
      ['type', () => `customerId=${customerId}&type=INCOMING`, [1]],
      // Times in the platform's sandbox time (its test clock was advanced above), a minute from its now.
      ['created range (none after now)', async () => `customerId=${customerId}&createdAfter=${await platformTimeIn(60_000)}`, []],
      ['created range (all before the future)', async () => `customerId=${customerId}&createdBefore=${await platformTimeIn(60_000)}`, [2, 1, 0]],
    ])('filters by %s, newest first', async (_, query: () => string | Promise<string>, expected) => {
      const listed = await api.get(`/transactions?${await query()}`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((tx: Transaction) => tx.id)).toEqual(expected.map((i) => ids[i]));
    });

    it('pages with a cursor', async () => {
      const first = await api.get(`/transactions?customerId=${customerId}&limit=2`);
      expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String) });
      const second = await api.get(`/transactions?customerId=${customerId}&limit=2&cursor=${first.body.nextCursor}`);
      expect(second.body.hasMore).toBe(false);
      expect([...first.body.data, ...second.body.data].map((tx: Transaction) => tx.id)).toEqual([ids[2], ids[1], ids[0]]);
    });

    it.each([
      ['status=DONE', 'status'],
      ['type=SIDEWAYS', 'type'],
      ['createdAfter=yesterday', 'createdAfter'],
      ['limit=1000', 'limit'],
    ])('refuses %s with 400 naming %s', async (query, field) => {
      const response = await api.get(`/transactions?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.details.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    });
  });

  describe('webhooks delivered to the platform endpoint', () => {
    let receiver: WebhookReceiver;

    // Attached here, after the other tests: only the transfers below are delivered to it.
    beforeAll(async () => {
      receiver = await WebhookReceiver.attach(api);
    });

    afterAll(async () => {
      await receiver?.close();
    });

    it.each([
      ['completes', '001', ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.COMPLETED']],
      ['fails (suffix 002)', '002', ['OUTGOING_PAYMENT.FAILED']],
    ])('delivers every status of a transfer-out that %s, signed, the last one carrying the transaction as GET returns it', async (_, suffix, types) => {
      const { accountId, externalId } = await readyCustomerWithFunds(suffix, 1_000);
      const created = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 100, description: `Payout ${suffix}` });
      expect(created.status).toBe(201);
      const final = await settled(created.body.id);
      const received = await receiver.waitFor(created.body.id, types);
      // At least once: a redelivery repeats the payload `id`, the receiver's idempotency key.
      const deliveries = [...new Map(received.map((delivery) => [delivery.payload.id, delivery])).values()];
      expect(deliveries.map((delivery) => delivery.payload.type)).toEqual(types);
      for (const delivery of deliveries) {
        expect(delivery.verified).toBe(true);
        expect(delivery.payload).toEqual({
          id: expect.stringMatching(/^Webhook:/),
          type: `OUTGOING_PAYMENT.${delivery.payload.data.status}`,
          timestamp: expect.any(String),
          data: expect.objectContaining({ id: created.body.id }),
        });
      }
      expect(deliveries[deliveries.length - 1].payload.data).toEqual(final);
      expect((await api.get(`/transactions/${created.body.id}`)).body).toEqual(final);
    });
  });

  it('documents the endpoints in the OpenAPI output', async () => {
    const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
    expect(document.paths['/transfer-out'].post.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
    expect(document.paths['/transfer-in'].post).toBeDefined();
    expect(document.paths['/transactions'].get).toBeDefined();
    expect(document.paths['/transactions/{transactionId}'].get).toBeDefined();
    // The reference's required transaction properties and optional transfer amounts are documented as served.
    const transaction = document.components.schemas.TransactionResponseDto;
    expect(transaction.required).toEqual(expect.arrayContaining(['id', 'type', 'status', 'direction', 'customerId', 'platformCustomerId', 'source', 'destination']));
    expect(document.components.schemas.TransactionSourceDto.required).toEqual(expect.arrayContaining(['sourceType', 'accountId']));
    expect(document.components.schemas.TransactionDestinationDto.required).toEqual(expect.arrayContaining(['destinationType', 'accountId']));
    for (const body of ['TransferOutRequest', 'TransferInRequest']) expect(document.components.schemas[body].required ?? []).not.toContain('amount');
    expect(document.components.schemas.TransferOutRequest.properties.remittanceInformation).toMatchObject({ maxLength: 80 });
  });
});
