import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { DataSource } from 'typeorm';
import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, PLATFORM_CURRENCY_CODES, Transaction } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { mxnExternalAccountBody } from '../support/payments-fixtures';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { newClientKey, stamp, WalletAuthClient } from '../support/wallet-auth-client';
import { REFERENCE_DOCUMENT, referenceDocumentPresent } from '../reference-client/reference-types';

/**
 * What a quote's `paymentInstructions` carry, as the reference document defines them:
 * a REALTIME_FUNDING quote's bank or wallet details (every property its `accountOrWalletInfo`
 * variant requires, one row per currency the sandbox offers), and an EMBEDDED_WALLET quote's
 * `payloadToSign`, whose stamp in `Service-Wallet-Signature` executes the quote in one call
 * (`POST /quotes/{id}/execute`), beside the two-call signed retry.
 */

type Schema = { $ref?: string; required?: string[]; allOf?: Schema[] };
type Reference = {
  components: { schemas: Record<string, Schema & { properties?: { accountOrWalletInfo?: { discriminator?: { mapping: Record<string, string> } } } }> };
};

/** Every property a `PaymentInstructions.accountOrWalletInfo` variant requires, by `accountType`, from the reference document. */
function requiredByAccountType(): Map<string, string[]> {
  const document = load(readFileSync(REFERENCE_DOCUMENT, 'utf8')) as Reference;
  const schemas = document.components.schemas;
  const resolve = (schema: Schema, into: Set<string>): Set<string> => {
    if (schema.$ref) return resolve(schemas[schema.$ref.split('/').pop()!], into);
    for (const name of schema.required ?? []) into.add(name);
    for (const part of schema.allOf ?? []) resolve(part, into);
    return into;
  };
  const mapping = schemas.PaymentInstructions.properties!.accountOrWalletInfo!.discriminator!.mapping;
  return new Map(Object.entries(mapping).map(([accountType, ref]) => [accountType, [...resolve({ $ref: ref }, new Set())].sort()]));
}

const present = referenceDocumentPresent();
if (!present) {
  process.stderr.write('\n!! SKIPPED the reference required-property checks of quote payment instructions: ../shared/reference/openapi.yaml is absent\n\n');
}
const itWithReference = present ? it : it.skip;

