import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, Transaction } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { mxnExternalAccountBody, usdExternalAccountBody } from '../support/payments-fixtures';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
/** What the published client libraries send on their first automatic retry of a request. */
const RETRY = { 'x-stainless-retry-count': '1' };

/**
 * Client retries of money operations (issue 40): the published client libraries retry a POST after
 * a time-out, 409, 429 or 5xx with `X-Stainless-Retry-Count` 1, 2, ... and no Idempotency-Key of
 * their own. Such a retry of a keyless transfer answers the most recent identical request of the
 * last 24 hours of the platform's time instead of moving the money again; a first try always runs.
 */
describe('Payments: client retries of keyless transfers and immediately executed quotes', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** A platform whose customers are KYC APPROVED at creation (regulated), with its own test clock. */
  async function newPlatform(): Promise<ApiClient> {
    const platform = await t.newPlatform();
    const ctx: CallerContext = { platformId: platform.platformId, environment: 'sandbox', requestId: 'client-retries-test' };
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
    return platform.api;
  }

  /** A customer with a funded USD account and an external account that settles (suffix 001). */
  async function fundedCustomer(api: ApiClient, funds: number): Promise<{ customerId: string; accountId: string; externalId: string }> {
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      birthDate: '1990-04-12',
      nationality: 'GB',
      address: ADDRESS,
    });
    expect(created.status).toBe(201);
    const customerId = created.body.id;
    const accountId = await eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
    expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: funds })).status).toBe(200);
    const external = await api.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('001') });
    expect(external.status).toBe(201);
    return { customerId, accountId, externalId: external.body.id };
  }

  /** The available balance (an outgoing transfer holds its amount at once). */
  const balanceOf = async (api: ApiClient, accountId: string): Promise<number> => (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;

  const transactionIds = async (api: ApiClient, accountId: string): Promise<string[]> =>
    ((await api.get(`/transactions?accountId=${accountId}`)).body.data as Transaction[]).map((tx) => tx.id).sort();

  async function settled(api: ApiClient, transactionId: string): Promise<Transaction> {
    return eventually(async () => {
      const fetched = await api.get(`/transactions/${transactionId}`);
      return fetched.body.status === 'COMPLETED' || fetched.body.status === 'FAILED' ? (fetched.body as Transaction) : undefined;
    });
  }

  describe('on one platform', () => {
    let api: ApiClient;
    beforeAll(async () => {
      api = await newPlatform();
    });

    it('answers a transfer-out retried after its first try went through with that transaction, holding once', async () => {
      const { accountId, externalId } = await fundedCustomer(api, 1_000);
      const body = { source: { accountId }, destination: { accountId: externalId }, amount: 300 };
      const first = await api.post('/transfer-out', body, { headers: { 'x-stainless-retry-count': '0' } });
      expect(first.status).toBe(201);
      expect(await balanceOf(api, accountId)).toBe(700);
      const retried = await api.post('/transfer-out', body, { headers: RETRY });
      expect(retried.status).toBe(201);
      expect(retried.body.id).toBe(first.body.id);
      const again = await api.post('/transfer-out', body, { headers: { 'x-stainless-retry-count': '2' } });
      expect(again.body.id).toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(700);
      expect(await transactionIds(api, accountId)).toEqual([first.body.id]);
      // The retry of a settled transfer answers it as it is now.
      await advanceClock(api, 31);
      expect((await settled(api, first.body.id)).status).toBe('COMPLETED');
      const late = await api.post('/transfer-out', body, { headers: RETRY });
      expect(late.body).toMatchObject({ id: first.body.id, status: 'COMPLETED' });
      expect(await balanceOf(api, accountId)).toBe(700);
    });

    it('makes two transfer-outs of two identical first tries (no header, or 0)', async () => {
      const { accountId, externalId } = await fundedCustomer(api, 1_000);
      const body = { source: { accountId }, destination: { accountId: externalId }, amount: 300 };
      const first = await api.post('/transfer-out', body);
      const second = await api.post('/transfer-out', body, { headers: { 'x-stainless-retry-count': '0' } });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.id).not.toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(400);
      // A retry then answers the most recent of them.
      expect((await api.post('/transfer-out', body, { headers: RETRY })).body.id).toBe(second.body.id);
      expect(await balanceOf(api, accountId)).toBe(400);
    });

    it('runs a transfer-out retry whose body differs as a new transfer', async () => {
      const { accountId, externalId } = await fundedCustomer(api, 1_000);
      const first = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 300 });
      expect(first.status).toBe(201);
      const other = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 301 }, { headers: RETRY });
      expect(other.status).toBe(201);
      expect(other.body.id).not.toBe(first.body.id);
      const described = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 300, description: 'x' }, { headers: RETRY });
      expect(described.body.id).not.toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(99);
    });

    it('runs a retry that repeats no earlier request (its first try never arrived)', async () => {
      const { accountId, externalId } = await fundedCustomer(api, 1_000);
      const retried = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 300 }, { headers: RETRY });
      expect(retried.status).toBe(201);
      expect(await balanceOf(api, accountId)).toBe(700);
    });

    it('answers a transfer-in retried after its first try went through with that transaction, crediting once', async () => {
      const { accountId, externalId } = await fundedCustomer(api, 1_000);
      const body = { source: { accountId: externalId }, destination: { accountId }, amount: 250 };
      const first = await api.post('/transfer-in', body);
      expect(first.status).toBe(201);
      const retried = await api.post('/transfer-in', body, { headers: RETRY });
      expect(retried.status).toBe(201);
      expect(retried.body.id).toBe(first.body.id);
      await advanceClock(api, 31);
      await settled(api, first.body.id);
      expect(await balanceOf(api, accountId)).toBe(1_250);
      expect(await transactionIds(api, accountId)).toEqual([first.body.id]);
    });

    it('makes two transfer-ins of two identical first tries, and runs a retry whose body differs as new', async () => {
      const { accountId, externalId } = await fundedCustomer(api, 1_000);
      const body = { source: { accountId: externalId }, destination: { accountId }, amount: 250 };
      const first = await api.post('/transfer-in', body);
      const second = await api.post('/transfer-in', body);
      const other = await api.post('/transfer-in', { ...body, amount: 251 }, { headers: RETRY });
      expect([first.status, second.status, other.status]).toEqual([201, 201, 201]);
      expect(new Set([first.body.id, second.body.id, other.body.id]).size).toBe(3);
      await advanceClock(api, 31);
      await Promise.all([first, second, other].map((answer) => settled(api, answer.body.id)));
      expect(await balanceOf(api, accountId)).toBe(1_751);
    });

    it('keeps an Idempotency-Key in charge when the request also carries the retry header', async () => {
      const { accountId, externalId } = await fundedCustomer(api, 1_000);
      const body = { source: { accountId }, destination: { accountId: externalId }, amount: 300 };
      const key = { 'idempotency-key': `retry-${accountId}` };
      const first = await api.post('/transfer-out', body, { headers: key });
      const retried = await api.post('/transfer-out', body, { headers: { ...key, ...RETRY } });
      expect(retried.status).toBe(201);
      expect(retried.body).toEqual(first.body);
      // A keyless retry does not answer a keyed transfer (a client retries with the headers of its first try).
      const keyless = await api.post('/transfer-out', body, { headers: RETRY });
      expect(keyless.body.id).not.toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(400);
    });
  });

  describe('POST /quotes with immediatelyExecute', () => {
    let api: ApiClient;
    beforeAll(async () => {
      api = await newPlatform();
    });

    /** A funded customer and an MXN payee that settles (suffix 001). */
    async function payer(funds: number): Promise<{ customerId: string; accountId: string; payeeId: string }> {
      const { customerId, accountId } = await fundedCustomer(api, funds);
      const payee = await api.post('/customers/external-accounts', { customerId, ...mxnExternalAccountBody('001') });
      expect(payee.status).toBe(201);
      return { customerId, accountId, payeeId: payee.body.id };
    }

    const quoteBody = (accountId: string, payeeId: string, amount: number) => ({
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      immediatelyExecute: true,
    });

    it('answers a quote retried after its first try went through with that quote, debiting once', async () => {
      const { accountId, payeeId } = await payer(10_000);
      const body = quoteBody(accountId, payeeId, 3_000);
      const first = await api.post('/quotes', body, { headers: { 'x-stainless-retry-count': '0' } });
      expect(first.status).toBe(201);
      expect(first.body.status).toBe('PROCESSING');
      expect(await balanceOf(api, accountId)).toBe(7_000);
      const retried = await api.post('/quotes', body, { headers: RETRY });
      expect(retried.status).toBe(201);
      expect(retried.body).toMatchObject({ id: first.body.id, transactionId: first.body.transactionId });
      const again = await api.post('/quotes', body, { headers: { 'x-stainless-retry-count': '3' } });
      expect(again.body.id).toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(7_000);
      expect(await transactionIds(api, accountId)).toEqual([first.body.transactionId]);
      // The retry of a settled quote answers it as GET does now.
      await advanceClock(api, 31);
      expect((await settled(api, first.body.transactionId)).status).toBe('COMPLETED');
      const late = await api.post('/quotes', body, { headers: RETRY });
      expect(late.body).toEqual((await api.get(`/quotes/${first.body.id}`)).body);
      expect(late.body.status).toBe('COMPLETED');
      expect(await balanceOf(api, accountId)).toBe(7_000);
      expect(await transactionIds(api, accountId)).toEqual([first.body.transactionId]);
    });

    it('executes two quotes of two identical first tries, and a retry whose body differs as new', async () => {
      const { accountId, payeeId } = await payer(10_000);
      const body = quoteBody(accountId, payeeId, 3_000);
      const first = await api.post('/quotes', body);
      const second = await api.post('/quotes', body, { headers: { 'x-stainless-retry-count': '0' } });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.id).not.toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(4_000);
      // A retry answers the most recent of them.
      expect((await api.post('/quotes', body, { headers: RETRY })).body.id).toBe(second.body.id);
      const other = await api.post('/quotes', quoteBody(accountId, payeeId, 3_001), { headers: RETRY });
      expect(other.status).toBe(201);
      expect(other.body.id).not.toBe(second.body.id);
      const described = await api.post('/quotes', { ...body, lockedCurrencyAmount: 999, description: 'x' }, { headers: RETRY });
      expect(described.status).toBe(201);
      expect(await balanceOf(api, accountId)).toBe(0);
      expect(await transactionIds(api, accountId)).toEqual([first.body.transactionId, second.body.transactionId, other.body.transactionId, described.body.transactionId].sort());
    });

    it('leaves quotes without immediatelyExecute as they are: a retry creates another quote, nothing moves', async () => {
      const { accountId, payeeId } = await payer(10_000);
      const { immediatelyExecute: _executed, ...body } = quoteBody(accountId, payeeId, 3_000);
      const first = await api.post('/quotes', body);
      const retried = await api.post('/quotes', body, { headers: RETRY });
      expect([first.status, retried.status]).toEqual([201, 201]);
      expect(retried.body.id).not.toBe(first.body.id);
      expect(retried.body.status).toBe('PENDING');
      expect(await balanceOf(api, accountId)).toBe(10_000);
      // An executing retry does not answer the unexecuted quote either (another body).
      const executing = await api.post('/quotes', { ...body, immediatelyExecute: true }, { headers: RETRY });
      expect(executing.status).toBe(201);
      expect(executing.body.status).toBe('PROCESSING');
      expect(await balanceOf(api, accountId)).toBe(7_000);
    });

    it('runs a retry that repeats no earlier request, and keeps an Idempotency-Key in charge', async () => {
      const { accountId, payeeId } = await payer(10_000);
      const body = quoteBody(accountId, payeeId, 2_000);
      const retried = await api.post('/quotes', body, { headers: RETRY });
      expect(retried.status).toBe(201);
      expect(await balanceOf(api, accountId)).toBe(8_000);
      const key = { 'idempotency-key': `quote-retry-${accountId}` };
      const keyed = await api.post('/quotes', body, { headers: key });
      expect((await api.post('/quotes', body, { headers: { ...key, ...RETRY } })).body).toEqual(keyed.body);
      expect(await balanceOf(api, accountId)).toBe(6_000);
      // The keyless retry answers the keyless quote, never the keyed one.
      expect((await api.post('/quotes', body, { headers: RETRY })).body.id).toBe(retried.body.id);
      expect(await balanceOf(api, accountId)).toBe(6_000);
    });

    it("answers an agent's retried quote with its quote, another agent's identical retry as new, and the platform's retry as new", async () => {
      const { customerId, accountId, payeeId } = await payer(10_000);
      const policy = {
        permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 200_000, dailyTransactionLimit: 20, monthlyLimit: 1_000_000 },
      };
      const connected = async () => {
        const created = await api.post('/agents', { name: 'Payroll bot', customerId, policy });
        expect(created.status).toBe(201);
        const redeemed = await api.post(`/agents/device-codes/${created.body.deviceCode.code}/redeem`, undefined, { auth: null });
        expect(redeemed.status).toBe(200);
        return (path: string, body: unknown, headers: Record<string, string> = {}) =>
          api.post(path, body, { auth: null, headers: { authorization: `Bearer ${redeemed.body.accessToken}`, ...headers } });
      };
      const [agent, otherAgent] = [await connected(), await connected()];
      const body = quoteBody(accountId, payeeId, 2_000);
      const first = await agent('/agents/me/quotes', body);
      expect(first.status).toBe(201);
      expect(first.body.status).toBe('PROCESSING');
      expect(await balanceOf(api, accountId)).toBe(8_000);
      const retried = await agent('/agents/me/quotes', body, RETRY);
      expect(retried.status).toBe(201);
      expect(retried.body).toMatchObject({ id: first.body.id, transactionId: first.body.transactionId });
      expect(await balanceOf(api, accountId)).toBe(8_000);
      const theirs = await otherAgent('/agents/me/quotes', body, RETRY);
      expect(theirs.status).toBe(201);
      expect(theirs.body.id).not.toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(6_000);
      // The platform's own route is another route.
      const platforms = await api.post('/quotes', body, { headers: RETRY });
      expect(platforms.body.id).not.toBe(first.body.id);
      expect(await balanceOf(api, accountId)).toBe(4_000);
      // A keyed retry of the agent's route answers its first quote too.
      const key = { 'idempotency-key': `agent-quote-${accountId}` };
      const keyed = await agent('/agents/me/quotes', body, key);
      expect(keyed.status).toBe(201);
      const keyedRetry = await agent('/agents/me/quotes', body, { ...key, ...RETRY });
      expect(keyedRetry.status).toBe(201);
      expect(keyedRetry.body.id).toBe(keyed.body.id);
      expect(await balanceOf(api, accountId)).toBe(2_000);
      expect((await transactionIds(api, accountId)).length).toBe(4);
    });
  });

  it("answers an agent's retried transfer-out with its action, and another agent's identical retry as new", async () => {
    const api = await newPlatform();
    const { customerId, accountId, externalId } = await fundedCustomer(api, 1_000);
    const policy = {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 200_000, dailyTransactionLimit: 20, monthlyLimit: 1_000_000 },
    };
    const connected = async () => {
      const created = await api.post('/agents', { name: 'Payroll bot', customerId, policy });
      expect(created.status).toBe(201);
      const redeemed = await api.post(`/agents/device-codes/${created.body.deviceCode.code}/redeem`, undefined, { auth: null });
      expect(redeemed.status).toBe(200);
      return (path: string, body: unknown, headers: Record<string, string> = {}) =>
        api.post(path, body, { auth: null, headers: { authorization: `Bearer ${redeemed.body.accessToken}`, ...headers } });
    };
    const [agent, otherAgent] = [await connected(), await connected()];
    const body = { source: { accountId }, destination: { accountId: externalId }, amount: 200 };
    const first = await agent('/agents/me/transfer-out', body);
    expect(first.status).toBe(201);
    const retried = await agent('/agents/me/transfer-out', body, RETRY);
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(first.body.id);
    expect(await balanceOf(api, accountId)).toBe(800);
    const theirs = await otherAgent('/agents/me/transfer-out', body, RETRY);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
    expect(await balanceOf(api, accountId)).toBe(600);
    // The platform's own route is another route: its retry does not answer an agent's transfer.
    expect((await api.post('/transfer-out', body, { headers: RETRY })).body.id).not.toBe(first.body.transaction.id);
    expect(await balanceOf(api, accountId)).toBe(400);
  });

  it('runs a retry more than 24 hours of sandbox time after the request it repeats as new', async () => {
    const api = await newPlatform();
    const { accountId, externalId } = await fundedCustomer(api, 1_000);
    const body = { source: { accountId }, destination: { accountId: externalId }, amount: 100 };
    const first = await api.post('/transfer-out', body);
    expect(first.status).toBe(201);
    await advanceClock(api, 23 * 3600);
    expect((await api.post('/transfer-out', body, { headers: RETRY })).body.id).toBe(first.body.id);
    expect(await balanceOf(api, accountId)).toBe(900);
    await advanceClock(api, 3600 + 1);
    const late = await api.post('/transfer-out', body, { headers: RETRY });
    expect(late.status).toBe(201);
    expect(late.body.id).not.toBe(first.body.id);
    expect(await balanceOf(api, accountId)).toBe(800);
  });
});
