import { randomInt } from 'node:crypto';
import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, PAYMENTS_SUBJECTS, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

/**
 * Balances and pending transfers survive a restart of the whole stack: a hold stays held, and
 * a transfer accepted before the stop settles afterwards on the durable scheduler, moving the
 * money once and announcing each status once.
 */
describe('Payments across a restart', () => {
  it('keeps holds and finishes an accepted transfer after the stack restarts', async () => {
    // Slow enough that the 005 transfer is still pending when the stack stops (~3 s to fail).
    const first = await startTestStack({ env: { SANDBOX_TIME_SCALE: '0.1' } });
    let second: TestStack | undefined;
    try {
      const platform = await first.newPlatform();
      const ctx: CallerContext = { platformId: platform.platformId, environment: 'sandbox', requestId: 'payments-restart' };
      await first.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
      const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
      const customer = await platform.api.post('/customers', {
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        email: 'ada@example.com',
        birthDate: '1990-04-12',
        nationality: 'GB',
        address,
      });
      const accountId = await eventually(async () => {
        const listed = await platform.api.get(`/customers/internal-accounts?customerId=${customer.body.id}&currency=USD&type=INTERNAL_FIAT`);
        return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
      });
      expect((await platform.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 10_000 })).status).toBe(200);
      const hold = await first.stack.runtime.client.request(PAYMENTS_SUBJECTS.createHold, { callerKey: 'restart-hold', accountId, amount: 1_000, currency: 'USD' }, ctx);
      const external = await platform.api.post('/customers/external-accounts', {
        customerId: customer.body.id,
        currency: 'USD',
        platformAccountId: `restart-${randomInt(1e9)}`,
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: `${randomInt(100_000, 999_999)}005`,
          routingNumber: '021000021',
          bankAccountType: 'CHECKING',
          bankName: 'JPMorgan Chase Bank',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address },
        },
      });
      expect(external.status).toBe(201);
      const transfer = await platform.api.post('/transfer-out', { source: { accountId }, destination: { accountId: external.body.id }, amount: 2_500 });
      expect(transfer.body.status).toBe('PENDING');
      await first.stop({ keepData: true });

      second = await startTestStack({ reuse: first, env: { SANDBOX_TIME_SCALE: '0.1' } });
      const api = second.api.withCredentials(platform.credentials);
      const settled = await eventually(async () => {
        const fetched = await api.get(`/transactions/${transfer.body.id}`);
        return fetched.body.status === 'FAILED' ? fetched.body : undefined;
      }, 20_000);
      expect(settled.failureReason).toBe('PAYOUT_RETURNED');
      // The transfer's amount came back; the card-style hold placed before the stop is still held.
      expect((await api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(9_000);
      const released = await second.stack.runtime.client.request(PAYMENTS_SUBJECTS.releaseHold, { callerKey: 'restart-release', holdId: hold.id }, ctx);
      expect(released.availableBalance).toBe(10_000);
      const events = await eventually(async () => {
        const received = await second!.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: transfer.body.id }, ctx);
        return received.length >= 3 ? received : undefined;
      }, 20_000);
      expect(events.map((e) => e.webhookType)).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.FAILED']);
    } finally {
      if (second) await second.stop();
      else await first.stop();
    }
  }, 90_000);
});