describe('Quote payment instructions', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;
  const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    ctx = { platformId: platform.platformId, environment: 'sandbox', requestId: 'quote-instructions-test' };
    // Regulated platforms' customers start APPROVED: they may move money at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function newCustomer(): Promise<string> {
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-04-12',
      email: 'ada@example.com',
      nationality: 'GB',
      address,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function internalAccount(customerId: string, currency: string): Promise<string> {
    return eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=${currency}`);
      return (listed.body.data as InternalAccount[] | undefined)?.find((account) => account.type !== 'EMBEDDED_WALLET')?.id;
    });
  }

  async function balanceOf(accountId: string): Promise<number> {
    return (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;
  }

  async function settled(transactionId: string): Promise<Transaction> {
    return eventually(async () => {
      const fetched = await api.get(`/transactions/${transactionId}`);
      return ['COMPLETED', 'FAILED'].includes(fetched.body.status) ? (fetched.body as Transaction) : undefined;
    }, 20_000);
  }

  /** How many journal entries a quote's execution wrote (0: nothing moved). */
  async function entriesOf(quoteId: string): Promise<number> {
    const [row] = await t.stack.services
      .get('payments')!
      .get(DataSource)
      .query<Array<{ count: string }>>(`SELECT count(*)::text AS count FROM journal_entry WHERE platform_id = $1 AND reference_id = $2`, [ctx.platformId, quoteId]);
    return Number(row.count);
  }

  describe('a REALTIME_FUNDING quote carries every property its accountOrWalletInfo variant requires', () => {
    const required = present ? requiredByAccountType() : new Map<string, string[]>();

    const rows: Array<[string, string, string | undefined]> = [
      ...PLATFORM_CURRENCY_CODES.map((currency): [string, string, undefined] => [currency, currency, undefined]),
      ...['SOLANA', 'BASE', 'ETHEREUM', 'POLYGON', 'TRON', 'PLASMA'].map((network): [string, string, string] => [`USDC on ${network}`, 'USDC', network]),
    ];

    itWithReference.each(rows)('%s', async (_, currency, cryptoNetwork) => {
      const customerId = await newCustomer();
      // Paid into the customer's own account in the same currency: every currency has that corridor.
      const destination = await internalAccount(customerId, currency);
      const created = await api.post('/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency, customerId, ...(cryptoNetwork ? { cryptoNetwork } : {}) },
        destination: { destinationType: 'ACCOUNT', accountId: destination },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      });
      expect([created.status, created.body.code]).toEqual([201, undefined]);
      const instructions = created.body.paymentInstructions as Array<{ accountOrWalletInfo: Record<string, unknown> }>;
      expect(instructions).toHaveLength(1);
      const info = instructions[0].accountOrWalletInfo;
      if (cryptoNetwork) expect(info.accountType).toBe(`${cryptoNetwork}_WALLET`);
      const properties = required.get(String(info.accountType));
      expect([info.accountType, properties === undefined]).toEqual([info.accountType, false]);
      const missing = properties!.filter((name) => info[name] === undefined || info[name] === null || info[name] === '');
      expect({ accountType: info.accountType, missing }).toEqual({ accountType: info.accountType, missing: [] });
      // The details are the quote's: they stay the same on every read while it waits for its funds.
      expect((await api.get(`/quotes/${created.body.id}`)).body.paymentInstructions).toEqual(instructions);
    });
  });

  describe('an EMBEDDED_WALLET quote carries payloadToSign, and one signed execute call executes it', () => {
    let wallets: WalletAuthClient;

    beforeAll(() => {
      wallets = new WalletAuthClient(api);
    });

    /** A wallet with a session, funded with 20 USDC, and an MXN beneficiary of its customer. */
    async function walletPayer(funds = 20_000_000) {
      const wallet = await wallets.createWallet('one-call');
      const session = await wallets.otpLogin(wallet.emailCredentialId);
      // The fields moving money requires, which the wallet helper's customer leaves out.
      expect((await api.patch(`/customers/${wallet.customerId}`, { customerType: 'INDIVIDUAL', birthDate: '1990-04-12', nationality: 'GB', address })).status).toBe(200);
      if (funds > 0) expect((await api.post(`/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: funds })).status).toBe(200);
      const payee = await api.post('/customers/external-accounts', { customerId: wallet.customerId, ...mxnExternalAccountBody('001') });
      expect(payee.status).toBe(201);
      return { wallet, session, payeeId: payee.body.id as string };
    }

    async function walletQuote(accountId: string, payeeId: string, amount = 10_000_000) {
      const created = await api.post('/quotes', {
        source: { sourceType: 'ACCOUNT', accountId },
        destination: { destinationType: 'ACCOUNT', accountId: payeeId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
      });
      expect([created.status, created.body.code]).toEqual([201, undefined]);
      const info = created.body.paymentInstructions?.[0]?.accountOrWalletInfo;
      return { quote: created.body, payloadToSign: info?.payloadToSign as string };
    }

    it('answers payloadToSign bound to the quote id, amount and currency, expiring with the quote; the one-call execute completes the withdrawal', async () => {
      const { wallet, session, payeeId } = await walletPayer();
      const { quote, payloadToSign } = await walletQuote(wallet.accountId, payeeId);
      expect(quote.paymentInstructions).toEqual([
        { instructionsNotes: expect.any(String), isPlatformAccount: false, accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign: expect.any(String) } },
      ]);
      expect(JSON.parse(payloadToSign)).toMatchObject({
        operation: 'QUOTE_EXECUTE',
        accountId: wallet.accountId,
        parameters: { quoteId: quote.id, amount: '10000000', currency: 'USDC' },
        expiresAt: quote.expiresAt,
      });
      if (present) {
        const required = requiredByAccountType().get('EMBEDDED_WALLET')!;
        expect(required.filter((name) => quote.paymentInstructions[0].accountOrWalletInfo[name] === undefined)).toEqual([]);
      }
      expect((await api.get(`/quotes/${quote.id}`)).body.paymentInstructions).toEqual(quote.paymentInstructions);

      const executed = await api.post(`/quotes/${quote.id}/execute`, {}, { headers: { 'service-wallet-signature': await stamp(payloadToSign, session.key) } });
      expect([executed.status, executed.body.code]).toEqual([200, undefined]);
      expect(executed.body).toMatchObject({ id: quote.id, status: 'PROCESSING' });
      expect(executed.body.paymentInstructions).toBeUndefined();
      expect(await balanceOf(wallet.accountId)).toBe(10_000_000);
      expect((await settled(quote.transactionId)).status).toBe('COMPLETED');
      expect(await balanceOf(wallet.accountId)).toBe(10_000_000);
    });

    it('answers 401 to a missing, malformed or wrong signature, moving nothing; the right one then executes', async () => {
      const { wallet, session, payeeId } = await walletPayer();
      const { quote, payloadToSign } = await walletQuote(wallet.accountId, payeeId);
      const other = await walletQuote(wallet.accountId, payeeId, 5_000_000);
      const requestId = JSON.parse(payloadToSign).requestId as string;
      const refusals: Array<[string, Record<string, string>, string]> = [
        ['the Request-Id without a signature', { 'request-id': requestId }, 'WALLET_SIGNATURE_MISSING'],
        ['an empty signature', { 'service-wallet-signature': '' }, 'WALLET_SIGNATURE_MISSING'],
        ['a malformed signature', { 'service-wallet-signature': 'not-a-stamp' }, 'WALLET_SIGNATURE_MALFORMED'],
        ['a key that is no session of the wallet', { 'service-wallet-signature': await stamp(payloadToSign, newClientKey()) }, 'WALLET_SIGNATURE_INVALID'],
        ["a stamp over another quote's payload", { 'service-wallet-signature': await stamp(other.payloadToSign, session.key) }, 'WALLET_SIGNATURE_INVALID'],
      ];
      for (const [why, headers, code] of refusals) {
        const refused = await api.post(`/quotes/${quote.id}/execute`, {}, { headers });
        expect([why, refused.status, refused.body.code]).toEqual([why, 401, code]);
      }
      expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING');
      expect(await balanceOf(wallet.accountId)).toBe(20_000_000);
      expect(await entriesOf(quote.id)).toBe(0);

      // A failed check consumed nothing: the quote's own signature still executes it.
      const executed = await api.post(`/quotes/${quote.id}/execute`, {}, { headers: { 'service-wallet-signature': await stamp(payloadToSign, session.key) } });
      expect([executed.status, executed.body.status]).toEqual([200, 'PROCESSING']);
      expect(await balanceOf(wallet.accountId)).toBe(10_000_000);
    });

    it('refuses a replay of the same signature, on the same quote or another, and moves the money once', async () => {
      const { wallet, session, payeeId } = await walletPayer(30_000_000);
      const { quote, payloadToSign } = await walletQuote(wallet.accountId, payeeId);
      const other = await walletQuote(wallet.accountId, payeeId);
      const headers = { 'service-wallet-signature': await stamp(payloadToSign, session.key) };
      expect((await api.post(`/quotes/${quote.id}/execute`, {}, { headers })).status).toBe(200);
      const again = await api.post(`/quotes/${quote.id}/execute`, {}, { headers });
      expect([again.status, again.body.code]).toEqual([409, 'INVALID_STATE_TRANSITION']);
      const elsewhere = await api.post(`/quotes/${other.quote.id}/execute`, {}, { headers });
      expect([elsewhere.status, elsewhere.body.code]).toEqual([401, 'WALLET_SIGNATURE_INVALID']);
      // The challenge itself is spent: echoing its Request-Id with the same stamp is refused too.
      const echoed = await api.post(`/quotes/${quote.id}/execute`, {}, { headers: { ...headers, 'request-id': JSON.parse(payloadToSign).requestId } });
      expect(echoed.status).toBe(409);
      await settled(quote.transactionId);
      expect(await balanceOf(wallet.accountId)).toBe(20_000_000);
      expect(await entriesOf(other.quote.id)).toBe(0);
    });

    it('spends the challenge when the execution it signed is refused: the same signature cannot execute later', async () => {
      const { wallet, session, payeeId } = await walletPayer(5_000_000);
      const { quote, payloadToSign } = await walletQuote(wallet.accountId, payeeId);
      const headers = { 'service-wallet-signature': await stamp(payloadToSign, session.key) };
      const short = await api.post(`/quotes/${quote.id}/execute`, {}, { headers });
      expect(short.status).toBeGreaterThanOrEqual(400);
      expect(short.status).toBeLessThan(500);
      expect(await entriesOf(quote.id)).toBe(0);
      expect((await api.post(`/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: 10_000_000 })).status).toBe(200);
      const replayed = await api.post(`/quotes/${quote.id}/execute`, {}, { headers });
      expect([replayed.status, replayed.body.code]).toEqual([401, 'UNAUTHORIZED']);
      expect(await balanceOf(wallet.accountId)).toBe(15_000_000);
      // The two-call form still executes it, with a fresh challenge.
      const signed = await wallets.signed('POST', `/quotes/${quote.id}/execute`, {}, session.key);
      expect([signed.status, signed.body.status]).toEqual([200, 'PROCESSING']);
      expect(await balanceOf(wallet.accountId)).toBe(5_000_000);
    });

    it('lets the challenge expire with the quote: a signature after expiresAt answers 409 QUOTE_EXPIRED and moves nothing', async () => {
      const { wallet, session, payeeId } = await walletPayer();
      const { quote, payloadToSign } = await walletQuote(wallet.accountId, payeeId);
      await advanceClock(api, (Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)) / 1000 + 1);
      const late = await api.post(`/quotes/${quote.id}/execute`, {}, { headers: { 'service-wallet-signature': await stamp(payloadToSign, session.key) } });
      expect([late.status, late.body.code, late.body.details?.reason]).toEqual([409, 'CONFLICT', 'QUOTE_EXPIRED']);
      expect(await balanceOf(wallet.accountId)).toBe(20_000_000);
      expect(await entriesOf(quote.id)).toBe(0);
    });

    it('keeps the two-call form: no signature answers 202 with a challenge of its own, and the signed retry executes', async () => {
      const { wallet, session, payeeId } = await walletPayer();
      const { quote, payloadToSign } = await walletQuote(wallet.accountId, payeeId);
      const first = await api.post(`/quotes/${quote.id}/execute`, {});
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ payloadToSign: expect.stringContaining('QUOTE_EXECUTE'), requestId: expect.any(String) });
      expect(first.body.requestId).not.toBe(JSON.parse(payloadToSign).requestId);
      expect(await balanceOf(wallet.accountId)).toBe(20_000_000);
      const retried = await api.post(
        `/quotes/${quote.id}/execute`,
        {},
        {
          headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, session.key), 'request-id': first.body.requestId },
        },
      );
      expect([retried.status, retried.body.status]).toEqual([200, 'PROCESSING']);
      expect(await balanceOf(wallet.accountId)).toBe(10_000_000);
      expect((await settled(quote.transactionId)).status).toBe('COMPLETED');
    });
  });
});
