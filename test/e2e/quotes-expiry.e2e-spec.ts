/**
 * @distributed payments: scheduled jobs (quote expiry) claimed on PostgreSQL
 */
import { CUSTOMERS_SUBJECTS, InternalAccount } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { fundedPayerWithMxnPayee } from '../support/payments-fixtures';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

/**
 * Deadlines: with a 1-second quote validity (QUOTE_VALIDITY_SECONDS) a quote reads EXPIRED once
 * its time is up and executing it fails clearly with nothing moved; with a 1-second approval
 * window (INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS) an undecided incoming payment is rejected.
 */
describe('Cross-currency payments: quote expiry and the approval deadline', () => {
  let t: TestStack;
  let api: ApiClient;

  beforeAll(async () => {
    t = await startTestStack({ env: { QUOTE_VALIDITY_SECONDS: '1', INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS: '1' } });
    const platform = await t.newPlatform();
    api = platform.api;
    await t.stack.runtime.client.request(
      CUSTOMERS_SUBJECTS.updateConfig,
      { regulated: true },
      { platformId: platform.platformId, environment: 'sandbox', requestId: 'quotes-expiry' },
    );
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('answers 409 with reason QUOTE_EXPIRED once the lock ran out, and moves nothing', async () => {
    const { accountId, payeeId } = await fundedPayerWithMxnPayee(api, 10_000);
    const created = await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect(created.status).toBe(201);
    expect(new Date(created.body.expiresAt).getTime() - new Date(created.body.createdAt).getTime()).toBe(1_000);
    await eventually(async () => ((await api.get(`/quotes/${created.body.id}`)).body.status === 'EXPIRED' ? true : undefined), 10_000);
    const refused = await api.post(`/quotes/${created.body.id}/execute`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'QUOTE_EXPIRED', expiresAt: created.body.expiresAt } });
    expect((await api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(10_000);
    expect((await api.get(`/transactions/${created.body.transactionId}`)).status).toBe(404);
  });

  it('rejects an incoming payment the platform did not decide on in time', async () => {
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
    const accountId = await eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
    const received = await api.post('/sandbox/uma/receive', {
      senderUmaAddress: '$success.usd@sandbox.uma.money',
      customerId: customer.body.id,
      receivingCurrencyCode: 'USD',
      receivingCurrencyAmount: 900,
    });
    expect(received.status).toBe(200);
    const failed = await eventually(async () => {
      const fetched = await api.get(`/transactions/${received.body.id}`);
      return fetched.body.status === 'FAILED' ? fetched.body : undefined;
    }, 15_000);
    expect(failed.failureReason).toBe('PAYMENT_APPROVAL_TIMED_OUT');
    const late = await api.post(`/transactions/${received.body.id}/approve`, {});
    expect([late.status, late.body.code]).toEqual([409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL']);
    expect((await api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(0);
  });
});
