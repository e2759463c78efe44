/**
 * @distributed payments: holds over the transport, 200 concurrent debits of one account on PostgreSQL
 */
import { CallerContext, CUSTOMERS_SUBJECTS, Hold, InternalAccount, PAYMENTS_SUBJECTS, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { ApiClient } from '../support/api-client';
import { refusalOf } from '../support/payments-fixtures';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

/** Waits for the customer's provisioning to be READY: its accounts (and wallet, if owed) all exist. */
async function provisioned(client: ApiClient, customerId: string): Promise<void> {
  await eventually(async () => ((await client.get(`/customers/${customerId}/provisioning`)).body.status === 'READY' ? true : undefined));
}

/**
 * Payments core, part 1: internal accounts provisioned from customer events, sandbox
 * funding, and the hold lifecycle cards use over the transport — including 200 concurrent
 * debits against one account. Runs in embedded (PGlite) and distributed (PostgreSQL) mode.
 */
describe('Payments: internal accounts, sandbox funding and holds', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    ctx = { platformId: platform.platformId, environment: 'sandbox', requestId: 'payments-ledger-test' };
    // Regulated platforms' customers start APPROVED: they may move money at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function newCustomer(body: Record<string, unknown> = {}): Promise<string> {
    const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'Ada@Example.com', ...body });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function accountsOf(customerId: string, count: number): Promise<InternalAccount[]> {
    return eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&limit=100`);
      return listed.status === 200 && listed.body.data.length >= count ? (listed.body.data as InternalAccount[]) : undefined;
    });
  }

  async function usdAccount(customerId?: string): Promise<InternalAccount> {
    const accounts = await accountsOf(customerId ?? (await newCustomer()), 2);
    return accounts.find((a) => a.balance.currency.code === 'USD' && a.type === 'INTERNAL_FIAT')!;
  }

  async function fund(accountId: string, amount: number): Promise<void> {
    const funded = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount });
    expect(funded.status).toBe(200);
  }

  async function balanceOf(accountId: string): Promise<number> {
    return (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;
  }

  function send<R>(subject: Parameters<typeof t.stack.runtime.client.request>[0], payload: unknown): Promise<R> {
    return t.stack.runtime.client.request(subject, payload as never, ctx) as Promise<R>;
  }

  describe('internal accounts', () => {
    it('shows the total balance (holds included) beside the available one, and the same funding instructions on every read', async () => {
      const account = await usdAccount();
      await fund(account.id, 5_000);
      await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: `total-${account.id}`, accountId: account.id, amount: 1_200, currency: 'USD' });
      const fetched = await api.get(`/internal-accounts/${account.id}`);
      expect(fetched.body.balance.amount).toBe(3_800);
      expect(fetched.body.totalBalance).toEqual({ amount: 5_000, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } });
      const [usd] = fetched.body.fundingPaymentInstructions;
      expect(usd).toEqual({
        instructionsNotes: expect.any(String),
        isPlatformAccount: false,
        accountOrWalletInfo: {
          accountType: 'USD_ACCOUNT',
          paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
          reference: expect.stringMatching(/^[A-Z0-9]{12}$/),
          accountNumber: expect.stringMatching(/^[0-9]{12}$/),
          routingNumber: expect.stringMatching(/^[0-9]{9}$/),
          bankName: expect.any(String),
          bankAccountType: 'CHECKING',
        },
      });
      // Deterministic: the list, a second GET and the fund answer show the very same instructions.
      const listed = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(account.customerId!)}&currency=USD&type=INTERNAL_FIAT`);
      expect(listed.body.data[0].fundingPaymentInstructions).toEqual(fetched.body.fundingPaymentInstructions);
      const funded = await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 1 });
      expect(funded.body).toMatchObject({ totalBalance: { amount: 5_001 }, balance: { amount: 3_801 }, fundingPaymentInstructions: fetched.body.fundingPaymentInstructions });
      // Each funding is announced (INTERNAL_ACCOUNT.BALANCE_UPDATED); the card hold, batched, is not.
      const announced = await eventually(async () => {
        const received = await send<Array<{ subject: string; webhookType?: string }>>(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: account.id });
        const balance = received.filter((e) => e.webhookType === 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
        return balance.length >= 2 ? balance : undefined;
      });
      expect(announced.map((e) => e.subject)).toEqual(['payments.events.internal-account.balance-changed', 'payments.events.internal-account.balance-changed']);
      // Another account has other details.
      const other = await usdAccount();
      expect(other.fundingPaymentInstructions[0].accountOrWalletInfo.accountNumber).not.toBe(usd.accountOrWalletInfo.accountNumber);
    });

    it.each([
      ['EUR', { accountType: 'EUR_ACCOUNT', iban: expect.stringMatching(/^DE[0-9]{20}$/), paymentRails: ['SEPA', 'SEPA_INSTANT'] }],
      ['BTC', { accountType: 'BITCOIN_L1', address: expect.stringMatching(/^bc1q/), network: 'BITCOIN' }],
      ['USDC', { accountType: 'SOLANA_WALLET', address: expect.any(String), assetType: 'USDC' }],
    ])('gives %s accounts the funding instructions of their rail', async (currency, info) => {
      const accounts = await accountsOf(await newCustomer(), 3);
      const account = accounts.find((a) => a.balance.currency.code === currency && a.type !== 'EMBEDDED_WALLET')!;
      expect(account.fundingPaymentInstructions[0].accountOrWalletInfo).toMatchObject(info);
    });

    it("marks the platform's own accounts' instructions as the platform's", async () => {
      const listed = await api.get('/platform/internal-accounts?currency=USD');
      expect(listed.body.data[0]).toMatchObject({ totalBalance: { amount: expect.any(Number) }, fundingPaymentInstructions: [{ isPlatformAccount: true }] });
    });

    it("gives a new customer a holding account per supported currency and an embedded wallet bound to the customer's email", async () => {
      const config = await api.get('/config');
      const currencies: string[] = config.body.supportedCurrencies.map((c: { currencyCode: string }) => c.currencyCode);
      const customerId = await newCustomer();
      const accounts = await accountsOf(customerId, currencies.length + 1);
      expect(accounts).toHaveLength(currencies.length + 1);
      expect(accounts.map((a) => a.balance.currency.code).sort()).toEqual([...currencies, 'USDC'].sort());
      for (const account of accounts) {
        expect(account).toEqual({
          id: expect.stringMatching(/^InternalAccount:[0-9a-f-]{36}$/),
          customerId,
          type: expect.any(String),
          status: 'ACTIVE',
          balance: { amount: 0, currency: { code: expect.any(String), name: expect.any(String), symbol: expect.any(String), decimals: expect.any(Number) } },
          totalBalance: { amount: 0, currency: account.balance.currency },
          fundingPaymentInstructions: [expect.objectContaining({ isPlatformAccount: false, accountOrWalletInfo: expect.objectContaining({ accountType: expect.any(String) }) })],
          privateEnabled: false,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
      }
      expect(accounts.find((a) => a.balance.currency.code === 'USD')!.balance.currency).toEqual({ code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 });
      expect(accounts.find((a) => a.balance.currency.code === 'BTC')!.type).toBe('INTERNAL_CRYPTO');
      const wallet = accounts.find((a) => a.type === 'EMBEDDED_WALLET')!;
      expect(wallet.balance.currency).toEqual({ code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 });

      // Other services see the wallet's email; the API never shows it.
      const record = await send<{ walletEmail?: string }>(PAYMENTS_SUBJECTS.getInternalAccount, { accountId: wallet.id });
      expect(record.walletEmail).toBe('ada@example.com');
      const fetched = await api.get(`/internal-accounts/${wallet.id}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(wallet);

      // Provisioning announces the customer's accounts in one event, not one per account.
      const events = await eventually(async () => {
        const received = await send<Array<{ subject: string }>>(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: customerId });
        return received.some((e) => e.subject === 'payments.events.customer-accounts.provisioned') ? received : undefined;
      });
      expect(events.filter((e) => e.subject.startsWith('payments.')).map((e) => e.subject)).toEqual(['payments.events.customer-accounts.provisioned']);
      expect(await send<unknown[]>(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: wallet.id })).toEqual([]);
    });

    it('provisions no embedded wallet for a customer without an email until one is given, and provisions each account once', async () => {
      const customerId = await newCustomer({ email: undefined });
      const accounts = await accountsOf(customerId, 1);
      // READY: every account the customer is owed is written (in one statement), so a count now is final.
      await provisioned(api, customerId);
      const again = await accountsOf(customerId, accounts.length);
      expect(again).toHaveLength(accounts.length);
      expect(again.some((a) => a.type === 'EMBEDDED_WALLET')).toBe(false);

      // The first email brings the embedded wallet, bound to it.
      const updated = await api.patch(`/customers/${customerId}`, { customerType: 'INDIVIDUAL', email: 'Grace@Example.com' });
      expect(updated.status).toBe(200);
      const wallet = await eventually(async () => (await accountsOf(customerId, accounts.length)).find((a) => a.type === 'EMBEDDED_WALLET'));
      const record = await send<{ walletEmail?: string }>(PAYMENTS_SUBJECTS.getInternalAccount, { accountId: wallet.id });
      expect(record.walletEmail).toBe('grace@example.com');
    });

    it('provisions no embedded wallet on a platform that turned them off with PATCH /config; the default platform still gets one', async () => {
      const other = await t.newPlatform();
      expect((await other.api.get('/config')).body.embeddedWalletsEnabled).toBe(true);
      const patched = await other.api.patch('/config', { embeddedWalletsEnabled: false });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ embeddedWalletsEnabled: false, supportedCurrencies: expect.any(Array), webhookPublicKey: expect.any(String) });
      expect((await other.api.get('/config')).body.embeddedWalletsEnabled).toBe(false);
      const currencies: number = patched.body.supportedCurrencies.length;

      const created = await other.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
      expect(created.status).toBe(201);
      const holdings = async () => (await other.api.get(`/customers/internal-accounts?customerId=${created.body.id}&limit=100`)).body.data as InternalAccount[];
      await eventually(async () => ((await holdings()).length >= currencies ? true : undefined));
      await provisioned(other.api, created.body.id);
      const accounts = await holdings();
      expect(accounts).toHaveLength(currencies);
      expect(accounts.some((a) => a.type === 'EMBEDDED_WALLET')).toBe(false);

      const mine = await accountsOf(await newCustomer(), currencies + 1);
      expect(mine.filter((a) => a.type === 'EMBEDDED_WALLET')).toHaveLength(1);

      // Turned back on, the customer's next update brings its wallet.
      expect((await other.api.patch('/config', { embeddedWalletsEnabled: true })).body.embeddedWalletsEnabled).toBe(true);
      expect((await other.api.patch(`/customers/${created.body.id}`, { customerType: 'INDIVIDUAL', email: 'ada.l@example.com' })).status).toBe(200);
      await eventually(async () => (await holdings()).find((a) => a.type === 'EMBEDDED_WALLET'));
    });

    it.each([
      ['a string', 'no'],
      ['null', null],
    ])('refuses embeddedWalletsEnabled as %s with 400 INVALID_INPUT, changing nothing', async (_, value) => {
      const other = await t.newPlatform();
      const response = await other.api.patch('/config', { embeddedWalletsEnabled: value });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'embeddedWalletsEnabled' })] } });
      expect((await other.api.get('/config')).body.embeddedWalletsEnabled).toBe(true);
    });

    it('filters by currency and type and pages with a cursor, newest first', async () => {
      const customerId = await newCustomer();
      const all = await accountsOf(customerId, 9);
      const usd = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD`);
      expect(usd.body.data.map((a: InternalAccount) => a.balance.currency.code)).toEqual(['USD']);
      const wallets = await api.get(`/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`);
      expect(wallets.body.data).toHaveLength(1);
      expect(wallets.body.totalCount).toBe(1);

      // totalCount counts every page of the filter, whichever page is asked for.
      const first = await api.get(`/customers/internal-accounts?customerId=${customerId}&limit=4`);
      expect(first.body).toMatchObject({ hasMore: true, nextCursor: expect.any(String), totalCount: all.length });
      const second = await api.get(`/customers/internal-accounts?customerId=${customerId}&limit=100&cursor=${first.body.nextCursor}`);
      expect(second.body.totalCount).toBe(all.length);
      const ids = [...first.body.data, ...second.body.data].map((a: InternalAccount) => a.id);
      expect(ids).toEqual(all.map((a) => a.id));
      expect([...ids].sort().reverse()).toEqual(ids);
      expect(second.body.hasMore).toBe(false);
    });

    it("lists the platform's own accounts, one per supported currency", async () => {
      const listed = await api.get('/platform/internal-accounts?limit=100');
      expect(listed.status).toBe(200);
      const config = await api.get('/config');
      expect(listed.body.data).toHaveLength(config.body.supportedCurrencies.length);
      expect(listed.body.totalCount).toBe(config.body.supportedCurrencies.length);
      for (const account of listed.body.data) expect(account.customerId).toBeUndefined();
      const again = await api.get('/platform/internal-accounts?limit=100');
      expect(again.body.data.map((a: InternalAccount) => a.id)).toEqual(listed.body.data.map((a: InternalAccount) => a.id));
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['type=SAVINGS', 'type'],
      ['color=blue', 'color'],
    ])('refuses the query %s with 400 INVALID_INPUT naming %s', async (query, field) => {
      const response = await api.get(`/customers/internal-accounts?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      expect(response.body.details.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    // The reference types both filters as free strings: a value no account has matches nothing.
    it.each(['currency=usd', 'customerId=Customer:nope', 'customerId=user-42'])('answers the query %s with an empty page', async (query) => {
      const response = await api.get(`/customers/internal-accounts?${query}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ data: [], hasMore: false, totalCount: 0 });
    });

    it("answers another platform's account exactly like an unknown one", async () => {
      const account = await usdAccount();
      const other = await t.newPlatform();
      for (const id of [account.id, 'InternalAccount:00000000-0000-7000-8000-000000000000']) {
        const response = await other.api.get(`/internal-accounts/${id}`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
        const funded = await other.api.post(`/sandbox/internal-accounts/${id}/fund`, { amount: 100 });
        expect(funded.status).toBe(404);
      }
      const listed = await other.api.get(`/customers/internal-accounts?customerId=${account.customerId}`);
      expect(listed.body.data).toEqual([]);
    });
  });

  describe('sandbox funding', () => {
    it('credits the account instantly and returns it', async () => {
      const account = await usdAccount();
      const funded = await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 125050 });
      expect(funded.status).toBe(200);
      expect(funded.body).toMatchObject({ id: account.id, balance: { amount: 125050, currency: { code: 'USD' } } });
      await fund(account.id, 50);
      expect(await balanceOf(account.id)).toBe(125100);
    });

    it.each([
      ['zero', 0],
      ['a negative amount', -5],
      ['a fraction', 1.5],
      ['a string', '100'],
      ['an unsafe integer', 2 ** 60],
    ])('refuses %s with 400 INVALID_INPUT and changes nothing', async (_, amount) => {
      const account = await usdAccount();
      const response = await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount });
      expect(response.status).toBe(400);
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field: 'amount', constraint: { format: 'int64', exclusiveMinimum: 0 } })]);
      expect(await balanceOf(account.id)).toBe(0);
    });

    it('refuses a credit that would take the balance past the largest amount, with 400 INVALID_AMOUNT, and changes nothing', async () => {
      const account = await usdAccount();
      await fund(account.id, Number.MAX_SAFE_INTEGER - 10);
      const response = await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 11 });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'INVALID_AMOUNT', details: { reason: 'BALANCE_LIMIT' } });
      expect(await balanceOf(account.id)).toBe(Number.MAX_SAFE_INTEGER - 10);
      await fund(account.id, 10);
      expect(await balanceOf(account.id)).toBe(Number.MAX_SAFE_INTEGER);
    });

    it('is refused to a production token', async () => {
      const account = await usdAccount();
      const production = await t.newPlatform('production');
      const response = await production.api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 100 });
      expect(response.status).toBe(403);
    });
  });

  describe('holds (the cards funding interface)', () => {
    it('holds, then captures below the hold: the rest comes back', async () => {
      const account = await usdAccount();
      await fund(account.id, 10_000);
      const hold = await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: 'auth-1', accountId: account.id, amount: 4_000, currency: 'USD' });
      expect(hold).toMatchObject({ id: expect.stringMatching(/^Hold:/), status: 'PENDING', amount: 4_000, availableBalance: 6_000 });
      expect(await balanceOf(account.id)).toBe(6_000);
      const captured = await send<Hold>(PAYMENTS_SUBJECTS.captureHold, { callerKey: 'clear-1', holdId: hold.id, amount: 3_000 });
      expect(captured).toMatchObject({ status: 'CAPTURED', capturedAmount: 3_000, availableBalance: 7_000 });
      expect(await balanceOf(account.id)).toBe(7_000);
    });

    it('captures above the hold when the excess is available, and refuses it (changing nothing) when it is not', async () => {
      const account = await usdAccount();
      await fund(account.id, 10_000);
      const hold = await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: 'auth-2', accountId: account.id, amount: 4_000, currency: 'USD' });
      const tooMuch = await refusalOf(send(PAYMENTS_SUBJECTS.captureHold, { callerKey: 'clear-2a', holdId: hold.id, amount: 10_001 }));
      expect(tooMuch).toMatchObject({ code: 'INVALID_AMOUNT', details: { reason: 'INSUFFICIENT_FUNDS' } });
      expect(await balanceOf(account.id)).toBe(6_000);
      const captured = await send<Hold>(PAYMENTS_SUBJECTS.captureHold, { callerKey: 'clear-2b', holdId: hold.id, amount: 10_000 });
      expect(captured).toMatchObject({ status: 'CAPTURED', capturedAmount: 10_000, availableBalance: 0 });
    });

    it('releases a hold exactly once; a resolved hold cannot be captured', async () => {
      const account = await usdAccount();
      await fund(account.id, 1_000);
      const hold = await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: 'auth-3', accountId: account.id, amount: 600, currency: 'USD' });
      const released = await send<Hold>(PAYMENTS_SUBJECTS.releaseHold, { callerKey: 'void-3', holdId: hold.id });
      expect(released).toMatchObject({ status: 'RELEASED', availableBalance: 1_000 });
      const replay = await send<Hold>(PAYMENTS_SUBJECTS.releaseHold, { callerKey: 'void-3', holdId: hold.id });
      expect(replay).toMatchObject({ status: 'RELEASED', availableBalance: 1_000 });
      expect((await refusalOf(send(PAYMENTS_SUBJECTS.releaseHold, { callerKey: 'void-3b', holdId: hold.id }))).code).toBe('INVALID_STATE_TRANSITION');
      expect((await refusalOf(send(PAYMENTS_SUBJECTS.captureHold, { callerKey: 'clear-3', holdId: hold.id, amount: 600 }))).code).toBe('INVALID_STATE_TRANSITION');
      expect(await balanceOf(account.id)).toBe(1_000);
    });

    it('refunds a captured hold in parts, never beyond the captured amount', async () => {
      const account = await usdAccount();
      await fund(account.id, 5_000);
      const hold = await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: 'auth-4', accountId: account.id, amount: 5_000, currency: 'USD' });
      await send(PAYMENTS_SUBJECTS.captureHold, { callerKey: 'clear-4', holdId: hold.id, amount: 5_000 });
      const partial = await send<Hold>(PAYMENTS_SUBJECTS.createRefund, { callerKey: 'return-4a', holdId: hold.id, amount: 2_000 });
      expect(partial).toMatchObject({ refundedAmount: 2_000, availableBalance: 2_000 });
      const replay = await send<Hold>(PAYMENTS_SUBJECTS.createRefund, { callerKey: 'return-4a', holdId: hold.id, amount: 2_000 });
      expect(replay.refundedAmount).toBe(2_000);
      expect((await refusalOf(send(PAYMENTS_SUBJECTS.createRefund, { callerKey: 'return-4a', holdId: hold.id, amount: 1 }))).code).toBe('CONFLICT');
      expect((await refusalOf(send(PAYMENTS_SUBJECTS.createRefund, { callerKey: 'return-4b', holdId: hold.id, amount: 3_001 }))).code).toBe('AMOUNT_OUT_OF_RANGE');
      await send(PAYMENTS_SUBJECTS.createRefund, { callerKey: 'return-4c', holdId: hold.id, amount: 3_000 });
      expect(await balanceOf(account.id)).toBe(5_000);
    });

    it('credits an account once per caller key', async () => {
      const account = await usdAccount();
      const body = { callerKey: 'credit-1', accountId: account.id, amount: 1_500, currency: 'USD', reference: 'CardTransaction:x' };
      const first = await send<{ id: string; availableBalance: number }>(PAYMENTS_SUBJECTS.createCredit, body);
      expect(first).toMatchObject({ id: expect.stringMatching(/^Credit:/), amount: 1_500, availableBalance: 1_500, reference: 'CardTransaction:x' });
      const again = await send<{ id: string }>(PAYMENTS_SUBJECTS.createCredit, body);
      expect(again.id).toBe(first.id);
      expect((await refusalOf(send(PAYMENTS_SUBJECTS.createCredit, { ...body, amount: 1 }))).code).toBe('CONFLICT');
      expect(await balanceOf(account.id)).toBe(1_500);
    });

    it('answers a repeated hold key with the first hold, and refuses it for another hold', async () => {
      const account = await usdAccount();
      await fund(account.id, 1_000);
      const first = await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: 'auth-5', accountId: account.id, amount: 700, currency: 'USD' });
      const again = await send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: 'auth-5', accountId: account.id, amount: 700, currency: 'USD' });
      expect(again.id).toBe(first.id);
      expect(await balanceOf(account.id)).toBe(300);
      expect((await refusalOf(send(PAYMENTS_SUBJECTS.createHold, { callerKey: 'auth-5', accountId: account.id, amount: 100, currency: 'USD' }))).code).toBe('CONFLICT');
    });

    it.each([
      ['more than is available', { amount: 1_001, currency: 'USD' }, 'INVALID_AMOUNT'],
      ['another currency', { amount: 10, currency: 'EUR' }, 'INVALID_CURRENCY'],
    ])('refuses a hold of %s and changes nothing', async (_, body, code) => {
      const account = await usdAccount();
      await fund(account.id, 1_000);
      const error = await refusalOf(send(PAYMENTS_SUBJECTS.createHold, { callerKey: `refused-${code}`, accountId: account.id, ...body }));
      expect(error.code).toBe(code);
      expect(await balanceOf(account.id)).toBe(1_000);
    });

    it('lets exactly 100 of 200 concurrent debits through on an account funded for 100, leaving zero', async () => {
      const account = await usdAccount();
      await fund(account.id, 100 * 250);
      const attempts = Array.from({ length: 200 }, (_, i) =>
        send<Hold>(PAYMENTS_SUBJECTS.createHold, { callerKey: `race-${i}`, accountId: account.id, amount: 250, currency: 'USD' })
          .then((hold) => send<Hold>(PAYMENTS_SUBJECTS.captureHold, { callerKey: `race-${i}-capture`, holdId: hold.id, amount: 250 }))
          .then(
            () => 'ok',
            (error: ServiceError) => error.code,
          ),
      );
      const outcomes = await Promise.all(attempts);
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(100);
      expect(outcomes.filter((o) => o === 'INVALID_AMOUNT')).toHaveLength(100);
      expect(await balanceOf(account.id)).toBe(0);
    });
  });

  it('documents the endpoints in the OpenAPI output', async () => {
    const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
    expect(document.paths['/customers/internal-accounts'].get).toBeDefined();
    expect(document.paths['/platform/internal-accounts'].get).toBeDefined();
    expect(document.paths['/internal-accounts/{accountId}'].get).toBeDefined();
    expect(document.paths['/sandbox/internal-accounts/{accountId}/fund'].post).toBeDefined();
    expect(document.components.schemas.InternalAccountResponseDto.properties.balance).toBeDefined();
  });
});
