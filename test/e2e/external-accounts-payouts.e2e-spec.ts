import { ed25519 } from '@noble/curves/ed25519';
import { CUSTOMERS_SUBJECTS, InternalAccount, Transaction, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { base58Encode } from '../../apps/external-accounts/src/external-accounts/wallet-signatures';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const person = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address, countryOfResidence: 'US' };

/** A Solana address (a real Ed25519 public key) whose last 3 characters are not a sandbox magic value. */
function solanaAddress(): string {
  for (;;) {
    const candidate = base58Encode(ed25519.getPublicKey(ed25519.utils.randomPrivateKey()));
    if (!/\d{3}$/.test(candidate)) return candidate;
  }
}

describe('Payouts to every rail kind: bank, mobile money, wallet', () => {
  let t: TestStack;
  let ctx: { platformId: string; environment: 'sandbox'; requestId: string };

  beforeAll(async () => {
    t = await startTestStack();
    const { CredentialsService } = await import('../../apps/gateway/src/auth/credentials.service');
    const platformId = (await t.stack.http.get(CredentialsService).listPlatforms())[0].id;
    ctx = { platformId, environment: 'sandbox', requestId: 'payouts-test' };
    // A regulated platform's customers are approved on creation: ready to send.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function internalAccount(customerId: string, currency: string, type: string): Promise<string> {
    return eventually(async () => {
      const listed = await t.api.get(`/customers/internal-accounts?customerId=${customerId}&currency=${currency}&type=${type}`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
  }

  it.each([
    ['bank (USD_ACCOUNT, ACH)', 'USD', 'INTERNAL_FIAT', { accountType: 'USD_ACCOUNT', accountNumber: '4400123555', routingNumber: '021000021', beneficiary: person }, undefined],
    ['mobile money (SLV_ACCOUNT phone)', 'USD', 'INTERNAL_FIAT', { accountType: 'SLV_ACCOUNT', phoneNumber: '+50370123555', beneficiary: person }, undefined],
    ['wallet (SOLANA_WALLET, USDC)', 'USDC', 'INTERNAL_CRYPTO', { accountType: 'SOLANA_WALLET', address: solanaAddress() }, 'SOLANA'],
  ])('%s: the payout completes, the ledger moves the exact amount, webhooks announce it', async (_, currency, type, accountInfo, network) => {
    const customer = await t.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      birthDate: '1990-04-12',
      nationality: 'GB',
      address,
    });
    expect(customer.status).toBe(201);
    const accountId = await internalAccount(customer.body.id, currency, type);
    expect((await t.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 10_000 })).status).toBe(200);
    const external = await t.api.post('/customers/external-accounts', { customerId: customer.body.id, currency, accountInfo });
    expect(external.status).toBe(201);
    expect(external.body.status).toBe('ACTIVE');

    const created = await t.api.post('/transfer-out', { source: { accountId }, destination: { accountId: external.body.id }, amount: 2_500 });
    expect(created.status).toBe(201);
    expect(created.body.destination).toEqual({
      destinationType: 'ACCOUNT',
      accountId: external.body.id,
      currency,
      ...(network ? { onChainTransaction: { network, transactionHash: expect.stringMatching(/^[0-9a-f]{64}$/) } } : {}),
    });
    const final = await eventually(async () => {
      const fetched = await t.api.get(`/transactions/${created.body.id}`);
      return fetched.body.status === 'COMPLETED' || fetched.body.status === 'FAILED' ? (fetched.body as Transaction) : undefined;
    });
    expect(final.status).toBe('COMPLETED');
    expect(final.destination).toEqual(created.body.destination);
    expect((await t.api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(7_500);
    const types = await eventually(async () => {
      const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: created.body.id }, ctx);
      return received.length >= 2 ? received.map((event) => event.webhookType) : undefined;
    }, 30_000);
    expect(types).toEqual(['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.COMPLETED']);
  });

  // Base58 addresses (Solana, Tron) have no digit 0, so the magic values are written on an EVM address.
  describe('transfer-out outcomes read the last 3 digits of each identifier kind (one test per row per kind)', () => {
    const KINDS = {
      'account number': (suffix: string) => ({
        currency: 'USD',
        type: 'INTERNAL_FIAT',
        accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: `44001${suffix}`, routingNumber: '021000021', beneficiary: person },
      }),
      IBAN: (suffix: string) => ({
        currency: 'EUR',
        type: 'INTERNAL_FIAT',
        accountInfo: { accountType: 'EUR_ACCOUNT', iban: `DE89370400440532013${suffix}`, beneficiary: person },
      }),
      phone: (suffix: string) => ({ currency: 'USD', type: 'INTERNAL_FIAT', accountInfo: { accountType: 'SLV_ACCOUNT', phoneNumber: `+50370123${suffix}`, beneficiary: person } }),
      'wallet address': (suffix: string) => ({ currency: 'USDC', type: 'INTERNAL_CRYPTO', accountInfo: { accountType: 'BASE_WALLET', address: `0x${'ab'.repeat(18)}a${suffix}` } }),
    } as const;
    const ROWS = [
      ['002', 'FAILED', 'LIMIT_EXCEEDED'],
      ['003', 'FAILED', 'ACCOUNT_INVALID'],
      ['004', 'FAILED', 'ACCOUNT_CANNOT_RECEIVE'],
      ['005', 'FAILED', 'PAYOUT_RETURNED'],
      ['777', 'COMPLETED', undefined],
    ] as const;
    const cases = (Object.keys(KINDS) as (keyof typeof KINDS)[]).flatMap((kind) => ROWS.map(([suffix, status, reason]) => [kind, suffix, status, reason] as const));

    it.each(cases)('%s ending %s: %s (%s)', async (kind, suffix, status, reason) => {
      const { currency, type, accountInfo } = KINDS[kind](suffix);
      const customer = await t.api.post('/customers', {
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        email: 'ada@example.com',
        birthDate: '1990-04-12',
        nationality: 'GB',
        address,
      });
      const accountId = await internalAccount(customer.body.id, currency, type);
      expect((await t.api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: 10_000 })).status).toBe(200);
      const external = await t.api.post('/customers/external-accounts', { customerId: customer.body.id, currency, accountInfo });
      expect(external.status).toBe(201);
      const created = await t.api.post('/transfer-out', { source: { accountId }, destination: { accountId: external.body.id }, amount: 1_000 });
      expect(created.status).toBe(201);
      const final = await eventually(async () => {
        const fetched = await t.api.get(`/transactions/${created.body.id}`);
        return fetched.body.status === 'COMPLETED' || fetched.body.status === 'FAILED' ? (fetched.body as Transaction) : undefined;
      });
      expect(final.status).toBe(status);
      expect(final.failureReason).toBe(reason);
      expect((await t.api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(status === 'COMPLETED' ? 9_000 : 10_000);
    });
  });
});
