import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, PAYMENTS_SUBJECTS } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { mxnExternalAccountBody, usdExternalAccountBody } from '../support/payments-fixtures';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/**
 * The platform's daily volume limit per currency (the reference's 429 DAILY_VOLUME_LIMIT_EXCEEDED
 * on POST /transfer-out, POST /quotes with immediatelyExecute and POST /quotes/{id}/execute): under
 * it a payment passes, over it 429 naming the limit and what is left with nothing moved, and the
 * next day of the platform's sandbox clock it passes again. A refused (4xx) request counts nothing.
 */
describe('Daily volume limits', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** A platform with a USD daily volume limit of 10,000 cents and a customer holding 1,000,000 cents, with a USD and an MXN payee. */
  async function platformWithLimit(): Promise<{ api: ApiClient; accountId: string; usdPayee: string; mxnPayee: string }> {
    const platform = await t.newPlatform();
    const ctx: CallerContext = { platformId: platform.platformId, environment: 'sandbox', requestId: 'volume-test' };
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
    await t.stack.runtime.client.request(PAYMENTS_SUBJECTS.setDailyVolumeLimit, { currency: 'USD', maxAmountPerDay: 10_000 }, ctx);
    const { api } = platform;
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      birthDate: '1990-04-12',
      nationality: 'GB',
      address: ADDRESS,
    });
    expect(created.status).toBe(201);
    const customerId = created.body.id as string;
    const accountId = await eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
    expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 1_000_000 })).status).toBe(200);
    const usd = await api.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('001') });
    const mxn = await api.post('/customers/external-accounts', { customerId, ...mxnExternalAccountBody('001') });
    expect([usd.status, mxn.status]).toEqual([201, 201]);
    return { api, accountId, usdPayee: usd.body.id, mxnPayee: mxn.body.id };
  }

  const balanceOf = async (api: ApiClient, accountId: string): Promise<number> => (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;

  type Send = (api: ApiClient, accountId: string, payees: { usdPayee: string; mxnPayee: string }, amount: number) => Promise<{ status: number; body: any }>;

  const quote = (api: ApiClient, accountId: string, payee: string, amount: number, immediatelyExecute: boolean) =>
    api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: payee },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      ...(immediatelyExecute ? { immediatelyExecute: true } : {}),
    });

  const routes: Array<[string, Send]> = [
    ['POST /transfer-out', (api, accountId, { usdPayee }, amount) => api.post('/transfer-out', { source: { accountId }, destination: { accountId: usdPayee }, amount })],
    ['POST /quotes with immediatelyExecute', (api, accountId, { mxnPayee }, amount) => quote(api, accountId, mxnPayee, amount, true)],
    [
      'POST /quotes/{id}/execute',
      async (api, accountId, { mxnPayee }, amount) => {
        const created = await quote(api, accountId, mxnPayee, amount, false);
        expect(created.status).toBe(201);
        return api.post(`/quotes/${created.body.id}/execute`, undefined);
      },
    ],
  ];

  it.each(routes)('%s: under the limit passes, over it 429 with nothing moved, the next sandbox day passes again', async (_, send) => {
    const { api, accountId, usdPayee, mxnPayee } = await platformWithLimit();
    const payees = { usdPayee, mxnPayee };
    const first = await send(api, accountId, payees, 6_000);
    expect([200, 201]).toContain(first.status);
    const afterFirst = await balanceOf(api, accountId);
    expect(afterFirst).toBeLessThan(1_000_000);

    const over = await send(api, accountId, payees, 5_000);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({
      status: 429,
      code: 'DAILY_VOLUME_LIMIT_EXCEEDED',
      details: { limit: { currency: 'USD', maxAmountPerDay: 10_000, period: 'DAY' }, remainingVolume: 4_000 },
    });
    expect(await balanceOf(api, accountId)).toBe(afterFirst);

    // What is left still passes exactly.
    const rest = await send(api, accountId, payees, 4_000);
    expect([200, 201]).toContain(rest.status);
    const afterRest = await balanceOf(api, accountId);
    expect((await send(api, accountId, payees, 1_000)).status).toBe(429);

    await advanceClock(api, 24 * 60 * 60);
    const nextDay = await send(api, accountId, payees, 6_000);
    expect([200, 201]).toContain(nextDay.status);
    expect(await balanceOf(api, accountId)).toBeLessThan(afterRest);
  });

  it('a refused request counts nothing: a 400 leaves the whole volume, a 429 leaves what was left', async () => {
    const { api, accountId, usdPayee, mxnPayee } = await platformWithLimit();
    // Over the balance: refused (4xx other than 429), and the limit's room stays whole.
    const tooMuch = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: usdPayee }, amount: 2_000_000 });
    expect(tooMuch.status).toBeGreaterThanOrEqual(400);
    expect(tooMuch.status).toBeLessThan(500);
    expect(tooMuch.status).not.toBe(429);
    const invalid = await quote(api, accountId, mxnPayee, -5, true);
    expect(invalid.status).toBe(400);
    expect((await api.post('/transfer-out', { source: { accountId }, destination: { accountId: usdPayee }, amount: 10_000 })).status).toBe(201);
  });
});
