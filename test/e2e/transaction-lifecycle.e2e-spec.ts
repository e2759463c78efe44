import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, Transaction, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { AdvanceQuoteStep } from '../../apps/payments/src/quotes/use-cases/advance-quote-step';
import { ApiClient } from '../support/api-client';
import { mxnExternalAccountBody } from '../support/payments-fixtures';
import { ledgerOf as ledgerOfReference } from '../support/ledger';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { WebhookReceiver } from './customers.support';

/**
 * The transaction lifecycle guide's refunds through HTTP: every row of the quote table with its
 * refund, the guide's failure with refund, bank return and manual cancellation, and the refund of
 * an accepted incoming payment that cannot complete; webhooks in the guide's order and the ledger
 * checked in each currency. Sandbox time runs unscaled here and moves only as far as the tests
 * advance the test clock, so a payment can be caught while it is PROCESSING.
 */
describe('Transaction lifecycle: refunds', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;
  let platformId: string;
  let receiver: WebhookReceiver;

  const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
  const PAID = { USD: { HOLDING: -10_000, FX_CONVERSION: 9_850, FEES: 150 }, MXN: { FX_CONVERSION: -169_912, EXTERNAL_CLEARING: 169_912 } };

  beforeAll(async () => {
    t = await startTestStack({ env: { SANDBOX_TIME_SCALE: '1' } });
    const platform = await t.newPlatform();
    api = platform.api;
    platformId = platform.platformId;
    ctx = { platformId, environment: 'sandbox', requestId: 'lifecycle-test' };
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
    // 202: the platform acknowledges incoming payments' PENDING webhooks and decides through the API.
    receiver = await WebhookReceiver.attach(api, 202);
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.stop();
  });

  async function newCustomer(fields: Record<string, unknown> = {}): Promise<string> {
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-04-12',
      email: 'ada@example.com',
      nationality: 'GB',
      address,
      ...fields,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function internalAccount(customerId: string, currency = 'USD'): Promise<string> {
    return eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=${currency}&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
  }

  async function balanceOf(accountId: string): Promise<number> {
    return (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;
  }

  /** A ready customer with 10,000 USD cents and an MXN beneficiary whose CLABE ends in `suffix`. */
  async function payer(suffix: string) {
    const customerId = await newCustomer();
    const accountId = await internalAccount(customerId);
    expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 10_000 })).status).toBe(200);
    const created = await api.post('/customers/external-accounts', { customerId, ...mxnExternalAccountBody(suffix) });
    expect([created.status, created.body.status]).toEqual([201, 'ACTIVE']);
    return { customerId, accountId, payeeId: created.body.id as string };
  }

  /** Executes a 10,000 USD cents payout to the payee. */
  async function payout(accountId: string, payeeId: string): Promise<{ quoteId: string; transactionId: string }> {
    const created = await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect([created.status, created.status === 201 ? undefined : created.body]).toEqual([201, undefined]);
    expect((await api.post(`/quotes/${created.body.id}/execute`, {})).status).toBe(200);
    return { quoteId: created.body.id, transactionId: created.body.transactionId };
  }

  /** The webhook types announced for a resource, in order, once there are `count` of them. */
  async function webhookTypes(resourceId: string, count: number): Promise<string[]> {
    return eventually(async () => {
      const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId }, ctx);
      return received.length >= count ? received.map((event) => event.webhookType ?? '') : undefined;
    }, 30_000);
  }

  /** Advances the sandbox clock `seconds` at a time until `check` holds (every scheduled step comes due). */
  async function driveUntil<T>(check: () => Promise<T | undefined>, seconds = 60): Promise<T> {
    return eventually(async () => {
      await advanceClock(api, seconds);
      return check();
    }, 30_000);
  }

  /** The transaction once `done` holds for it, driving the clock. */
  async function transactionWhen(transactionId: string, done: (tx: Transaction) => boolean, seconds = 60): Promise<Transaction> {
    return driveUntil(async () => {
      const fetched = await api.get(`/transactions/${transactionId}`);
      return done(fetched.body as Transaction) ? (fetched.body as Transaction) : undefined;
    }, seconds);
  }

  const ledgerOf = (referenceId: string) => ledgerOfReference(t, platformId, referenceId);

  /** How many QUOTE_REFUND entries a quote has. */
  async function refundEntries(quoteId: string): Promise<number> {
    const [row] = await t.stack.services
      .get('payments')!
      .get(DataSource)
      .query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM journal_entry WHERE platform_id = $1 AND reference_id = $2 AND kind = 'QUOTE_REFUND'`, [
        platformId,
        quoteId,
      ]);
    return Number(row.count);
  }

  const ended = (tx: Transaction) => ['COMPLETED', 'FAILED'].includes(tx.status) && (tx.refund === undefined || tx.refund.status !== 'PENDING');

  describe('each row of the quote table ends with its refund', () => {
    it.each([
      ['001', 'COMPLETED', undefined, undefined, 0, ['PENDING', 'PROCESSING', 'COMPLETED'], PAID],
      ['002', 'FAILED', 'QUOTE_EXECUTION_FAILED', undefined, 10_000, ['FAILED'], {}],
      ['003', 'COMPLETED', undefined, undefined, 0, ['PENDING', 'PROCESSING', 'COMPLETED'], PAID],
      [
        '004',
        'FAILED',
        'ACCOUNT_CANNOT_RECEIVE',
        { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
        10_000,
        ['PENDING', 'PROCESSING', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'],
        {},
      ],
      [
        '005',
        'FAILED',
        'PAYOUT_RETURNED',
        { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
        10_000,
        ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'],
        {},
      ],
      ['006', 'FAILED', 'QUOTE_EXECUTION_FAILED', { status: 'COMPLETED', reason: 'USER_CANCELLATION' }, 10_000, ['PENDING', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'], {}],
      // The refund failed: the money stays with the service (the guide: contact support), the payout leg never posted.
      [
        '007',
        'FAILED',
        'COUNTERPARTY_POST_TX_FAILED',
        { status: 'FAILED', reason: 'TRANSACTION_FAILED' },
        0,
        ['PENDING', 'PROCESSING', 'FAILED', 'REFUND_PENDING', 'REFUND_FAILED'],
        { USD: PAID.USD },
      ],
    ])('suffix %s ends %s (%s) with refund %j, leaving %d, announced as %j', async (suffix, status, failureReason, refund, balance, statuses, ledger) => {
      const { accountId, payeeId } = await payer(suffix);
      const { quoteId, transactionId } = await payout(accountId, payeeId);
      const types = statuses.map((s) => `OUTGOING_PAYMENT.${s}`);
      const final = await driveUntil(async () => {
        const fetched = (await api.get(`/transactions/${transactionId}`)).body as Transaction;
        const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: transactionId }, ctx);
        return ended(fetched) && received.length >= types.length ? fetched : undefined;
      });
      expect([final.status, final.failureReason]).toEqual([status, failureReason]);
      if (refund) {
        expect(final.refund).toMatchObject({ ...refund, reference: expect.stringMatching(/^REFUND-[0-9A-F]{12}$/) });
        expect(Date.parse(final.refund!.settledAt!)).toBeGreaterThanOrEqual(Date.parse(final.refund!.initiatedAt));
      } else {
        expect(final.refund).toBeUndefined();
      }
      expect(await balanceOf(accountId)).toBe(balance);
      expect(await ledgerOf(quoteId)).toEqual(ledger);
      expect(await refundEntries(quoteId)).toBe(refund?.status === 'COMPLETED' ? 1 : 0);
      expect(await webhookTypes(transactionId, types.length)).toEqual(types);
      const listed = await api.get(`/transactions?accountId=${accountId}`);
      expect(listed.body.data).toEqual([final]);
    });
  });

  it('failure with refund: the webhooks carry the transaction as it is at each step, and the refund step run again credits nothing', async () => {
    const { accountId, payeeId } = await payer('004');
    const { quoteId, transactionId } = await payout(accountId, payeeId);
    const types = ['PENDING', 'PROCESSING', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'].map((s) => `OUTGOING_PAYMENT.${s}`);
    await transactionWhen(transactionId, (tx) => tx.refund?.status === 'COMPLETED');
    const hooks = await receiver.waitFor(transactionId, types);
    const byType = new Map(hooks.map((hook) => [hook.payload.type, hook.payload.data as Transaction]));
    const final = (await api.get(`/transactions/${transactionId}`)).body as Transaction;
    expect(byType.get('OUTGOING_PAYMENT.REFUND_COMPLETED')).toEqual(final);
    expect(byType.get('OUTGOING_PAYMENT.FAILED')).toMatchObject({ status: 'FAILED', failureReason: 'ACCOUNT_CANNOT_RECEIVE' });
    expect(byType.get('OUTGOING_PAYMENT.FAILED')!.refund).toBeUndefined();
    expect(byType.get('OUTGOING_PAYMENT.REFUND_PENDING')).toMatchObject({
      status: 'FAILED',
      refund: { status: 'PENDING', reason: 'TRANSACTION_FAILED', reference: final.refund!.reference },
    });
    expect(byType.get('OUTGOING_PAYMENT.REFUND_PENDING')!.refund!.settledAt).toBeUndefined();
    expect(final.refund).toMatchObject({ status: 'COMPLETED', reason: 'TRANSACTION_FAILED' });
    expect(await balanceOf(accountId)).toBe(10_000);

    // The refund's step delivered twice (the bus and the scheduler deliver at least once): one credit.
    const steps = t.stack.services.get('payments')!.get(AdvanceQuoteStep);
    const payments = t.stack.services.get('payments')!.get(DataSource);
    for (const status of ['REFUND_PENDING', 'REFUND_COMPLETED'] as const) {
      await payments.transaction((manager) => steps.run({ platformId, quoteId, step: { status, delayMs: 0, refundReason: 'TRANSACTION_FAILED' }, next: [] }, manager));
    }
    expect(await refundEntries(quoteId)).toBe(1);
    expect(await balanceOf(accountId)).toBe(10_000);
    expect(await ledgerOf(quoteId)).toEqual({});
    expect((await api.get(`/transactions/${transactionId}`)).body).toEqual(final);
    expect(await webhookTypes(transactionId, types.length)).toEqual(types);
  });

  it('bank return: COMPLETED, then FAILED with PAYOUT_RETURNED, then the refund; the payout and the debit are both reversed once', async () => {
    const { accountId, payeeId } = await payer('005');
    const { quoteId, transactionId } = await payout(accountId, payeeId);
    const completed = await transactionWhen(transactionId, (tx) => tx.status === 'COMPLETED', 1);
    expect(completed.refund).toBeUndefined();
    expect(await ledgerOf(quoteId)).toEqual(PAID);
    const final = await transactionWhen(transactionId, (tx) => tx.refund?.status === 'COMPLETED');
    expect(final).toMatchObject({ status: 'FAILED', failureReason: 'PAYOUT_RETURNED', refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' } });
    const types = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'].map((s) => `OUTGOING_PAYMENT.${s}`);
    expect(await webhookTypes(transactionId, 6)).toEqual(types);
    // The guide's bank return: the returned payout's destination carries its rail transfer, RETURNED, and when.
    expect(completed.destination.railDetails).toBeUndefined();
    expect(final.destination.railDetails).toEqual({ paymentRail: 'SPEI', status: 'RETURNED', returnedAt: expect.any(String) });
    expect(Date.parse(final.destination.railDetails!.returnedAt)).toBeGreaterThan(Date.parse(completed.settledAt!));
    expect(final.destination.railDetails!.returnedAt).toBe(final.settledAt);
    const hooks = new Map((await receiver.waitFor(transactionId, types)).map((hook) => [hook.payload.type, hook.payload.data as Transaction]));
    expect(hooks.get('OUTGOING_PAYMENT.COMPLETED')!.destination.railDetails).toBeUndefined();
    for (const type of ['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_PENDING', 'OUTGOING_PAYMENT.REFUND_COMPLETED'])
      expect([type, hooks.get(type)!.destination.railDetails]).toEqual([type, final.destination.railDetails]);
    expect((await api.get(`/transactions?accountId=${accountId}`)).body.data).toEqual([final]);
    expect(await ledgerOf(quoteId)).toEqual({});
    expect(await refundEntries(quoteId)).toBe(1);
    expect(await balanceOf(accountId)).toBe(10_000);
  });

  it('manual cancellation: POST /transactions/{id}/cancel while PROCESSING refunds the source, then the payment ends COMPLETED with nothing paid out', async () => {
    // 003 stays PROCESSING for about 6 minutes of sandbox time: the clock moves a second at a time until it is.
    const { accountId, payeeId } = await payer('003');
    const { quoteId, transactionId } = await payout(accountId, payeeId);
    await transactionWhen(transactionId, (tx) => tx.status === 'PROCESSING', 1);
    const cancelled = await api.post(`/transactions/${transactionId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: transactionId, status: 'PROCESSING', refund: { status: 'PENDING', reason: 'USER_CANCELLATION' } });
    const again = await api.post(`/transactions/${transactionId}/cancel`, {});
    expect([again.status, again.body.code]).toEqual([409, 'TRANSACTION_NOT_CANCELLABLE']);

    const final = await transactionWhen(transactionId, (tx) => tx.status === 'COMPLETED', 1);
    expect(final.refund).toMatchObject({ status: 'COMPLETED', reason: 'USER_CANCELLATION', reference: cancelled.body.refund.reference });
    const types = ['PENDING', 'PROCESSING', 'REFUND_PENDING', 'REFUND_COMPLETED', 'COMPLETED'].map((s) => `OUTGOING_PAYMENT.${s}`);
    expect(await webhookTypes(transactionId, types.length)).toEqual(types);
    expect(await balanceOf(accountId)).toBe(10_000);
    expect(await ledgerOf(quoteId)).toEqual({});
    expect((await api.get(`/quotes/${quoteId}`)).body.status).toBe('COMPLETED');

    // The payout's own completion, still scheduled, comes due and does nothing.
    await advanceClock(api, 400);
    await advanceClock(api, 60);
    expect(await webhookTypes(transactionId, types.length)).toEqual(types);
    expect(await ledgerOf(quoteId)).toEqual({});
    expect(await refundEntries(quoteId)).toBe(1);
    expect((await api.get(`/transactions/${transactionId}`)).body).toEqual(final);
    const late = await api.post(`/transactions/${transactionId}/cancel`, {});
    expect([late.status, late.body.code]).toEqual([409, 'TRANSACTION_NOT_CANCELLABLE']);
  });

  it('refuses to cancel a payout that completed, and leaves it as it is', async () => {
    const { accountId, payeeId } = await payer('001');
    const { quoteId, transactionId } = await payout(accountId, payeeId);
    const completed = await transactionWhen(transactionId, (tx) => tx.status === 'COMPLETED', 1);
    const refused = await api.post(`/transactions/${transactionId}/cancel`, {});
    expect([refused.status, refused.body.code]).toEqual([409, 'TRANSACTION_NOT_CANCELLABLE']);
    expect((await api.get(`/transactions/${transactionId}`)).body).toEqual(completed);
    expect(await ledgerOf(quoteId)).toEqual(PAID);
  });

  it('incoming refund: an accepted payment that cannot complete fails, nothing is credited, and the sender is refunded', async () => {
    const domain = (await api.get('/config')).body.umaDomain as string;
    const umaAddress = `$ada.${randomInt(1e9)}@${domain}`;
    const customerId = await newCustomer({ umaAddress });
    const accountId = await internalAccount(customerId);
    const received = await api.post('/sandbox/uma/receive', {
      senderUmaAddress: '$fail.offramp.usd@sandbox.uma.money',
      receiverUmaAddress: umaAddress,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 5_000,
    });
    expect([received.status, received.body.status]).toEqual([200, 'PENDING']);
    const approved = await api.post(`/transactions/${received.body.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED', refund: { status: 'PENDING', reason: 'TRANSACTION_FAILED' } });
    const final = await transactionWhen(received.body.id, (tx) => tx.refund?.status === 'COMPLETED', 1);
    expect(final).toMatchObject({ type: 'INCOMING', status: 'FAILED', refund: { reference: approved.body.refund.reference } });
    const types = ['PENDING', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'].map((s) => `INCOMING_PAYMENT.${s}`);
    expect(await webhookTypes(received.body.id, types.length)).toEqual(types);
    const hooks = await receiver.waitFor(received.body.id, types);
    expect(hooks.find((hook) => hook.payload.type === 'INCOMING_PAYMENT.REFUND_COMPLETED')!.payload.data).toEqual(final);
    expect(await balanceOf(accountId)).toBe(0);
    expect(await ledgerOf(received.body.id)).toEqual({});
    // The settlement comes due again (at-least-once): nothing more is announced.
    await advanceClock(api, 60);
    expect(await webhookTypes(received.body.id, types.length)).toEqual(types);
    expect((await api.get(`/transactions/${received.body.id}`)).body).toEqual(final);
  });
});
