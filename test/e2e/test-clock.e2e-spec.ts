import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { CUSTOMERS_SUBJECTS, InternalAccount, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { mxnExternalAccountBody, usdExternalAccountBody } from '../support/payments-fixtures';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { newClientKey, stamp, WalletAuthClient } from '../support/wallet-auth-client';

/**
 * Sandbox test clocks: GET /sandbox/clock and POST /sandbox/clock/advance. The stack runs at real
 * sandbox delays (SANDBOX_TIME_SCALE 1), so nothing delayed happens unless the test moves the
 * platform's clock: each row checks the outcome has not happened after half its delay and has
 * once the clock passed it. Nothing here waits on real time; `eventually` only waits for events
 * (webhooks, the card network's queue) to travel.
 */
describe('Sandbox test clocks', () => {
  let t: TestStack;
  let api: ApiClient;
  let platformId: string;
  let wallets: WalletAuthClient;
  const USDC = { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 };
  const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

  beforeAll(async () => {
    t = await startTestStack({ env: { SANDBOX_TIME_SCALE: '1' } });
    const platform = await t.newPlatform();
    api = platform.api;
    platformId = platform.platformId;
    // Regulated platforms' customers start APPROVED: they may hold cards and move money at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, { platformId, environment: 'sandbox', requestId: 'test-clock' });
    wallets = new WalletAuthClient(api);
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function advance(seconds: number, client: ApiClient = api): Promise<{ now: string; advancedSeconds: number }> {
    const response = await client.post('/sandbox/clock/advance', { seconds });
    expect(response.status).toBe(200);
    return response.body;
  }

  async function webhookTypes(resourceId: string, count: number): Promise<string[]> {
    return eventually(async () => {
      const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId }, { platformId, environment: 'sandbox', requestId: 'test-clock' });
      const types = received.flatMap((event) => (event.webhookType ? [event.webhookType] : []));
      return types.length >= count ? types : undefined;
    });
  }

  async function customer(): Promise<string> {
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      birthDate: '1990-04-12',
      nationality: 'GB',
      address,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function fundedUsdAccount(customerId: string): Promise<string> {
    const accountId = await eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
    expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 10_000 })).status).toBe(200);
    return accountId;
  }

  async function cardholder(): Promise<{ customerId: string; wallet: string }> {
    const wallet = await wallets.createWallet('clock');
    return { customerId: wallet.customerId, wallet: wallet.accountId };
  }

  /** Reads the state a delayed outcome changes. */
  type Read = () => Promise<string>;

  /** One delayed outcome: how to start it, when it is due (seconds of sandbox time), its state before and after. */
  const OUTCOMES: Array<[string, () => Promise<Read>, number, string, string]> = [
    [
      'card issuance (platformCardId suffix 005)',
      async () => {
        const holder = await cardholder();
        const created = await api.post('/cards', { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.wallet], platformCardId: 'clock-005' });
        expect(created.status).toBe(201);
        return async () => (await api.get(`/cards/${created.body.id}`)).body.state;
      },
      30,
      'PROCESSING',
      'ACTIVE',
    ],
    [
      'card authorization with descriptor suffix 005',
      async () => {
        const holder = await cardholder();
        const card = await api.post('/cards', { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.wallet], platformCardId: 'clock-900' });
        expect(card.body.state).toBe('ACTIVE');
        expect((await api.post(`/sandbox/internal-accounts/${holder.wallet}/fund`, { amount: 10_000_000 })).status).toBe(200);
        const authorized = await api.post(`/sandbox/cards/${card.body.id}/simulate/authorization`, {
          amount: 1_000_000,
          currency: USDC,
          merchant: { descriptor: 'SLOW SHOP 005', mcc: '5814', country: 'US' },
        });
        expect(authorized.status).toBe(202);
        return async () => (await api.get(`/card-transactions/${authorized.body.id}`)).body.status;
      },
      30,
      'PENDING',
      'CONFIRMED',
    ],
    [
      'external account name verification 104',
      async () => {
        const created = await api.post('/customers/external-accounts', { customerId: await customer(), ...usdExternalAccountBody('104') });
        expect(created.status).toBe(201);
        return async () => {
          const account = (await api.get(`/customers/external-accounts/${created.body.id}`)).body;
          return `${account.status}/${account.beneficiaryVerificationStatus}`;
        };
      },
      30,
      'PENDING/PENDING',
      'ACTIVE/MATCHED',
    ],
    [
      'transfer-out suffix 005 (PROCESSING after 1 s, FAILED after 30 s)',
      async () => {
        const customerId = await customer();
        const accountId = await fundedUsdAccount(customerId);
        const external = await api.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('005') });
        const created = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: external.body.id }, amount: 2_500 });
        expect(created.body.status).toBe('PENDING');
        return async () => (await api.get(`/transactions/${created.body.id}`)).body.status;
      },
      30,
      'PROCESSING',
      'FAILED',
    ],
    [
      'quote suffix 003 (completes after about 6 minutes)',
      async () => {
        const customerId = await customer();
        const accountId = await fundedUsdAccount(customerId);
        const payee = await api.post('/customers/external-accounts', { customerId, ...mxnExternalAccountBody('003') });
        const quote = await api.post('/quotes', {
          source: { sourceType: 'ACCOUNT', accountId },
          destination: { destinationType: 'ACCOUNT', accountId: payee.body.id },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 10_000,
        });
        expect((await api.post(`/quotes/${quote.body.id}/execute`, {})).body.status).toBe('PROCESSING');
        return async () => (await api.get(`/quotes/${quote.body.id}`)).body.status;
      },
      360,
      'PROCESSING',
      'COMPLETED',
    ],
    [
      'OTP expiry (10 minutes)',
      async () => {
        const wallet = await wallets.createWallet('clock-otp');
        const challenge = await api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {});
        expect(challenge.status).toBe(200);
        // A wrong code: each read counts an attempt but spends nothing, and the expiry is checked first.
        const bundle = await wallets.otpBundle(wallet.emailCredentialId, '111111', newClientKey(), String(challenge.body.otpEncryptionTargetBundle));
        return async () => {
          const answer = await api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: bundle });
          expect(answer.status).toBe(401);
          return answer.body.details?.reason === 'OTP has expired; request a new one' ? 'EXPIRED' : 'NOT EXPIRED';
        };
      },
      600,
      'NOT EXPIRED',
      'EXPIRED',
    ],
    [
      'signed-retry challenge expiry (5 minutes)',
      async () => {
        const wallet = await wallets.createWallet('clock-retry');
        const key = newClientKey();
        const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await wallets.otpBundle(wallet.emailCredentialId, '000000', key) };
        const first = await api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body);
        expect(first.status).toBe(202);
        const headers = { 'service-wallet-signature': await stamp(first.body.payloadToSign, key), 'request-id': first.body.requestId };
        // Reading consumes the challenge only when it succeeds, and it is read before the clock passes 5 minutes only with a wrong signature.
        const wrong = { 'service-wallet-signature': await stamp(first.body.payloadToSign, newClientKey()), 'request-id': first.body.requestId };
        let checks = 0;
        return async () => {
          checks += 1;
          const answer = await api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body, { headers: checks === 1 ? wrong : headers });
          return answer.body.details?.reason === 'signed-retry challenge has expired' ? 'EXPIRED' : 'NOT EXPIRED';
        };
      },
      300,
      'NOT EXPIRED',
      'EXPIRED',
    ],
    [
      'KYC link expiry (24 hours)',
      async () => {
        const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
        const link = await api.post(`/customers/${created.body.id}/kyc-link`, {});
        expect(link.status).toBe(201);
        const token = String(link.body.kycUrl).split('/').pop()!;
        return async () =>
          (await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.openKycLink, { token }, { platformId: 'hosted-kyc-page', environment: 'sandbox', requestId: 'test-clock' }))
            .state;
      },
      86_400,
      'ACTIVE',
      'EXPIRED',
    ],
  ];

  it.each(OUTCOMES)('%s: not before it is due, then once the clock passes it', async (_, start, dueSeconds, before, after) => {
    const read = await start();
    const half = Math.floor(dueSeconds / 2);
    await advance(half);
    expect(await read()).toBe(before);
    await advance(dueSeconds - half + 2);
    // Due jobs have run when the advance answers; what they hand on (the card network's queue) may still be travelling.
    expect(await eventually(async () => ((await read()) === after ? after : undefined))).toBe(after);
  });

  it('runs the outcomes an advance passes in due order, with their webhooks', async () => {
    const customerId = await customer();
    const accountId = await fundedUsdAccount(customerId);
    const external = await api.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('005') });
    const transfer = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: external.body.id }, amount: 100 });
    const verification = await api.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('104') });
    // One advance passes all three: PROCESSING (1 s), the verification (30 s) and FAILED (30 s after acceptance).
    await advance(3600);
    const transaction = (await api.get(`/transactions/${transfer.body.id}`)).body;
    expect(transaction.status).toBe('FAILED');
    expect((await api.get(`/customers/external-accounts/${verification.body.id}`)).body.status).toBe('ACTIVE');
    expect(await webhookTypes(transfer.body.id, 3)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED']);
    // Each step ran at its due time in the platform's time, so it settled 30 s (not an hour) after it began.
    expect(Date.parse(transaction.settledAt) - Date.parse(transfer.body.createdAt)).toBeLessThan(3_600_000);
    expect(Date.parse(transaction.settledAt) - Date.parse(transfer.body.createdAt)).toBeGreaterThanOrEqual(30_000);
  });

  describe('webhook retries', () => {
    let receiver: Server;
    const received: string[] = [];

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          received.push(JSON.parse(body).id);
          response.writeHead(received.length <= 3 ? 500 : 204).end('boom');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      receiver?.closeAllConnections();
      await new Promise((resolve) => receiver?.close(resolve));
    });

    // Moved here from webhooks.e2e-spec.ts, where it measured scaled real time and failed on a busy machine.
    it('retries a failing receiver with growing delays until it answers 2xx, recording every attempt', async () => {
      const platform = await t.newPlatform();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      expect((await platform.api.patch('/config', { webhookEndpoint: url })).status).toBe(200);
      const created = await platform.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
      const delivery = async (count: number): Promise<any> =>
        eventually(async () => {
          const list = await platform.api.get(`/webhooks/deliveries?resourceId=${created.body.id}`);
          const found = list.body.data?.[0];
          const detail = found ? (await platform.api.get(`/webhooks/deliveries/${found.id}`)).body : undefined;
          return detail && detail.attempts.length >= count ? detail : undefined;
        });
      expect(await delivery(1)).toMatchObject({ status: 'PENDING', attemptCount: 1 });
      // The n-th retry is due 1, 2, 4 minutes (each +-20 %) after the attempt before it: not before
      // the shortest delay, and once the clock passed the longest.
      for (const [attempt, nominal] of [
        [2, 60],
        [3, 120],
        [4, 240],
      ]) {
        await advance(nominal * 0.8 - 10, platform.api);
        expect((await delivery(attempt - 1)).attemptCount).toBe(attempt - 1);
        await advance(nominal * 0.4 + 12, platform.api);
        await delivery(attempt);
      }
      const done = await delivery(4);
      expect(done.attempts.map((a: any) => [a.number, a.statusCode, a.succeeded])).toEqual([
        [1, 500, false],
        [2, 500, false],
        [3, 500, false],
        [4, 204, true],
      ]);
      expect(done.attempts[0].error).toBe('Receiver answered HTTP 500');
      expect(done).toMatchObject({ status: 'SUCCEEDED', attemptCount: 4, lastStatusCode: 204, deliveredAt: expect.any(String) });
      expect(done).not.toHaveProperty('lastError');
      const at = done.attempts.map((a: any) => Date.parse(a.attemptedAt));
      const gaps = at.slice(1).map((time: number, i: number) => time - at[i]);
      expect(gaps[0]).toBeGreaterThanOrEqual(48_000);
      expect(gaps[1]).toBeGreaterThanOrEqual(96_000);
      expect(gaps[2]).toBeGreaterThanOrEqual(192_000);
      expect(new Set(received).size).toBe(1);
    });
  });

  it('reads the clock: real time plus what was advanced, per platform (advancing one platform leaves another where it was)', async () => {
    const other = await t.newPlatform();
    const before = (await other.api.get('/sandbox/clock')).body;
    expect(before.advancedSeconds).toBe(0);
    expect(Math.abs(Date.parse(before.now) - Date.now())).toBeLessThan(60_000);
    const mine = (await api.get('/sandbox/clock')).body;
    const advanced = await advance(7);
    expect(advanced.advancedSeconds).toBe(mine.advancedSeconds + 7);
    expect(Date.parse(advanced.now) - Date.now()).toBeGreaterThan(advanced.advancedSeconds * 1000 - 60_000);
    expect((await api.get('/sandbox/clock')).body.advancedSeconds).toBe(advanced.advancedSeconds);
    expect((await other.api.get('/sandbox/clock')).body.advancedSeconds).toBe(0);
    // The other platform's delayed outcomes stay where they were.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, { platformId: other.platformId, environment: 'sandbox', requestId: 'test-clock' });
    const holder = await new WalletAuthClient(other.api).createWallet('other');
    const card = await other.api.post('/cards', { cardholderId: holder.customerId, form: 'VIRTUAL', fundingSources: [holder.accountId], platformCardId: 'other-005' });
    expect(card.body.state).toBe('PROCESSING');
    await advance(3600);
    expect((await other.api.get(`/cards/${card.body.id}`)).body.state).toBe('PROCESSING');
  });

  it.each([
    [{}, 'seconds'],
    [{ seconds: 0 }, 'seconds'],
    [{ seconds: 1.5 }, 'seconds'],
    [{ seconds: '60' }, 'seconds'],
    [{ seconds: -5 }, 'seconds'],
    [{ seconds: 31_536_001 }, 'seconds'],
  ])('refuses %j with 400 INVALID_INPUT naming the field, and does not move the clock', async (body, field) => {
    const before = (await api.get('/sandbox/clock')).body.advancedSeconds;
    const response = await api.post('/sandbox/clock/advance', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: expect.any(String) });
    expect(response.body.details.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect((await api.get('/sandbox/clock')).body.advancedSeconds).toBe(before);
  });

  it('refuses a production token (403) and missing credentials (401)', async () => {
    const production = await t.newPlatform('production');
    expect((await production.api.get('/sandbox/clock')).status).toBe(403);
    expect((await production.api.post('/sandbox/clock/advance', { seconds: 10 })).status).toBe(403);
    const anonymous = await fetch(`${t.stack.url}/2025-10-13/sandbox/clock`);
    expect(anonymous.status).toBe(401);
  });

  it('does not exist on a production deployment (404)', async () => {
    // The webhooks service reads its own key from the process environment, and production requires one (payments its own, too).
    process.env.WEBHOOK_KEY_ENCRYPTION_KEY = randomBytes(32).toString('hex');
    const production = await startTestStack({
      env: { DEPLOYMENT_ENV: 'production', WEBHOOK_KEY_ENCRYPTION_KEY: process.env.WEBHOOK_KEY_ENCRYPTION_KEY, PAYMENTS_KEY_ENCRYPTION_KEY: '22'.repeat(32) },
    }).finally(() => delete process.env.WEBHOOK_KEY_ENCRYPTION_KEY);
    try {
      const platform = await production.newPlatform('production');
      for (const response of [await platform.api.get('/sandbox/clock'), await platform.api.post('/sandbox/clock/advance', { seconds: 10 })]) {
        expect(response.status).toBe(404);
      }
    } finally {
      await production.stop();
    }
    // It starts a stack of its own: as long as a spec's beforeAll may take.
  }, 120_000);
});
