import { randomInt } from 'node:crypto';
import { CallerContext, CUSTOMERS_SUBJECTS, Hold, InternalAccount, PAYMENTS_SUBJECTS } from '@paykit/contracts';
import { ApiClient, ApiResponse } from '../support/api-client';
import { refusalOf, usdExternalAccountBody } from '../support/payments-fixtures';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { ReceivedWebhook, WebhookReceiver } from './customers.support';

/**
 * Internal account statuses through the sandbox simulator `POST /sandbox/internal-accounts/{id}/status`:
 * the transition table, what a FROZEN or CLOSED account refuses (transfers, funding, holds, card
 * authorizations), closing only when empty, tenancy, validation and the STATUS_CHANGE webhook.
 */
describe('Payments: internal account statuses', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;
  let receiver: WebhookReceiver;

  const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
  const USDC = { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 };

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    ctx = { platformId: platform.platformId, environment: 'sandbox', requestId: 'payments-account-status-test' };
    // Regulated platforms' customers start APPROVED: they may move money at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
    receiver = await WebhookReceiver.attach(api);
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.stop();
  });

  /** A ready customer (every field USD requires) and its accounts once provisioned. */
  async function newCustomer(): Promise<{ customerId: string; accounts: InternalAccount[] }> {
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      birthDate: '1990-04-12',
      nationality: 'GB',
      address,
    });
    expect(created.status).toBe(201);
    const customerId: string = created.body.id;
    const accounts = await eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&limit=100`);
      const data = (listed.body?.data ?? []) as InternalAccount[];
      return data.some((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === 'USD') &&
        data.some((a) => a.type === 'INTERNAL_CRYPTO' && a.balance.currency.code === 'USDC')
        ? data
        : undefined;
    });
    return { customerId, accounts };
  }

  async function usdAccount(): Promise<{ customerId: string; accountId: string }> {
    const { customerId, accounts } = await newCustomer();
    return { customerId, accountId: accounts.find((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === 'USD')!.id };
  }

  /** A USD external account of the customer whose account number ends in `suffix` (the sandbox outcome). */
  async function externalAccount(customerId: string, suffix = '001'): Promise<string> {
    const created = await api.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody(suffix) });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  function setStatus(accountId: string, status: unknown, client: ApiClient = api): Promise<ApiResponse> {
    return client.post(`/sandbox/internal-accounts/${accountId}/status`, { status });
  }

  async function moveTo(accountId: string, ...statuses: string[]): Promise<void> {
    for (const status of statuses) expect((await setStatus(accountId, status)).status).toBe(200);
  }

  function fund(accountId: string, amount: number): Promise<ApiResponse> {
    return api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount });
  }

  async function account(accountId: string): Promise<InternalAccount> {
    return (await api.get(`/internal-accounts/${accountId}`)).body as InternalAccount;
  }

  async function settled(transactionId: string): Promise<{ status: string }> {
    return eventually(async () => {
      const fetched = await api.get(`/transactions/${transactionId}`);
      return fetched.body.status === 'COMPLETED' || fetched.body.status === 'FAILED' ? fetched.body : undefined;
    });
  }

  function send<R>(subject: Parameters<typeof t.stack.runtime.client.request>[0], payload: unknown): Promise<R> {
    return t.stack.runtime.client.request(subject, payload as never, ctx) as Promise<R>;
  }

  /** The STATUS_CHANGE webhooks received about the account, once there are `count`. */
  async function statusWebhooks(accountId: string, count: number): Promise<ReceivedWebhook[]> {
    return eventually(async () => {
      const mine = receiver.received.filter((r) => r.payload.type === 'INTERNAL_ACCOUNT.STATUS_UPDATED' && r.payload.data?.id === accountId);
      return mine.length >= count ? mine : undefined;
    }, 15_000);
  }

  describe('the transition table', () => {
    it.each([
      ['ACTIVE', 'FROZEN', 200],
      ['FROZEN', 'ACTIVE', 200],
      ['ACTIVE', 'CLOSED', 200],
      ['FROZEN', 'CLOSED', 200],
      ['ACTIVE', 'ACTIVE', 409],
      ['FROZEN', 'FROZEN', 409],
      ['CLOSED', 'ACTIVE', 409],
      ['CLOSED', 'FROZEN', 409],
      ['CLOSED', 'CLOSED', 409],
    ])('%s -> %s answers %d', async (from, to, status) => {
      const { accountId } = await usdAccount();
      const path = { ACTIVE: [], FROZEN: ['FROZEN'], CLOSED: ['CLOSED'] }[from]!;
      await moveTo(accountId, ...path);
      const before = await account(accountId);
      const response = await setStatus(accountId, to);
      expect(response.status).toBe(status);
      if (status === 200) {
        expect(response.body).toEqual({ ...before, status: to, updatedAt: expect.any(String) });
        expect(await account(accountId)).toEqual(response.body);
      } else {
        expect(response.body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION', details: { status: from, requestedStatus: to } });
        expect(await account(accountId)).toEqual(before);
      }
    });

    it('announces each change with INTERNAL_ACCOUNT.STATUS_UPDATED, signed, carrying the account as GET returns it', async () => {
      const { accountId } = await usdAccount();
      await moveTo(accountId, 'FROZEN');
      const [frozen] = await statusWebhooks(accountId, 1);
      expect(frozen.verified).toBe(true);
      expect(frozen.payload.data).toEqual(await account(accountId));
      await moveTo(accountId, 'ACTIVE', 'CLOSED');
      const all = await statusWebhooks(accountId, 3);
      expect(all.every((webhook) => webhook.verified)).toBe(true);
      expect(all.map((webhook) => webhook.payload.data.status)).toEqual(['FROZEN', 'ACTIVE', 'CLOSED']);
      expect(all[2].payload.data).toEqual(await account(accountId));
    });
  });

  describe('a FROZEN account', () => {
    it('refuses a transfer-out with 409 CONFLICT, moving nothing; unfrozen, the transfer goes through', async () => {
      const { customerId, accountId } = await usdAccount();
      expect((await fund(accountId, 10_000)).status).toBe(200);
      const externalId = await externalAccount(customerId);
      await moveTo(accountId, 'FROZEN');
      const body = { source: { accountId }, destination: { accountId: externalId }, amount: 2_500 };
      const refused = await api.post('/transfer-out', body);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ status: 409, code: 'CONFLICT', details: { reason: 'ACCOUNT_NOT_ACTIVE' } });
      expect((await account(accountId)).balance.amount).toBe(10_000);
      expect((await api.get(`/transactions?accountId=${accountId}`)).body.data).toEqual([]);

      await moveTo(accountId, 'ACTIVE');
      const accepted = await api.post('/transfer-out', body);
      expect(accepted.status).toBe(201);
      expect((await settled(accepted.body.id)).status).toBe('COMPLETED');
      expect((await account(accountId)).balance.amount).toBe(7_500);
    });

    it('refuses new holds and funding, while a hold placed before the freeze still settles', async () => {
      const { accountId } = await usdAccount();
      expect((await fund(accountId, 5_000)).status).toBe(200);
      const earlier = await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: `before-freeze-${accountId}`, accountId, amount: 1_000, currency: 'USD' });
      await moveTo(accountId, 'FROZEN');

      const hold = await refusalOf(send(PAYMENTS_SUBJECTS.createHold, { callerKey: `frozen-${accountId}`, accountId, amount: 1_000, currency: 'USD' }));
      expect(hold).toMatchObject({ code: 'CONFLICT', details: { reason: 'ACCOUNT_NOT_ACTIVE' } });
      const funded = await fund(accountId, 100);
      expect(funded.status).toBe(409);
      expect(funded.body.code).toBe('CONFLICT');
      expect((await account(accountId)).balance.amount).toBe(4_000);

      const captured = await send<Hold>(PAYMENTS_SUBJECTS.captureHold, { callerKey: `capture-${accountId}`, holdId: earlier.id, amount: 1_000 });
      expect(captured).toMatchObject({ status: 'CAPTURED', availableBalance: 4_000 });
    });

    it('declines a card authorization on it as FUNDING_SOURCE_UNAVAILABLE, holding nothing', async () => {
      const { customerId, accounts } = await newCustomer();
      const cryptoId = accounts.find((a) => a.type === 'INTERNAL_CRYPTO' && a.balance.currency.code === 'USDC')!.id;
      const card = await api.post('/cards', { cardholderId: customerId, form: 'VIRTUAL', fundingSources: [cryptoId], platformCardId: `status-${randomInt(1e6)}-900` });
      expect(card.status).toBe(201);
      expect(card.body.state).toBe('ACTIVE');
      expect((await fund(cryptoId, 5_000_000)).status).toBe(200);
      await moveTo(cryptoId, 'FROZEN');
      const authorize = () =>
        api.post(`/sandbox/cards/${card.body.id}/simulate/authorization`, {
          amount: 1_000_000,
          currency: USDC,
          merchant: { descriptor: 'COFFEE SHOP 100', mcc: '5814', country: 'US' },
        });
      const declined = await authorize();
      expect(declined.status).toBe(202);
      expect(declined.body).toMatchObject({ status: 'DECLINED', declineReason: 'FUNDING_SOURCE_UNAVAILABLE' });
      expect((await account(cryptoId)).balance.amount).toBe(5_000_000);

      await moveTo(cryptoId, 'ACTIVE');
      expect((await authorize()).body.status).toBe('CONFIRMED');
      expect((await account(cryptoId)).balance.amount).toBe(4_000_000);
    });
  });

  describe('closing', () => {
    it('closes an empty account for good: funding it is refused, and it cannot be reopened', async () => {
      const { accountId } = await usdAccount();
      await moveTo(accountId, 'CLOSED');
      const funded = await fund(accountId, 100);
      expect(funded.status).toBe(409);
      expect(funded.body.code).toBe('CONFLICT');
      const reopened = await setStatus(accountId, 'ACTIVE');
      expect(reopened.status).toBe(409);
      expect(reopened.body).toMatchObject({ code: 'INVALID_STATE_TRANSITION', message: expect.stringContaining('CLOSED is terminal') });
      expect(await account(accountId)).toMatchObject({ status: 'CLOSED', balance: { amount: 0 } });
    });

    it('refuses to close an account with a balance or pending holds with 409, changing nothing', async () => {
      const { accountId } = await usdAccount();
      expect((await fund(accountId, 1_000)).status).toBe(200);
      const withBalance = await setStatus(accountId, 'CLOSED');
      expect(withBalance.status).toBe(409);
      expect(withBalance.body).toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
        message: expect.stringContaining('a balance of 1000'),
        details: { status: 'ACTIVE', requestedStatus: 'CLOSED', postedAmount: 1_000, pendingHoldAmount: 0, incomingTransferInFlight: false },
      });

      await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: `close-hold-${accountId}`, accountId, amount: 1_000, currency: 'USD' });
      expect((await account(accountId)).balance.amount).toBe(0);
      const withHold = await setStatus(accountId, 'CLOSED');
      expect(withHold.status).toBe(409);
      expect(withHold.body.details).toMatchObject({ postedAmount: 1_000, pendingHoldAmount: 1_000 });
      expect(await account(accountId)).toMatchObject({ status: 'ACTIVE', balance: { amount: 0 } });
    });

    it('never leaves money on a CLOSED account when funding races the close', async () => {
      const { accountId } = await usdAccount();
      const [close, ...funds] = await Promise.all([setStatus(accountId, 'CLOSED'), ...Array.from({ length: 10 }, () => fund(accountId, 100))]);
      const funded = funds.filter((f) => f.status === 200).length;
      expect(funds.every((f) => f.status === 200 || (f.status === 409 && f.body.code === 'CONFLICT'))).toBe(true);
      const final = await account(accountId);
      expect(final.balance.amount).toBe(100 * funded);
      if (close.status === 200) expect(final).toMatchObject({ status: 'CLOSED', balance: { amount: 0 } });
      else expect(close.body.code).toBe('INVALID_STATE_TRANSITION');
    });
  });

  describe('the route', () => {
    it("answers another platform's or an unknown account with 404 REFERENCE_NOT_FOUND", async () => {
      const { accountId } = await usdAccount();
      const other = await t.newPlatform();
      for (const [id, client] of [
        [accountId, other.api],
        ['InternalAccount:00000000-0000-7000-8000-000000000000', api],
      ] as const) {
        const response = await setStatus(id, 'FROZEN', client);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
      }
      expect((await account(accountId)).status).toBe('ACTIVE');
    });

    const ENUM = { enum: ['ACTIVE', 'FROZEN', 'CLOSED'] };
    it.each([
      ['PENDING', { status: 'PENDING' }, 'status', ENUM],
      ['a lowercase status', { status: 'frozen' }, 'status', ENUM],
      ['no status', {}, 'status', undefined],
      ['an unknown field', { status: 'FROZEN', reason: 'fraud' }, 'reason', undefined],
    ])('refuses %s with 400 INVALID_INPUT, naming the field in details.errors', async (_, body, field, constraint) => {
      const { accountId } = await usdAccount();
      const response = await api.post(`/sandbox/internal-accounts/${accountId}/status`, body);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field, message: expect.any(String) })] } });
      expect(response.body.details.errors[0].constraint).toEqual(constraint);
      expect((await account(accountId)).status).toBe('ACTIVE');
    });

    it('is refused to a production token', async () => {
      const { accountId } = await usdAccount();
      const production = await t.newPlatform('production');
      const response = await setStatus(accountId, 'FROZEN', production.api);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    });

    it('is documented in the OpenAPI output', async () => {
      const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
      const operation = document.paths['/sandbox/internal-accounts/{accountId}/status'].post;
      expect(operation.tags).toContain('Sandbox');
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '404', '409']));
      expect(document.components.schemas.SandboxAccountStatusRequest.properties.status.enum).toEqual(['ACTIVE', 'FROZEN', 'CLOSED']);
    });
  });
});
