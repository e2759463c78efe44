import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, Quote, Transaction, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { QuotesRepository } from '../../apps/payments/src/quotes/quotes.repository';
import { QuoteExecution } from '../../apps/payments/src/quotes/use-cases/quote-execution';
import { ApiClient } from '../support/api-client';
import { mxnExternalAccountBody, usdExternalAccountBody } from '../support/payments-fixtures';
import { ledgerOf as ledgerOfReference } from '../support/ledger';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { WalletAuthClient } from '../support/wallet-auth-client';
import { WebhookReceiver } from './customers.support';

/**
 * Cross-currency payments through the gateway: exchange rates, quotes (create, get, execute),
 * every row of the spec's quote table and the sandbox UMA receivers, with the ledger checked in
 * every currency after each path; idempotency, the signed retry of an embedded wallet source and
 * the concurrency guarantees.
 */
describe('Cross-currency payments: exchange rates and quotes', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;
  let platformId: string;

  const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    platformId = platform.platformId;
    ctx = { platformId, environment: 'sandbox', requestId: 'quotes-test' };
    // Regulated platforms' customers start APPROVED: they may move money at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function newCustomer(client = api, fields: Record<string, unknown> = { email: 'ada@example.com', nationality: 'GB', address }): Promise<string> {
    const created = await client.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', birthDate: '1990-04-12', ...fields });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function internalAccount(customerId: string, currency = 'USD', client = api): Promise<string> {
    return eventually(async () => {
      const listed = await client.get(`/customers/internal-accounts?customerId=${customerId}&currency=${currency}&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
  }

  async function fund(accountId: string, amount: number, client = api): Promise<void> {
    expect((await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
  }

  async function balanceOf(accountId: string, client = api): Promise<number> {
    return (await client.get(`/internal-accounts/${accountId}`)).body.balance.amount;
  }

  async function mxnPayee(customerId: string, suffix: string, client = api): Promise<string> {
    const created = await client.post('/customers/external-accounts', { customerId, ...mxnExternalAccountBody(suffix) });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('ACTIVE');
    return created.body.id;
  }

  /** A ready customer with a funded USD account and an MXN beneficiary whose CLABE ends in `suffix`. */
  async function payer(suffix: string, funds = 10_000, client = api) {
    const customerId = await newCustomer(client);
    const accountId = await internalAccount(customerId, 'USD', client);
    if (funds > 0) await fund(accountId, funds, client);
    const payeeId = await mxnPayee(customerId, suffix, client);
    return { customerId, accountId, payeeId };
  }

  function quoteBody(accountId: string, destination: Record<string, unknown>, amount = 10_000, side = 'SENDING') {
    return { source: { sourceType: 'ACCOUNT', accountId }, destination, lockedCurrencySide: side, lockedCurrencyAmount: amount };
  }

  async function settled(transactionId: string, statuses = ['COMPLETED', 'FAILED'], client = api): Promise<Transaction> {
    return eventually(async () => {
      const fetched = await client.get(`/transactions/${transactionId}`);
      return statuses.includes(fetched.body.status) ? (fetched.body as Transaction) : undefined;
    }, 20_000);
  }

  async function webhookTypes(resourceId: string, count: number): Promise<string[]> {
    return eventually(async () => {
      const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId }, ctx);
      return received.length >= count ? received.map((event) => event.webhookType ?? '') : undefined;
    }, 30_000);
  }

  const ledgerOf = (quoteId: string, platform = platformId) => ledgerOfReference(t, platform, quoteId);

  describe('GET /exchange-rates', () => {
    it('prices every corridor from a source, fees included, with the 5-minute window it is valid for', async () => {
      const listed = await api.get('/exchange-rates?sourceCurrency=USD');
      expect(listed.status).toBe(200);
      const mxn = listed.body.data.find((rate: { destinationCurrency: { code: string } }) => rate.destinationCurrency.code === 'MXN');
      expect(mxn).toEqual({
        sourceCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
        destinationCurrency: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
        destinationPaymentRail: 'SPEI',
        sendingAmount: 10_000,
        minSendingAmount: 100,
        maxSendingAmount: 10_000_000,
        // 100.00 USD less 1.50 of fees at 17.25 is 1699.125 MXN: rounded down to the centavo.
        receivingAmount: 169_912,
        exchangeRate: 0.057971014,
        fees: { fixed: 100, total: 150 },
        updatedAt: expect.any(String),
      });
      expect(new Date(mxn.updatedAt).getTime() % (5 * 60 * 1000)).toBe(0);
      expect(listed.body.data.every((rate: { sourceCurrency: { code: string } }) => rate.sourceCurrency.code === 'USD')).toBe(true);
    });

    it('filters by one or more destinations and prices the given sending amount', async () => {
      const listed = await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&destinationCurrency=GBP&sendingAmount=2000');
      expect(listed.status).toBe(200);
      expect(
        listed.body.data.map(
          (rate: { destinationCurrency: { code: string }; destinationPaymentRail: string }) => `${rate.destinationCurrency.code}/${rate.destinationPaymentRail}`,
        ),
      ).toEqual(['EUR/SEPA_INSTANT', 'EUR/SEPA', 'GBP/FASTER_PAYMENTS']);
      expect(listed.body.data[0]).toMatchObject({ sendingAmount: 2_000, fees: { fixed: 50, total: 55 }, receivingAmount: 1_789 });
      // The same list comma-joined, as some clients send it.
      expect((await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR,GBP&sendingAmount=2000')).body).toEqual(listed.body);
      const single = await api.get('/exchange-rates?destinationCurrency=USD');
      expect(new Set(single.body.data.map((rate: { sourceCurrency: { code: string } }) => rate.sourceCurrency.code))).toEqual(new Set(['EUR', 'GBP', 'MXN', 'USDC']));
    });

    it('lists every invalid parameter at once', async () => {
      const refused = await api.get('/exchange-rates?sourceCurrency=usd&sendingAmount=-5');
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('INVALID_INPUT');
      expect(refused.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['sendingAmount', 'sourceCurrency']);
    });

    it('refuses a sending amount that converts to more than an amount can carry, naming it', async () => {
      const refused = await api.get(`/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=${Number.MAX_SAFE_INTEGER}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'sendingAmount' }] } });
    });
  });

  describe('POST /quotes and GET /quotes/{id}', () => {
    it('locks a USD to MXN payout to an external account until expiresAt', async () => {
      const { customerId, accountId, payeeId } = await payer('001');
      const created = await api.post('/quotes', { ...quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }), description: 'Invoice 1234' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^Quote:[0-9a-f-]{36}$/),
        status: 'PENDING',
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        source: { sourceType: 'ACCOUNT', accountId, customerId },
        destination: { destinationType: 'ACCOUNT', accountId: payeeId, paymentRail: 'SPEI' },
        sendingCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
        receivingCurrency: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
        totalSendingAmount: 10_000,
        totalReceivingAmount: 169_912,
        exchangeRate: 0.057971014,
        feesIncluded: 150,
        platformFeesIncluded: 0,
        transactionId: expect.stringMatching(/^Transaction:[0-9a-f-]{36}$/),
        rateDetails: {
          counterpartyMultiplier: 17.25,
          counterpartyFixedFee: 0,
          serviceApiMultiplier: 17.25,
          serviceApiFixedFee: 100,
          serviceApiVariableFeeRate: 0.005,
          serviceApiVariableFeeAmount: 50,
        },
        description: 'Invoice 1234',
      });
      expect(new Date(created.body.expiresAt).getTime() - new Date(created.body.createdAt).getTime()).toBe(300_000);
      const fetched = await api.get(`/quotes/${created.body.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(created.body);
      // Nothing moved yet, and no transaction exists before the execution.
      expect(await balanceOf(accountId)).toBe(10_000);
      expect((await api.get(`/transactions/${created.body.transactionId}`)).status).toBe(404);
    });

    it('meets a locked receiving amount with the smallest sending amount, platform fees added', async () => {
      const { accountId, payeeId } = await payer('001');
      const created = await api.post('/quotes', {
        ...quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }, 100_000, 'RECEIVING'),
        platformFeeOverride: { platformFixedFee: { amount: 25, currency: 'USD' }, platformVariableFeeBps: 0 },
      });
      expect(created.status).toBe(201);
      // 1000.00 MXN needs 57.98 USD after fees at 17.25; fees 1.00 + 0.30 (50 bps, rounded up) + the platform's 0.25.
      expect(created.body).toMatchObject({ totalReceivingAmount: 100_000, totalSendingAmount: 5_953, feesIncluded: 155, platformFeesIncluded: 25 });
    });

    it('answers 404 for another platform and for an unknown quote', async () => {
      const { accountId, payeeId } = await payer('001');
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      const other = await t.newPlatform();
      for (const response of [await other.api.get(`/quotes/${created.body.id}`), await other.api.post(`/quotes/${created.body.id}/execute`, {})]) {
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('QUOTE_NOT_FOUND');
      }
      expect((await api.get('/quotes/Quote:00000000-0000-7000-8000-000000000000')).status).toBe(404);
    });

    it.each([
      ['every missing field', {}, ['destination', 'lockedCurrencyAmount', 'lockedCurrencySide', 'source']],
      [
        'conditional fields of the source and destination and bad values',
        { source: { sourceType: 'ACCOUNT' }, destination: { destinationType: 'UMA_ADDRESS' }, lockedCurrencySide: 'BOTH', lockedCurrencyAmount: 0, purposeOfPayment: 'FUN' },
        ['destination.umaAddress', 'lockedCurrencyAmount', 'lockedCurrencySide', 'purposeOfPayment', 'source.accountId'],
      ],
    ])('refuses %s with 400 listing each field', async (_what, body, fields) => {
      const refused = await api.post('/quotes', body);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('INVALID_INPUT');
      expect(refused.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(fields);
    });

    it.each([
      ['an amount outside the corridor', 'SENDING', 20_000_000, 400, 'AMOUNT_OUT_OF_RANGE'],
      ['an amount the fees take whole', 'SENDING', 100, 400, 'AMOUNT_OUT_OF_RANGE'],
      ['the largest amount, whose MXN price an amount cannot carry', 'SENDING', Number.MAX_SAFE_INTEGER, 400, 'AMOUNT_OUT_OF_RANGE'],
    ])('refuses %s', async (_what, side, amount, status, code) => {
      const { accountId, payeeId } = await payer('001');
      const refused = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }, amount, side));
      expect(refused.status).toBe(status);
      expect(refused.body).toMatchObject({ code, details: { minSendingAmount: 100, maxSendingAmount: 10_000_000 } });
    });

    it('refuses a corridor the rate table does not have, and a rail the corridor does not pay out on', async () => {
      const customerId = await newCustomer();
      const accountId = await internalAccount(customerId);
      const usdPayee = await api.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('001') });
      const eurAccount = await internalAccount(customerId, 'EUR');
      const sameCurrency = await api.post('/quotes', quoteBody(eurAccount, { destinationType: 'ACCOUNT', accountId: usdPayee.body.id, paymentRail: 'SPEI' }));
      expect(sameCurrency.status).toBe(400);
      expect(sameCurrency.body).toMatchObject({ code: 'INVALID_CURRENCY', details: { paymentRails: ['ACH'] } });
      const payeeId = await mxnPayee(customerId, '001');
      const wrongRail = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId, paymentRail: 'PIX' }));
      expect(wrongRail.status).toBe(400);
      expect(wrongRail.body.code).toBe('INVALID_CURRENCY');
    });
  });

  describe('POST /quotes/{id}/execute: the quote table (last 3 digits of the destination CLABE)', () => {
    const PAID = { USD: { HOLDING: -10_000, FX_CONVERSION: 9_850, FEES: 150 }, MXN: { FX_CONVERSION: -169_912, EXTERNAL_CLEARING: 169_912 } };
    it.each([
      ['001', 'COMPLETED', undefined, 0, ['PENDING', 'PROCESSING', 'COMPLETED'], PAID],
      ['002', 'FAILED', 'QUOTE_EXECUTION_FAILED', 10_000, ['FAILED'], {}],
      ['003', 'COMPLETED', undefined, 0, ['PENDING', 'PROCESSING', 'COMPLETED'], PAID],
      ['004', 'FAILED', 'ACCOUNT_CANNOT_RECEIVE', 10_000, ['PENDING', 'PROCESSING', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'], {}],
      ['005', 'FAILED', 'PAYOUT_RETURNED', 10_000, ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'], {}],
      ['006', 'FAILED', 'QUOTE_EXECUTION_FAILED', 10_000, ['PENDING', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED'], {}],
      // The payout and its refund failed: the money stays with the service, unreturned.
      ['007', 'FAILED', 'COUNTERPARTY_POST_TX_FAILED', 0, ['PENDING', 'PROCESSING', 'FAILED', 'REFUND_PENDING', 'REFUND_FAILED'], { USD: PAID.USD }],
    ])('suffix %s ends %s (%s), leaving %d, announced as %j', async (suffix, status, failureReason, balance, statuses, ledger) => {
      const { accountId, payeeId } = await payer(suffix);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      const executed = await api.post(`/quotes/${created.body.id}/execute`, {});
      expect(executed.status).toBe(200);
      expect(executed.body.status).toBe(suffix === '002' ? 'FAILED' : 'PROCESSING');
      // Every step is due within 6 minutes and 30 s of sandbox time (003 completes after about 6
      // minutes, 005 is returned 30 s after completing): the test clock passes them all.
      await advanceClock(api, 400);
      // The 005 row completes before the return: wait for its webhooks too.
      const final = await eventually(async () => {
        const fetched = await api.get(`/transactions/${created.body.transactionId}`);
        const types = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: created.body.transactionId }, ctx);
        return types.length >= statuses.length && ['COMPLETED', 'FAILED'].includes(fetched.body.status) ? (fetched.body as Transaction) : undefined;
      }, 20_000);
      expect(final).toMatchObject({
        id: created.body.transactionId,
        type: 'OUTGOING',
        status,
        direction: 'DEBIT',
        quoteId: created.body.id,
        paymentRail: 'SPEI',
        source: { sourceType: 'ACCOUNT', accountId, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: payeeId, currency: 'MXN' },
        sentAmount: { amount: 10_000, currency: { code: 'USD' } },
        receivedAmount: { amount: 169_912, currency: { code: 'MXN' } },
      });
      expect(final.failureReason).toBe(failureReason);
      expect((await api.get(`/quotes/${created.body.id}`)).body).toMatchObject({ status, ...(failureReason ? { failureReason } : {}) });
      expect(await balanceOf(accountId)).toBe(balance);
      expect(await ledgerOf(created.body.id)).toEqual(ledger);
      expect(await webhookTypes(created.body.transactionId, statuses.length)).toEqual(statuses.map((s) => `OUTGOING_PAYMENT.${s}`));
      const listed = await api.get(`/transactions?accountId=${accountId}`);
      expect(listed.body.data.map((tx: Transaction) => tx.id)).toEqual([created.body.transactionId]);
    });

    it('executes once: a second execution answers 409 and moves nothing', async () => {
      const { accountId, payeeId } = await payer('001', 30_000);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      expect((await api.post(`/quotes/${created.body.id}/execute`)).status).toBe(200);
      const again = await api.post(`/quotes/${created.body.id}/execute`, {});
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('INVALID_STATE_TRANSITION');
      await settled(created.body.transactionId);
      expect(await balanceOf(accountId)).toBe(20_000);
    });

    it('replays an answered Idempotency-Key with the first answer', async () => {
      const { accountId, payeeId } = await payer('001', 30_000);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      const headers = { 'idempotency-key': `exec-${randomInt(1e9)}` };
      const first = await api.post(`/quotes/${created.body.id}/execute`, {}, { headers });
      const replays = await Promise.all([1, 2, 3].map(() => api.post(`/quotes/${created.body.id}/execute`, {}, { headers })));
      for (const replay of replays) expect([replay.status, replay.body]).toEqual([200, first.body]);
      await settled(created.body.transactionId);
      expect(await balanceOf(accountId)).toBe(20_000);
    });

    it('refuses a source short of the sending amount and leaves the quote executable', async () => {
      const { accountId, payeeId } = await payer('001', 9_999);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      const refused = await api.post(`/quotes/${created.body.id}/execute`, {});
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_AMOUNT', details: { reason: 'INSUFFICIENT_FUNDS' } });
      expect((await api.get(`/quotes/${created.body.id}`)).body.status).toBe('PENDING');
      await fund(accountId, 1);
      expect((await api.post(`/quotes/${created.body.id}/execute`, {})).status).toBe(200);
    });

    it('creates and executes in one call with immediatelyExecute', async () => {
      const { accountId, payeeId } = await payer('001');
      const created = await api.post('/quotes', { ...quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }), immediatelyExecute: true });
      expect(created.status).toBe(201);
      expect(created.body.status).toBe('PROCESSING');
      expect((await settled(created.body.transactionId)).status).toBe('COMPLETED');
      expect(await balanceOf(accountId)).toBe(0);
    });

    it('pays an internal account of another currency: the destination account is credited', async () => {
      const customerId = await newCustomer();
      const usd = await internalAccount(customerId);
      const eur = await internalAccount(customerId, 'EUR');
      await fund(usd, 10_000);
      const created = await api.post('/quotes', { ...quoteBody(usd, { destinationType: 'ACCOUNT', accountId: eur }), immediatelyExecute: true });
      expect(created.status).toBe(201);
      // 100.00 USD less 0.75 of fees (0.50 + 25 bps) at 0.92: 91.31 EUR.
      expect(created.body).toMatchObject({
        totalReceivingAmount: 9_131,
        feesIncluded: 75,
        destination: { destinationType: 'ACCOUNT', accountId: eur, paymentRail: 'SEPA_INSTANT' },
      });
      await settled(created.body.transactionId);
      expect([await balanceOf(usd), await balanceOf(eur)]).toEqual([0, 9_131]);
      expect(await ledgerOf(created.body.id)).toEqual({ USD: { HOLDING: -10_000, FX_CONVERSION: 9_925, FEES: 75 }, EUR: { FX_CONVERSION: -9_131, HOLDING: 9_131 } });
    });
  });

  describe('REALTIME_FUNDING quotes and POST /sandbox/send', () => {
    it('answers payment instructions, executes once the funds arrive, and takes the sending amount from external clearing', async () => {
      const { customerId, payeeId } = await payer('001', 0);
      const created = await api.post('/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
        destination: { destinationType: 'ACCOUNT', accountId: payeeId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
        immediatelyExecute: true,
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        status: 'PENDING',
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId },
        paymentInstructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT', reference: expect.stringMatching(/^QT-[0-9A-F]{12}$/) } }],
      });
      const executed = await api.post(`/quotes/${created.body.id}/execute`, {});
      expect([executed.status, executed.body.code]).toEqual([400, 'INVALID_INPUT']);
      const wrongAmount = await api.post('/sandbox/send', { quoteId: created.body.id, currencyCode: 'USD', currencyAmount: 9_999 });
      expect([wrongAmount.status, wrongAmount.body.code]).toEqual([400, 'INVALID_AMOUNT']);
      const wrongCurrency = await api.post('/sandbox/send', { quoteId: created.body.id, currencyCode: 'EUR' });
      expect([wrongCurrency.status, wrongCurrency.body.code]).toEqual([400, 'INVALID_CURRENCY']);
      const sent = await api.post('/sandbox/send', { quoteId: created.body.id, currencyCode: 'USD', currencyAmount: 10_000 });
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ id: created.body.transactionId, type: 'OUTGOING', status: 'PENDING', quoteId: created.body.id });
      expect((await settled(created.body.transactionId)).status).toBe('COMPLETED');
      expect(await ledgerOf(created.body.id)).toEqual({ USD: { EXTERNAL_CLEARING: -10_000, FX_CONVERSION: 9_850, FEES: 150 }, MXN: PAID_ONCE.MXN });
      const again = await api.post('/sandbox/send', { quoteId: created.body.id, currencyCode: 'USD' });
      expect([again.status, again.body.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
      expect((await api.get(`/quotes/${created.body.id}`)).body.paymentInstructions).toBeUndefined();
    });
  });

  it.each([
    ['an unknown', async () => 'Customer:00000000-0000-7000-8000-000000000000'],
    ["another platform's", async () => (await (await t.newPlatform()).api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' })).body.id as string],
  ])('answers 400 INVALID_INPUT naming source.customerId for %s customer in the body (the reference declares no 404)', async (_, customerIdOf) => {
    const { payeeId } = await payer('001', 0);
    const response = await api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: await customerIdOf() },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect([response.status, response.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect(response.body.details.errors).toEqual([expect.objectContaining({ field: 'source.customerId' })]);
  });

  describe('UMA sandbox receivers', () => {
    it.each([
      ['$success.usd@sandbox.uma.money', 'USD', 'COMPLETED', undefined, ['PENDING', 'PROCESSING', 'COMPLETED']],
      ['$success.eur@sandbox.uma.money', 'EUR', 'COMPLETED', undefined, ['PENDING', 'PROCESSING', 'COMPLETED']],
      ['$success.mxn@sandbox.uma.money', 'MXN', 'COMPLETED', undefined, ['PENDING', 'PROCESSING', 'COMPLETED']],
      ['$pending.long.usd@sandbox.uma.money', 'USD', 'COMPLETED', undefined, ['PENDING', 'PROCESSING', 'COMPLETED']],
      ['$fail.compliance.usd@sandbox.uma.money', 'USD', 'FAILED', 'COMPLIANCE_REJECTED', ['PENDING', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED']],
    ])('%s receives %s and ends %s', async (umaAddress, currency, status, failureReason, statuses) => {
      const customerId = await newCustomer();
      const accountId = await internalAccount(customerId);
      await fund(accountId, 10_000);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'UMA_ADDRESS', umaAddress }, 5_000));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency }, receivingCurrency: { code: currency } });
      expect((await api.post(`/quotes/${created.body.id}/execute`, {})).status).toBe(200);
      const final = await settled(created.body.transactionId);
      // A failure is refunded a step later: its balance is read once the refund settled.
      if (status === 'FAILED') await eventually(async () => ((await api.get(`/transactions/${final.id}`)).body.refund?.status === 'COMPLETED' ? true : undefined));
      expect(final).toMatchObject({ status, destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency } });
      expect(final.failureReason).toBe(failureReason);
      expect(await balanceOf(accountId)).toBe(status === 'COMPLETED' ? 5_000 : 10_000);
      const ledger = await ledgerOf(created.body.id);
      if (status === 'FAILED') expect(ledger).toEqual({});
      else expect(ledger[currency]).toMatchObject({ EXTERNAL_CLEARING: created.body.totalReceivingAmount });
      expect(await webhookTypes(created.body.transactionId, statuses.length)).toEqual(statuses.map((s) => `OUTGOING_PAYMENT.${s}`));
    });

    it.each([
      ['$nobody.usd@sandbox.uma.money', 404, 'UMA_NOT_FOUND'],
      ['not-an-address', 400, 'INVALID_UMA_ADDRESS'],
    ])('refuses %s with %d %s', async (umaAddress, status, code) => {
      const customerId = await newCustomer();
      const accountId = await internalAccount(customerId);
      const refused = await api.post('/quotes', quoteBody(accountId, { destinationType: 'UMA_ADDRESS', umaAddress }));
      expect(refused.status).toBe(status);
      expect(refused.body.code).toBe(code);
    });
  });

  describe('GET /receiver/uma/{address} and /receiver/external-account/{id}', () => {
    it.each([
      ['$success.usd@sandbox.uma.money', 'USD', 1, 1],
      ['$success.eur@sandbox.uma.money', 'EUR', 0.92, 9],
      ['$success.mxn@sandbox.uma.money', 'MXN', 17.25, 0],
      ['$Pending.Long.USD@sandbox.uma.money', 'USD', 1, 1],
      ['$fail.compliance.usd@sandbox.uma.money', 'USD', 1, 1],
    ])('%s receives %s at about %d', async (umaAddress, currency, rate) => {
      const found = await api.get(`/receiver/uma/${encodeURIComponent(umaAddress)}`);
      expect(found.status).toBe(200);
      expect(found.body).toEqual({
        receiverUmaAddress: umaAddress.toLowerCase(),
        lookupId: expect.stringMatching(/^LookupRequest:/),
        supportedCurrencies: [{ currency: expect.objectContaining({ code: currency }), estimatedExchangeRate: rate, min: expect.any(Number), max: expect.any(Number) }],
        requiredPayerDataFields: [
          { name: 'FULL_NAME', mandatory: true },
          { name: 'COUNTRY_OF_RESIDENCE', mandatory: true },
          { name: 'EMAIL', mandatory: false },
        ],
      });
    });

    it.each([
      ['$nobody@sandbox.uma.money', 404, 'UMA_NOT_FOUND'],
      ['$someone@elsewhere.example', 404, 'UMA_NOT_FOUND'],
      ['nobody@sandbox.uma.money', 400, 'INVALID_UMA_ADDRESS'],
      [`$${'a'.repeat(64)}@sandbox.uma.money`, 400, 'INVALID_UMA_ADDRESS'],
    ])('answers %s with %d %s', async (umaAddress, status, code) => {
      const refused = await api.get(`/receiver/uma/${encodeURIComponent(umaAddress)}`);
      expect([refused.status, refused.body.code]).toEqual([status, code]);
    });

    it('looks up an external account, and a quote must name a lookup of its own receiver', async () => {
      const { accountId, payeeId, customerId } = await payer('001');
      const found = await api.get(`/receiver/external-account/${payeeId}?customerId=${customerId}`);
      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ accountId: payeeId, supportedCurrencies: [{ currency: { code: 'MXN' }, estimatedExchangeRate: 17.25 }] });
      const uma = await api.get(`/receiver/uma/${encodeURIComponent('$success.eur@sandbox.uma.money')}`);
      const good = await api.post('/quotes', {
        ...quoteBody(accountId, { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money' }),
        lookupId: uma.body.lookupId,
      });
      expect(good.status).toBe(201);
      const wrong = await api.post('/quotes', {
        ...quoteBody(accountId, { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' }),
        lookupId: uma.body.lookupId,
      });
      expect([wrong.status, wrong.body.code]).toEqual([404, 'LOOKUP_REQUEST_NOT_FOUND']);
      const other = await t.newPlatform();
      expect((await other.api.get(`/receiver/external-account/${payeeId}`)).status).toBe(404);
    });

    it("pays a customer of another platform of this deployment at its UMA address: the money lands in the customer's account", async () => {
      const other = await t.newPlatform();
      const otherCtx = { platformId: other.platformId, environment: 'sandbox' as const, requestId: 'quotes-uma-peer' };
      await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, otherCtx);
      const domain = (await other.api.get('/config')).body.umaDomain as string;
      const umaAddress = `$frida.${randomInt(1e9)}@${domain}`;
      const receiver = await other.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Frida Kahlo', umaAddress, birthDate: '1990-04-12', nationality: 'GB', address });
      expect(receiver.status).toBe(201);
      const receiverAccount = await eventually(async () => {
        const listed = await other.api.get(`/customers/internal-accounts?customerId=${receiver.body.id}&currency=USD&type=INTERNAL_FIAT`);
        return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
      });
      const found = await eventually(async () => {
        const response = await api.get(`/receiver/uma/${encodeURIComponent(umaAddress)}`);
        return response.status === 200 ? response.body : undefined;
      });
      expect(found.supportedCurrencies.map((c: { currency: { code: string } }) => c.currency.code)).toContain('USD');
      const sender = await newCustomer();
      const senderAccount = await internalAccount(sender);
      await fund(senderAccount, 4_000);
      const created = await api.post('/quotes', { ...quoteBody(senderAccount, { destinationType: 'UMA_ADDRESS', umaAddress, currency: 'USD' }, 4_000), immediatelyExecute: true });
      expect(created.status).toBe(201);
      const final = await settled(created.body.transactionId);
      expect(final).toMatchObject({ status: 'COMPLETED', destination: { destinationType: 'UMA_ADDRESS', umaAddress, currency: 'USD' } });
      expect(await balanceOf(senderAccount)).toBe(0);
      expect((await other.api.get(`/internal-accounts/${receiverAccount}`)).body.balance.amount).toBe(4_000);
    });
  });

  describe("the platform's fees (PATCH /config feeConfigs)", () => {
    const usdFee = { feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 30, fixedFee: { amount: 50, currency: 'USD' } };
    let feeApi: ApiClient;
    let feePlatformId: string;

    beforeAll(async () => {
      // A platform of its own: its fees must not change the other tests' prices.
      const platform = await t.newPlatform();
      feeApi = platform.api;
      feePlatformId = platform.platformId;
      await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, { platformId: feePlatformId, environment: 'sandbox', requestId: 'quotes-fees' });
    });

    it('merges fee configs by (feeType, sourceCurrency), removes one set to 0, and refuses a fixed fee in another currency', async () => {
      const eurFee = { ...usdFee, sourceCurrency: 'EUR', variableFeeBps: 0, fixedFee: { amount: 10, currency: 'EUR' } };
      expect((await feeApi.patch('/config', { feeConfigs: [usdFee] })).body.feeConfigs).toEqual([usdFee]);
      expect((await feeApi.patch('/config', { feeConfigs: [eurFee] })).body.feeConfigs).toEqual([usdFee, eurFee]);
      expect((await feeApi.patch('/config', { feeConfigs: [{ ...eurFee, fixedFee: { amount: 0, currency: 'EUR' } }] })).body.feeConfigs).toEqual([usdFee]);
      const refused = await feeApi.patch('/config', {
        feeConfigs: [
          { ...usdFee, fixedFee: { amount: 5, currency: 'EUR' } },
          { ...usdFee, sourceCurrency: 'GBP', variableFeeBps: -1 },
        ],
      });
      expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_INPUT']);
      expect(refused.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['feeConfigs.0.fixedFee', 'feeConfigs.1.fixedFee', 'feeConfigs.1.variableFeeBps']);
      expect((await feeApi.get('/config')).body.feeConfigs).toEqual([usdFee]);
    });

    it('adds the fee to exchange rates, quotes and transactions, posts it to the fee account, and an override replaces it', async () => {
      await feeApi.patch('/config', { feeConfigs: [usdFee] });
      // 100.01 USD: the service's 1.00 + 50 bps (0.50005, rounded up to 0.51) and the platform's
      // 0.50 + 30 bps (0.30003, rounded up to 0.31): 2.32 of fees; 97.69 at 17.25 is 1685.15 MXN.
      const rates = await feeApi.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&sendingAmount=10001');
      expect(rates.body.data[0]).toMatchObject({ sendingAmount: 10_001, fees: { fixed: 150, total: 232 }, receivingAmount: 168_515 });
      const { accountId, payeeId } = await payer('001', 10_001, feeApi);
      const created = await feeApi.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }, 10_001));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ totalSendingAmount: 10_001, totalReceivingAmount: 168_515, feesIncluded: 232, platformFeesIncluded: 81 });
      expect((await feeApi.post(`/quotes/${created.body.id}/execute`, {})).status).toBe(200);
      const final = await settled(created.body.transactionId, ['COMPLETED', 'FAILED'], feeApi);
      expect(final).toMatchObject({ status: 'COMPLETED', fees: 232, platformFees: 81, sentAmount: { amount: 10_001 }, receivedAmount: { amount: 168_515 } });
      expect(await balanceOf(accountId, feeApi)).toBe(0);
      expect(await ledgerOf(created.body.id, feePlatformId)).toEqual({
        USD: { HOLDING: -10_001, FX_CONVERSION: 9_769, FEES: 232 },
        MXN: { FX_CONVERSION: -168_515, EXTERNAL_CLEARING: 168_515 },
      });

      const overridden = await feeApi.post('/quotes', {
        ...quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }, 10_001),
        platformFeeOverride: { platformFixedFee: { amount: 0, currency: 'USD' }, platformVariableFeeBps: 0 },
      });
      expect(overridden.body).toMatchObject({ feesIncluded: 151, platformFeesIncluded: 0 });
    });

    it('takes no platform fee on a same-currency payment, nor once the fee is removed', async () => {
      await feeApi.patch('/config', { feeConfigs: [usdFee] });
      const { accountId, payeeId } = await payer('001', 0, feeApi);
      const sameCurrency = await feeApi.post('/quotes', quoteBody(accountId, { destinationType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money' }));
      expect(sameCurrency.body).toMatchObject({ totalSendingAmount: 10_000, totalReceivingAmount: 10_000, feesIncluded: 0, platformFeesIncluded: 0 });
      await feeApi.patch('/config', { feeConfigs: [{ ...usdFee, variableFeeBps: 0, fixedFee: { amount: 0, currency: 'USD' } }] });
      const unfeed = await feeApi.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      expect(unfeed.body).toMatchObject({ feesIncluded: 150, platformFeesIncluded: 0, totalReceivingAmount: 169_912 });
    });
  });

  describe('required payer data of a receiver lookup', () => {
    /** A ready customer sending MXN (its provider needs a name and birth date only) without an address: no country, no postal address. */
    async function addresslessMxnSender() {
      const customerId = await newCustomer(api, {});
      const accountId = await internalAccount(customerId, 'MXN');
      await fund(accountId, 1_000_000);
      return { customerId, accountId };
    }

    it('refuses a UMA quote whose sender lacks what the lookup asked for, naming each field; senderCustomerInfo completes it', async () => {
      const { customerId, accountId } = await addresslessMxnSender();
      const umaAddress = '$success.usd@sandbox.uma.money';
      const lookup = await api.get(`/receiver/uma/${encodeURIComponent(umaAddress)}?customerId=${customerId}`);
      expect(lookup.status).toBe(200);
      const body = { ...quoteBody(accountId, { destinationType: 'UMA_ADDRESS', umaAddress }, 100_000), lookupId: lookup.body.lookupId };
      const refused = await api.post('/quotes', body);
      expect([refused.status, refused.body.code, refused.body.details.missingFields]).toEqual([400, 'MISSING_MANDATORY_USER_INFO', ['COUNTRY_OF_RESIDENCE']]);
      // Without the lookup nothing is asked; with the country given, the quote is made.
      expect((await api.post('/quotes', { ...body, lookupId: undefined })).status).toBe(201);
      expect((await api.post('/quotes', { ...body, senderCustomerInfo: { COUNTRY_OF_RESIDENCE: 'MX' } })).status).toBe(201);
    });

    it('refuses a payout quote whose sender lacks what the external account lookup asked for', async () => {
      const { customerId, accountId } = await addresslessMxnSender();
      // The platform's own account: a customer without an address cannot hold a USD beneficiary.
      const payee = await api.post('/platform/external-accounts', usdExternalAccountBody('001'));
      expect(payee.status).toBe(201);
      const lookup = await api.get(`/receiver/external-account/${payee.body.id}?customerId=${customerId}`);
      expect(lookup.body.requiredPayerDataFields).toEqual([
        { name: 'FULL_NAME', mandatory: true },
        { name: 'POSTAL_ADDRESS', mandatory: true },
      ]);
      const body = { ...quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payee.body.id }, 100_000), lookupId: lookup.body.lookupId };
      const refused = await api.post('/quotes', body);
      expect([refused.status, refused.body.code, refused.body.details.missingFields]).toEqual([400, 'MISSING_MANDATORY_USER_INFO', ['POSTAL_ADDRESS']]);
      // A customer with an address passes; a lookup of another receiver is not this quote's.
      const { accountId: addressed, payeeId } = await payer('001');
      const other = await api.post('/quotes', { ...quoteBody(addressed, { destinationType: 'ACCOUNT', accountId: payeeId }), lookupId: lookup.body.lookupId });
      expect([other.status, other.body.code]).toEqual([404, 'LOOKUP_REQUEST_NOT_FOUND']);
      const own = await api.get(`/receiver/external-account/${payeeId}`);
      expect((await api.post('/quotes', { ...quoteBody(addressed, { destinationType: 'ACCOUNT', accountId: payeeId }), lookupId: own.body.lookupId })).status).toBe(201);
    });
  });

  describe('an EMBEDDED_WALLET source signs the execution', () => {
    it('checks first, answers 202, executes on the signed retry, and replays the Idempotency-Key unsigned', async () => {
      const wallets = new WalletAuthClient(api);
      const wallet = await wallets.createWallet('quotes');
      const session = await wallets.otpLogin(wallet.emailCredentialId);
      // The fields moving money requires, which the wallet helper's customer leaves out.
      expect((await api.patch(`/customers/${wallet.customerId}`, { customerType: 'INDIVIDUAL', birthDate: '1990-04-12', nationality: 'GB', address })).status).toBe(200);
      await fund(wallet.accountId, 20_000_000);
      const payeeId = await mxnPayee(wallet.customerId, '001');
      const created = await api.post('/quotes', quoteBody(wallet.accountId, { destinationType: 'ACCOUNT', accountId: payeeId }, 10_000_000));
      expect([created.status, created.body.code]).toEqual([201, undefined]);
      expect(created.body.sendingCurrency.code).toBe('USDC');
      const immediate = await api.post('/quotes', { ...quoteBody(wallet.accountId, { destinationType: 'ACCOUNT', accountId: payeeId }, 10_000_000), immediatelyExecute: true });
      expect(immediate.status).toBe(400);
      const headers = { 'idempotency-key': `wallet-${randomInt(1e9)}` };
      const first = await api.post(`/quotes/${created.body.id}/execute`, {}, { headers });
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ payloadToSign: expect.stringContaining('QUOTE_EXECUTE'), requestId: expect.any(String) });
      expect((await api.get(`/quotes/${created.body.id}`)).body.status).toBe('PENDING');
      const signed = await wallets.signed('POST', `/quotes/${created.body.id}/execute`, {}, session.key);
      expect(signed.status).toBe(200);
      expect(signed.body.status).toBe('PROCESSING');
      expect(await balanceOf(wallet.accountId)).toBe(10_000_000);
    });
  });

  describe("an outgoing payment's webhooks", () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await WebhookReceiver.attach(api);
    });
    afterAll(async () => {
      await receiver?.close();
    });

    it('carry the transaction as it is at each status, the last one as GET /transactions/{id} answers it', async () => {
      // Suffix 005 passes through every step: PROCESSING, COMPLETED (payout), then FAILED (returned) and its refund.
      const { accountId, payeeId } = await payer('005');
      const created = await api.post('/quotes', { ...quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }), immediatelyExecute: true });
      expect(created.status).toBe(201);
      const statuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'];
      await advanceClock(api, 60);
      const hooks = await receiver.waitFor(
        created.body.transactionId,
        [...statuses, 'REFUND_PENDING', 'REFUND_COMPLETED'].map((s) => `OUTGOING_PAYMENT.${s}`),
      );
      const byStatus = new Map(hooks.filter((hook) => !String(hook.payload.type).includes('REFUND_')).map((hook) => [hook.payload.data.status as string, hook.payload]));
      const refunded = hooks.find((hook) => hook.payload.type === 'OUTGOING_PAYMENT.REFUND_COMPLETED')!.payload;
      for (const status of statuses) expect(byStatus.get(status)?.type).toBe(`OUTGOING_PAYMENT.${status}`);
      const final = await api.get(`/transactions/${created.body.transactionId}`);
      expect(refunded.data).toEqual(final.body);
      expect(byStatus.get('FAILED')!.data).toEqual({ ...final.body, refund: undefined, updatedAt: byStatus.get('FAILED')!.data.updatedAt });
      const completed = byStatus.get('COMPLETED')!.data;
      expect(completed).toEqual({
        ...final.body,
        status: 'COMPLETED',
        failureReason: undefined,
        refund: undefined,
        // Rail details appear with the return, not before.
        destination: { ...final.body.destination, railDetails: undefined },
        updatedAt: completed.updatedAt,
        settledAt: completed.updatedAt,
      });
      const times = statuses.map((status) => Date.parse(byStatus.get(status)!.data.updatedAt as string));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(await balanceOf(accountId)).toBe(10_000);
    });
  });

  describe('incoming UMA payments and the platform decision', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      // 202: the platform acknowledges the PENDING webhook and decides later through the API.
      receiver = await WebhookReceiver.attach(api, 202);
    });
    afterAll(async () => {
      await receiver?.close();
    });

    async function umaCustomer(): Promise<{ customerId: string; umaAddress: string; accountId: string }> {
      const domain = (await api.get('/config')).body.umaDomain as string;
      const umaAddress = `$ada.${randomInt(1e9)}@${domain}`;
      const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', umaAddress, birthDate: '1990-04-12', nationality: 'GB', address });
      expect(created.status).toBe(201);
      return { customerId: created.body.id, umaAddress, accountId: await internalAccount(created.body.id) };
    }

    it('receives a payment by UMA address, announces it PENDING with what the sender asks for, and credits the account on approval', async () => {
      const { customerId, umaAddress, accountId } = await umaCustomer();
      const received = await eventually(async () => {
        const response = await api.post('/sandbox/uma/receive', {
          senderUmaAddress: '$success.usd@sandbox.uma.money',
          receiverUmaAddress: umaAddress,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 5_000,
        });
        return response.status === 200 ? response : undefined;
      });
      expect(received.body).toMatchObject({
        type: 'INCOMING',
        status: 'PENDING',
        customerId,
        direction: 'CREDIT',
        source: { sourceType: 'UMA_ADDRESS', umaAddress: '$success.usd@sandbox.uma.money', currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId, currency: 'USD' },
        receivedAmount: { amount: 5_000, currency: { code: 'USD' } },
        counterpartyInformation: { FULL_NAME: 'Sandbox USD Receiver', UMA_ADDRESS: '$success.usd@sandbox.uma.money' },
      });
      const [pending] = await receiver.waitFor(received.body.id, ['INCOMING_PAYMENT.PENDING']);
      expect(pending.verified).toBe(true);
      expect(pending.payload.data).toMatchObject({
        status: 'PENDING',
        requestedReceiverCustomerInfoFields: [
          { name: 'FULL_NAME', mandatory: true },
          { name: 'BIRTH_DATE', mandatory: false },
        ],
      });
      expect(await balanceOf(accountId)).toBe(0);
      const approved = await api.post(`/transactions/${received.body.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } });
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ id: received.body.id, status: 'COMPLETED' });
      expect(await balanceOf(accountId)).toBe(5_000);
      const again = await api.post(`/transactions/${received.body.id}/approve`, {});
      expect([again.status, again.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
      expect(await webhookTypes(received.body.id, 2)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);
      expect(await ledgerOf(received.body.id)).toEqual({ USD: { HOLDING: 5_000, EXTERNAL_CLEARING: -5_000 } });
    });

    it.each([
      [200, 'COMPLETED', undefined, 900],
      [403, 'FAILED', 'COMPLIANCE_REJECTED', 0],
    ])('decides on the webhook answer: %d ends %s', async (status, final, failureReason, balance) => {
      const other = await t.newPlatform();
      await t.stack.runtime.client.request(
        CUSTOMERS_SUBJECTS.updateConfig,
        { regulated: true },
        { platformId: other.platformId, environment: 'sandbox', requestId: 'webhook-decision' },
      );
      const answering = await WebhookReceiver.attach(other.api, status, JSON.stringify({ receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } }));
      try {
        const created = await other.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
        const accountId = await eventually(async () => {
          const listed = await other.api.get(`/customers/internal-accounts?customerId=${created.body.id}&currency=USD&type=INTERNAL_FIAT`);
          return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
        });
        const received = await other.api.post('/sandbox/uma/receive', {
          senderUmaAddress: '$success.usd@sandbox.uma.money',
          customerId: created.body.id,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 900,
        });
        expect(received.status).toBe(200);
        const decided = await eventually(async () => {
          const fetched = await other.api.get(`/transactions/${received.body.id}`);
          return fetched.body.status !== 'PENDING' ? fetched.body : undefined;
        }, 20_000);
        expect([decided.status, decided.failureReason]).toEqual([final, failureReason]);
        expect((await other.api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(balance);
      } finally {
        await answering.close();
      }
    });

    it('fails a rejected payment with nothing moved', async () => {
      const { customerId, accountId } = await umaCustomer();
      const received = await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.eur@sandbox.uma.money',
        customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 700,
      });
      expect(received.status).toBe(200);
      const rejected = await api.post(`/transactions/${received.body.id}/reject`, { reason: 'Unknown sender' });
      expect(rejected.status).toBe(200);
      expect(rejected.body).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
      expect(await balanceOf(accountId)).toBe(0);
      expect(await webhookTypes(received.body.id, 2)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
      expect(await ledgerOf(received.body.id)).toEqual({});
      const late = await api.post(`/transactions/${received.body.id}/approve`, {});
      expect(late.status).toBe(409);
    });

    it("stores the customer's platformCustomerId, so the transactions filter finds the payment", async () => {
      const domain = (await api.get('/config')).body.umaDomain as string;
      const platformCustomerId = `ada-${randomInt(1e9)}`;
      const umaAddress = `$ada.${randomInt(1e9)}@${domain}`;
      const created = await api.post('/customers', {
        customerType: 'INDIVIDUAL',
        platformCustomerId,
        fullName: 'Ada Lovelace',
        umaAddress,
        birthDate: '1990-04-12',
        nationality: 'GB',
        address,
      });
      expect(created.status).toBe(201);
      await internalAccount(created.body.id);
      const byAddress = await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        receiverUmaAddress: umaAddress,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 300,
      });
      const byId = await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        customerId: created.body.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 400,
      });
      expect([byAddress.status, byId.status]).toEqual([200, 200]);
      for (const received of [byAddress, byId]) {
        expect(received.body).toMatchObject({ customerId: created.body.id, platformCustomerId });
        expect((await api.get(`/transactions/${received.body.id}`)).body.platformCustomerId).toBe(platformCustomerId);
      }
      const listed = await api.get(`/transactions?platformCustomerId=${platformCustomerId}`);
      expect(listed.status).toBe(200);
      expect((listed.body.data as Array<{ id: string }>).map((tx) => tx.id).sort()).toEqual([byAddress.body.id, byId.body.id].sort());
    });

    it("answers 404 for another platform's payment, whatever the decision", async () => {
      const { customerId, accountId } = await umaCustomer();
      const received = await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 250,
      });
      const other = await t.newPlatform();
      for (const action of ['approve', 'reject', 'cancel', 'confirm']) {
        const refused = await other.api.post(`/transactions/${received.body.id}/${action}`, {});
        expect([action, refused.status, refused.body.code]).toEqual([action, 404, 'TRANSACTION_NOT_FOUND']);
      }
      expect((await api.get(`/transactions/${received.body.id}`)).body.status).toBe('PENDING');
      expect(await balanceOf(accountId)).toBe(0);
    });

    it('cancels a payment still waiting for a decision, and refuses to cancel a settled one', async () => {
      const { customerId } = await umaCustomer();
      const received = await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.mxn@sandbox.uma.money',
        customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 300,
      });
      const cancelled = await api.post(`/transactions/${received.body.id}/cancel`, {});
      expect([cancelled.status, cancelled.body.status, cancelled.body.failureReason]).toEqual([200, 'FAILED', undefined]);
      const again = await api.post(`/transactions/${received.body.id}/cancel`, {});
      expect([again.status, again.body.code]).toEqual([409, 'TRANSACTION_NOT_CANCELLABLE']);
    });

    it('records the receipt delivery confirmation on any transaction of the platform', async () => {
      const { customerId } = await umaCustomer();
      const received = await api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 100,
      });
      const confirmed = await api.post(`/transactions/${received.body.id}/confirm`, { receiptDeliveryConfirmedAt: '2025-10-13T12:05:00Z' });
      expect([confirmed.status, confirmed.body.receiptDeliveryConfirmedAt]).toEqual([200, '2025-10-13T12:05:00.000Z']);
      expect((await api.get(`/transactions/${received.body.id}`)).body.receiptDeliveryConfirmedAt).toBe('2025-10-13T12:05:00.000Z');
      const other = await t.newPlatform();
      expect((await other.api.post(`/transactions/${received.body.id}/confirm`, {})).status).toBe(404);
    });

    it.each([
      ['a sender that is not a sandbox counterparty', { senderUmaAddress: '$someone@elsewhere.example' }, 404, 'UMA_NOT_FOUND'],
      ['a malformed sender', { senderUmaAddress: 'someone' }, 400, 'INVALID_UMA_ADDRESS'],
      ['no receiver', { senderUmaAddress: '$success.usd@sandbox.uma.money', customerId: undefined }, 400, 'INVALID_INPUT'],
      ['an unknown customer', { senderUmaAddress: '$success.usd@sandbox.uma.money', customerId: 'Customer:00000000-0000-7000-8000-000000000000' }, 404, 'USER_NOT_FOUND'],
      ['a currency the customer has no account in', { senderUmaAddress: '$success.usd@sandbox.uma.money', receivingCurrencyCode: 'NGN' }, 400, 'INVALID_CURRENCY'],
    ])('refuses %s', async (_what, fields, status, code) => {
      const { customerId } = await umaCustomer();
      const refused = await api.post('/sandbox/uma/receive', { customerId, receivingCurrencyCode: 'USD', receivingCurrencyAmount: 100, ...fields });
      expect([refused.status, refused.body.code]).toEqual([status, code]);
    });

    it('answers 409 when approving a transaction that does not wait for the platform', async () => {
      const { accountId, payeeId } = await payer('001');
      const created = await api.post('/quotes', { ...quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }), immediatelyExecute: true });
      const refused = await api.post(`/transactions/${created.body.transactionId}/approve`, {});
      expect([refused.status, refused.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
    });

    it('refuses a production token on the sandbox simulator', async () => {
      const production = await t.newPlatform('production');
      const refused = await production.api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        customerId: 'Customer:x',
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1,
      });
      expect(refused.status).toBe(403);
    });
  });

  describe('concurrency', () => {
    it('executes a quote once under 50 concurrent executions', async () => {
      const { accountId, payeeId } = await payer('001', 50_000);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      const answers = await Promise.all(Array.from({ length: 50 }, () => api.post(`/quotes/${created.body.id}/execute`, {})));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(49);
      await settled(created.body.transactionId);
      expect(await balanceOf(accountId)).toBe(40_000);
      expect(await ledgerOf(created.body.id)).toEqual(PAID_ONCE);
    });

    it('answers 20 concurrent executions under one Idempotency-Key with the one answer, and executes once', async () => {
      const { accountId, payeeId } = await payer('001', 50_000);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      const headers = { 'idempotency-key': `exec-${created.body.id}` };
      const answers = await Promise.all(Array.from({ length: 20 }, () => api.post(`/quotes/${created.body.id}/execute`, {}, { headers })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      for (const answer of answers) expect(answer.body).toEqual(answers[0].body);
      await settled(created.body.transactionId);
      expect(await balanceOf(accountId)).toBe(40_000);
      expect(await ledgerOf(created.body.id)).toEqual(PAID_ONCE);
    });

    it('refuses an execution from a source account frozen after quoting, and moves nothing until it is active again', async () => {
      const { accountId, payeeId } = await payer('001', 50_000);
      const created = await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }));
      expect((await api.post(`/sandbox/internal-accounts/${accountId}/status`, { status: 'FROZEN' })).status).toBe(200);
      const refused = await api.post(`/quotes/${created.body.id}/execute`, {});
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'ACCOUNT_NOT_ACTIVE', accountId, status: 'FROZEN' } });
      expect((await api.get(`/quotes/${created.body.id}`)).body.status).toBe('PENDING');
      expect(await balanceOf(accountId)).toBe(50_000);
      expect(await ledgerOf(created.body.id)).toEqual({});
      expect((await api.get(`/transactions/${created.body.transactionId}`)).status).toBe(404);
      // Frozen between the request's checks and the execution's statement: refused by its guard.
      const payments = t.stack.services.get('payments')!;
      const quote = (await payments.get(QuotesRepository).findById(platformId, created.body.id))!;
      await expect(payments.get(QuoteExecution).within(payments.get(DataSource).manager, ctx, quote, true, new Date())).rejects.toMatchObject({
        code: 'CONFLICT',
        details: { reason: 'ACCOUNT_NOT_ACTIVE', status: 'FROZEN' },
      });
      expect((await api.get(`/quotes/${created.body.id}`)).body.status).toBe('PENDING');
      expect(await ledgerOf(created.body.id)).toEqual({});
      expect((await api.post(`/sandbox/internal-accounts/${accountId}/status`, { status: 'ACTIVE' })).status).toBe(200);
      expect((await api.post(`/quotes/${created.body.id}/execute`, {})).status).toBe(200);
      await settled(created.body.transactionId);
      expect(await balanceOf(accountId)).toBe(40_000);
      expect(await ledgerOf(created.body.id)).toEqual(PAID_ONCE);
    });

    it('executes exactly 50 of 100 concurrent quotes against a source funded for 50', async () => {
      const { accountId, payeeId } = await payer('001', 50 * 1_000);
      const quotes: Quote[] = [];
      for (let i = 0; i < 100; i += 1) quotes.push((await api.post('/quotes', quoteBody(accountId, { destinationType: 'ACCOUNT', accountId: payeeId }, 1_000))).body);
      const answers = await Promise.all(quotes.map((quote) => api.post(`/quotes/${quote.id}/execute`, {})));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(50);
      expect(answers.filter((a) => a.status === 400 && a.body.code === 'INVALID_AMOUNT' && a.body.details.reason === 'INSUFFICIENT_FUNDS')).toHaveLength(50);
      expect(await balanceOf(accountId)).toBe(0);
    });
  });
});

const PAID_ONCE = { USD: { HOLDING: -10_000, FX_CONVERSION: 9_850, FEES: 150 }, MXN: { FX_CONVERSION: -169_912, EXTERNAL_CLEARING: 169_912 } };
