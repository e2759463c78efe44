/**
 * Strong Customer Authentication through HTTP: who is subject to it, factors (TOTP, passkey),
 * login and its session, quotes that wait for their challenges (PENDING_AUTHORIZATION, dynamic
 * linking, expiry, resend), trusted beneficiaries, the login lock and 2FA resets; the ledger
 * checked wherever money could move.
 * @distributed wallet-auth.sca-* subjects (gateway, payments and external-accounts to wallet-auth), the payments.quote.authorization-expire job
 */
import { base32Decode, totpCode } from '../../apps/wallet-auth/src/crypto/totp';
import { CredentialsService } from '../../apps/gateway/src/auth/credentials.service';
import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, Quote, Transaction, WALLET_AUTH_SCA_SUBJECTS, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SoftwareAuthenticator } from '../../libs/testing/src/software-authenticator';
import { ApiClient } from '../support/api-client';
import { ledgerOf as ledgerOfReference } from '../support/ledger';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { RP_ID, RP_ORIGIN } from '../support/wallet-auth-client';

const BERLIN = { line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE' };
const SPRINGFIELD = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const SANDBOX_CODE = '123456';

describe('Strong Customer Authentication', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;
  let platformId: string;
  let ibanCounter = 0;

  beforeAll(async () => {
    t = await startTestStack({ env: { WALLET_AUTH_RP_ID: RP_ID, WALLET_AUTH_RP_ORIGINS: RP_ORIGIN } });
    const platform = await t.newPlatform();
    api = platform.api;
    platformId = platform.platformId;
    ctx = { platformId, environment: 'sandbox', requestId: 'sca-test' };
    // Regulated platforms' customers start APPROVED: they may move money at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function newCustomer(address = BERLIN, client = api): Promise<string> {
    const created = await client.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      birthDate: '1990-04-12',
      email: 'ada@example.com',
      phoneNumber: '+4915123456789',
      nationality: 'DE',
      address,
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function fundedUsdAccount(customerId: string, amount = 50_000): Promise<string> {
    const accountId = await eventually(async () => {
      const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
    expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount })).status).toBe(200);
    return accountId;
  }

  async function eurPayee(customerId: string): Promise<string> {
    // Distinct IBANs (same check digits scheme is not validated beyond format in the sandbox table).
    ibanCounter += 1;
    const created = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'EUR',
      platformAccountId: `sca-eur-${ibanCounter}-${Date.now()}`,
      accountInfo: {
        accountType: 'EUR_ACCOUNT',
        iban: 'DE89370400440532013000',
        swiftCode: 'COBADEFFXXX',
        bankName: 'Commerzbank',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Hans Weber', address: BERLIN },
      },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }

  async function login(customerId: string): Promise<void> {
    const started = await api.post(`/sca/login/start?customerId=${customerId}`, { factor: 'SMS_OTP' });
    expect(started.status).toBe(200);
    const completed = await api.post(`/sca/login/complete?customerId=${customerId}`, {
      factor: 'SMS_OTP',
      challengeId: started.body.challengeId,
      code: SANDBOX_CODE,
      endUserIpAddress: '203.0.113.42',
    });
    expect(completed.status).toBe(200);
  }

  async function executedQuote(accountId: string, payeeId: string, amount = 10_000): Promise<Quote> {
    const created = await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    });
    expect(created.status).toBe(201);
    const executed = await api.post(`/quotes/${created.body.id}/execute`, {});
    expect(executed.status).toBe(200);
    return executed.body as Quote;
  }

  async function webhookTypes(resourceId: string, count: number): Promise<string[]> {
    return eventually(async () => {
      const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId }, ctx);
      return received.length >= count ? received.map((event) => event.webhookType ?? '') : undefined;
    }, 30_000);
  }

  /** The platform's sandbox time (tests before may have advanced it). */
  const platformNow = async () => Date.parse((await api.get('/sandbox/clock')).body.now as string);
  const balanceOf = async (accountId: string) => (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount as number;
  const ledgerOf = (quoteId: string) => ledgerOfReference(t, platformId, quoteId);

  describe('a regulated customer (an address in the EEA)', () => {
    it('enrolls TOTP, logs in, and pays USD to EUR once both challenges are authorized; a changed payment is refused', async () => {
      const customerId = await newCustomer();
      expect((await api.get(`/sca/factors?customerId=${customerId}`)).body).toEqual({ factors: [{ factor: 'SMS_OTP', name: 'Verified phone' }] });

      const enrollment = await api.post(`/sca/factors?customerId=${customerId}`, { type: 'TOTP' });
      expect(enrollment.status).toBe(200);
      expect(enrollment.body).toMatchObject({ type: 'TOTP', secret: expect.stringMatching(/^[0-9a-f]{40}$/), secretBase32Encoded: expect.stringMatching(/^[A-Z2-7]{32}$/) });
      expect(enrollment.body.totpUri).toContain(`secret=${enrollment.body.secretBase32Encoded}`);
      const wrong = await api.post(`/sca/factors/confirm?customerId=${customerId}`, { type: 'TOTP', secret: enrollment.body.secret, code: '000000' });
      expect(wrong.status).toBe(400);
      const confirmed = await api.post(`/sca/factors/confirm?customerId=${customerId}`, { type: 'TOTP', secret: enrollment.body.secret, code: SANDBOX_CODE });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.recoveryCodes).toHaveLength(8);
      expect((await api.get(`/sca/factors?customerId=${customerId}`)).body.factors.map((f: { factor: string }) => f.factor)).toEqual(['SMS_OTP', 'TOTP']);

      const accountId = await fundedUsdAccount(customerId);
      const payeeId = await eurPayee(customerId);
      const quote = await executedQuote(accountId, payeeId);
      // Nothing moves yet: the conversion's challenge comes first, then the payout's.
      expect(quote.status).toBe('PENDING_AUTHORIZATION');
      expect(quote.scaChallenge).toMatchObject({ factor: 'SMS_OTP', availableFactors: ['SMS_OTP'], purpose: 'CURRENCY_CONVERSION' });
      expect(await balanceOf(accountId)).toBe(50_000);
      expect(await ledgerOf(quote.id)).toEqual({});
      expect((await api.post(`/quotes/${quote.id}/execute`, {})).status).toBe(409);

      const noSession = await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE });
      expect(noSession.status).toBe(409);
      expect(noSession.body.code).toBe('SCA_SESSION_REQUIRED');

      // TOTP login: a 180-day session.
      expect((await api.post(`/sca/login/start?customerId=${customerId}`, { factor: 'TOTP' })).body).toEqual({ factor: 'TOTP' });
      const session = await api.post(`/sca/login/complete?customerId=${customerId}`, { factor: 'TOTP', code: SANDBOX_CODE, endUserIpAddress: '203.0.113.42' });
      expect(session.status).toBe(200);
      expect(session.body.status).toBe('SUCCESS');
      const days = (Date.parse(session.body.sessionExpiresAt) - (await platformNow())) / 86_400_000;
      expect(days).toBeGreaterThan(179);
      expect(days).toBeLessThan(181);

      const badCode = await api.post(`/quotes/${quote.id}/authorize`, { code: '000000' });
      expect([badCode.status, badCode.body]).toEqual([400, expect.anything()]);
      expect(badCode.body.details).toMatchObject({ reason: 'INVALID_CODE', attemptsRemaining: 4 });

      const first = await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE, endUserIpAddress: '203.0.113.42' });
      expect(first.status).toBe(200);
      expect(first.body.status).toBe('PENDING_AUTHORIZATION');
      expect(first.body.scaChallenge.purpose).toBe('PAYOUT');
      expect(first.body.scaChallenge.id).not.toBe(quote.scaChallenge!.id);
      expect(await balanceOf(accountId)).toBe(50_000);

      const second = await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE });
      expect(second.status).toBe(200);
      expect(second.body.status).toBe('PROCESSING');
      expect(second.body.scaChallenge).toBeUndefined();
      await advanceClock(api, 400);
      const final = await eventually(async () => {
        const fetched = await api.get(`/transactions/${quote.transactionId}`);
        return fetched.body.status === 'COMPLETED' ? (fetched.body as Transaction) : undefined;
      }, 20_000);
      expect(final).toMatchObject({ quoteId: quote.id, sentAmount: { amount: 10_000, currency: { code: 'USD' } } });
      expect(await balanceOf(accountId)).toBe(40_000);
      const ledger = await ledgerOf(quote.id);
      expect(ledger.USD).toMatchObject({ HOLDING: -10_000 });
      expect(Object.keys(ledger).sort()).toEqual(['EUR', 'USD']);
      expect(await webhookTypes(quote.transactionId, 5)).toEqual([
        'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
        'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
        'OUTGOING_PAYMENT.PENDING',
        'OUTGOING_PAYMENT.PROCESSING',
        'OUTGOING_PAYMENT.COMPLETED',
      ]);
      expect((await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE })).status).toBe(409);

      // Dynamic linking: a challenge answers for its payment only. Another amount is another
      // challenge, and a proof of the first binding is refused for it (wallet-auth checks the
      // binding the owner presents against the one it issued the challenge for).
      const changed = await executedQuote(accountId, payeeId, 12_000);
      expect(changed.status).toBe('PENDING_AUTHORIZATION');
      const refused = await t.stack.runtime.client
        .request(
          WALLET_AUTH_SCA_SUBJECTS.verifyChallenge,
          { customerId, challengeId: changed.scaChallenge!.id, binding: { amount: '10000', currency: 'USD', payee: payeeId }, code: SANDBOX_CODE },
          ctx,
        )
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ServiceError);
      expect((refused as ServiceError).details).toMatchObject({ reason: 'DYNAMIC_LINKING_MISMATCH' });
      // The changed challenge is invalidated: nothing of the second payment moves.
      expect((await api.post(`/quotes/${changed.id}/authorize`, { code: SANDBOX_CODE })).status).toBe(429);
      expect(await balanceOf(accountId)).toBe(40_000);
      expect(await ledgerOf(changed.id)).toEqual({});
    });

    it('binds a passkey challenge to its payment: an assertion for one amount does not authorize another', async () => {
      const customerId = await newCustomer();
      const authenticator = new SoftwareAuthenticator();
      const started = await api.post(`/sca/factors?customerId=${customerId}`, { type: 'PASSKEY' });
      expect(started.body).toMatchObject({ type: 'PASSKEY', relyingPartyId: RP_ID });
      const registration = authenticator.createRegistration({ rpId: RP_ID, origin: RP_ORIGIN, challenge: started.body.options.challenge });
      const confirmed = await api.post(`/sca/factors/confirm?customerId=${customerId}`, { type: 'PASSKEY', origin: RP_ORIGIN, credential: registration });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.factor).toMatchObject({ factor: 'PASSKEY', credentialId: authenticator.credentialId });
      const again = await api.post(`/sca/factors?customerId=${customerId}`, { type: 'PASSKEY' });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('PASSKEY_ALREADY_ENROLLED');
      await login(customerId);

      const accountId = await fundedUsdAccount(customerId);
      const payeeId = await eurPayee(customerId);
      const first = await executedQuote(accountId, payeeId, 10_000);
      const second = await executedQuote(accountId, payeeId, 11_000);
      expect(first.scaChallenge).toMatchObject({ factor: 'PASSKEY', availableFactors: ['SMS_OTP', 'PASSKEY'] });
      const signedForFirst = authenticator.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: String(first.scaChallenge!.passkeyAssertionOptions!.challenge) });
      const refused = await api.post(`/quotes/${second.id}/authorize`, { passkeyAssertion: signedForFirst, origin: RP_ORIGIN });
      expect(refused.status).toBe(400);
      expect((await api.get(`/quotes/${second.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
      const accepted = await api.post(`/quotes/${first.id}/authorize`, { passkeyAssertion: signedForFirst, origin: RP_ORIGIN });
      expect(accepted.status).toBe(200);
      expect(accepted.body.scaChallenge.purpose).toBe('PAYOUT');
      expect(await balanceOf(accountId)).toBe(50_000);
      // Resend is for SMS codes only.
      expect((await api.post(`/quotes/${first.id}/authorize/resend`)).status).toBe(409);

      expect((await api.delete(`/sca/factors/${authenticator.credentialId}?customerId=${customerId}`)).status).toBe(204);
      expect((await api.delete(`/sca/factors/${authenticator.credentialId}?customerId=${customerId}`)).status).toBe(404);
    });

    it('fails a quote whose challenge expires unanswered (SCA_NOT_COMPLETED), nothing moved; resend keeps the expiry', async () => {
      const customerId = await newCustomer();
      await login(customerId);
      const accountId = await fundedUsdAccount(customerId);
      const quote = await executedQuote(accountId, await eurPayee(customerId));
      // A code goes out at most every 30 seconds (the challenge's own counts).
      expect((await api.post(`/quotes/${quote.id}/authorize/resend`)).status).toBe(429);
      await advanceClock(api, 31);
      expect((await api.post(`/quotes/${quote.id}/authorize/resend`)).status).toBe(204);
      const tooSoon = await api.post(`/quotes/${quote.id}/authorize/resend`);
      expect(tooSoon.status).toBe(429);
      expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await api.get(`/quotes/${quote.id}`)).body.scaChallenge.expiresAt).toBe(quote.scaChallenge!.expiresAt);
      // Five wrong codes invalidate the challenge.
      for (let attempt = 0; attempt < 5; attempt++) expect((await api.post(`/quotes/${quote.id}/authorize`, { code: '000000' })).status).toBe(400);
      const limited = await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeTruthy();

      await advanceClock(api, 270);
      const failed = await eventually(async () => {
        const fetched = await api.get(`/quotes/${quote.id}`);
        return fetched.body.status === 'FAILED' ? fetched.body : undefined;
      });
      expect(failed.failureReason).toBe('SCA_NOT_COMPLETED');
      expect(failed.scaChallenge).toBeUndefined();
      expect(await balanceOf(accountId)).toBe(50_000);
      expect(await ledgerOf(quote.id)).toEqual({});
      expect(await webhookTypes(quote.transactionId, 2)).toEqual(['OUTGOING_PAYMENT.PENDING_AUTHORIZATION', 'OUTGOING_PAYMENT.FAILED']);
      expect((await api.get(`/transactions/${quote.transactionId}`)).status).toBe(404);
    });

    it('withholds the payment instructions of a real-time funded quote until it is authorized', async () => {
      const customerId = await newCustomer();
      await fundedUsdAccount(customerId, 1);
      await login(customerId);
      const created = await api.post('/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', customerId, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: await eurPayee(customerId) },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 10_000,
      });
      expect(created.status).toBe(201);
      expect(created.body.status).toBe('PENDING_AUTHORIZATION');
      expect(created.body.scaChallenge.purpose).toBe('FUNDING');
      expect(created.body.paymentInstructions).toBeUndefined();
      const authorized = await api.post(`/quotes/${created.body.id}/authorize`, { code: SANDBOX_CODE });
      expect(authorized.status).toBe(200);
      expect(authorized.body.status).toBe('PENDING');
      expect(authorized.body.paymentInstructions).toHaveLength(1);
    });

    it('trusts a beneficiary (SCA-confirmed): its payouts skip their challenge, and it cannot be deleted until untrusted', async () => {
      const customerId = await newCustomer();
      await login(customerId);
      const accountId = await fundedUsdAccount(customerId);
      const payeeId = await eurPayee(customerId);
      const started = await api.post(`/customers/external-accounts/${payeeId}/trust`);
      expect(started.status).toBe(200);
      expect(started.body.scaChallenge).toMatchObject({ factor: 'SMS_OTP', purpose: 'BENEFICIARY_TRUST' });
      expect((await api.post(`/customers/external-accounts/${payeeId}/trust/confirm`, { challengeId: started.body.scaChallenge.id, code: '000000' })).status).toBe(400);
      const trusted = await api.post(`/customers/external-accounts/${payeeId}/trust/confirm`, { challengeId: started.body.scaChallenge.id, code: SANDBOX_CODE });
      expect(trusted.body).toEqual({ trusted: true });
      const deleted = await api.delete(`/customers/external-accounts/${payeeId}`);
      expect(deleted.status).toBe(409);
      expect(deleted.body.code).toBe('BENEFICIARY_TRUSTED');

      // The conversion still needs its challenge; the payout to a trusted beneficiary does not.
      const quote = await executedQuote(accountId, payeeId);
      expect(quote.scaChallenge!.purpose).toBe('CURRENCY_CONVERSION');
      const authorized = await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE });
      expect(authorized.body.status).toBe('PROCESSING');
      expect(await balanceOf(accountId)).toBe(40_000);
      expect((await ledgerOf(quote.id)).USD).toMatchObject({ HOLDING: -10_000 });

      const untrust = await api.post(`/customers/external-accounts/${payeeId}/untrust`);
      expect(untrust.body.scaChallenge.purpose).toBe('BENEFICIARY_UNTRUST');
      expect((await api.post(`/customers/external-accounts/${payeeId}/untrust/confirm`, { code: SANDBOX_CODE })).body).toEqual({ trusted: false });
      expect((await api.delete(`/customers/external-accounts/${payeeId}`)).status).toBe(200);
    });

    it('locks the login after failed attempts (15 minutes, then 30), and a password reset revokes sessions and clears the count', async () => {
      const customerId = await newCustomer();
      await login(customerId);
      const record = (eventType: string) => api.post(`/sca/record-event?customerId=${customerId}`, { eventType });
      for (let attempt = 1; attempt < 5; attempt++)
        expect((await record('FAILED_LOGIN_ATTEMPT')).body).toMatchObject({ failedAttempts: attempt, suspended: false, lockedUntil: null });
      const locked = await record('FAILED_LOGIN_ATTEMPT');
      expect(locked.body).toMatchObject({ eventType: 'FAILED_LOGIN_ATTEMPT', failedAttempts: 5, suspended: false });
      const lockMinutes = (Date.parse(locked.body.lockedUntil) - (await platformNow())) / 60_000;
      expect(lockMinutes).toBeGreaterThan(14);
      expect(lockMinutes).toBeLessThanOrEqual(15.1);
      const refused = await api.post(`/sca/login/start?customerId=${customerId}`, { factor: 'SMS_OTP' });
      expect(refused.status).toBe(423);
      expect(refused.body).toMatchObject({ code: 'ACCOUNT_LOCKED', details: { lockedUntil: locked.body.lockedUntil, suspended: false } });
      expect((await record('FAILED_LOGIN_ATTEMPT')).status).toBe(423);

      await advanceClock(api, 15 * 60 + 1);
      for (let attempt = 6; attempt < 10; attempt++) expect((await record('FAILED_LOGIN_ATTEMPT')).status).toBe(200);
      const second = await record('FAILED_LOGIN_ATTEMPT');
      const secondMinutes = (Date.parse(second.body.lockedUntil) - Date.parse(locked.body.lockedUntil)) / 60_000;
      // The second lock lasts 30 minutes from the tenth attempt (just after the first ended).
      expect(secondMinutes).toBeGreaterThan(29.9);
      expect(secondMinutes).toBeLessThan(30.1);

      const cleared = await record('RESET_PASSWORD_COMPLETED');
      expect(cleared.body).toEqual({ eventType: 'RESET_PASSWORD_COMPLETED', suspended: false, lockedUntil: null, failedAttempts: 0 });
      // The session is gone: a payment's authorization needs a new login.
      const quote = await executedQuote(await fundedUsdAccount(customerId), await eurPayee(customerId));
      expect((await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE })).body.code).toBe('SCA_SESSION_REQUIRED');
    });

    it('resets a lost TOTP factor once liveness has passed (sandbox driver), at most 5 resets a day', async () => {
      const customerId = await newCustomer();
      const enrollment = await api.post(`/sca/factors?customerId=${customerId}`, { type: 'TOTP' });
      await api.post(`/sca/factors/confirm?customerId=${customerId}`, { type: 'TOTP', secret: enrollment.body.secret, code: SANDBOX_CODE });
      const started = await api.post(`/sca/factors/reset?customerId=${customerId}`, { factor: 'TOTP' });
      expect(started.status).toBe(201);
      const resetId = started.body.resetId as string;
      const status = () => api.get(`/sca/factors/reset/${resetId}?customerId=${customerId}`);
      expect((await status()).body).toMatchObject({ status: 'INITIATED', factor: 'TOTP', completedAt: null });
      const early = await api.post(`/sca/factors/reset/${resetId}/complete?customerId=${customerId}`);
      expect(early.status).toBe(400);
      expect(early.body.details.reason).toBe('RESET_NOT_READY');
      expect((await api.post(`/sandbox/sca/factors/reset/${resetId}/liveness?customerId=${customerId}`, { outcome: 'PENDING_REVIEW' })).body.status).toBe('PENDING_REVIEW');
      expect((await api.post(`/sandbox/sca/factors/reset/${resetId}/liveness?customerId=${customerId}`, { outcome: 'LIVENESS_PASSED' })).body.status).toBe('LIVENESS_PASSED');
      expect((await api.post(`/sca/factors/reset/${resetId}/complete?customerId=${customerId}`)).status).toBe(204);
      expect((await status()).body).toMatchObject({ status: 'COMPLETED', enrollmentStatus: 'PENDING', completedAt: expect.any(String) });
      expect((await api.get(`/sca/factors?customerId=${customerId}`)).body.factors.map((f: { factor: string }) => f.factor)).toEqual(['SMS_OTP']);

      for (let count = 2; count <= 5; count++) expect((await api.post(`/sca/factors/reset?customerId=${customerId}`, { factor: 'SMS_OTP' })).status).toBe(201);
      const sixth = await api.post(`/sca/factors/reset?customerId=${customerId}`, { factor: 'SMS_OTP' });
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('production tokens', () => {
    it('take no sandbox code: a TOTP factor is enrolled and logs in with the RFC 6238 code of its secret, each code once', async () => {
      const issued = await t.stack.http.get(CredentialsService).issueToken(platformId, 'production', 'sca test');
      const production = t.api.withCredentials({ tokenId: issued.tokenId, secret: issued.secret });
      const customerId = await newCustomer(BERLIN, production);
      const enrollment = await production.post(`/sca/factors?customerId=${customerId}`, { type: 'TOTP' });
      expect(enrollment.status).toBe(200);
      const secret = base32Decode(enrollment.body.secretBase32Encoded as string);
      // The production tenant's clock is real time (no test clock moves it).
      const now = () => new Date();
      const code = totpCode(secret, now());
      const sandboxCode = await production.post(`/sca/factors/confirm?customerId=${customerId}`, {
        type: 'TOTP',
        secret: enrollment.body.secret,
        code: code === SANDBOX_CODE ? '654321' : SANDBOX_CODE,
      });
      expect(sandboxCode.status).toBe(400);
      const confirmed = await production.post(`/sca/factors/confirm?customerId=${customerId}`, { type: 'TOTP', secret: enrollment.body.secret, code });
      expect(confirmed.status).toBe(200);
      // Each time step's code is taken once: the code that confirmed the factor cannot log in.
      const replayed = await production.post(`/sca/login/complete?customerId=${customerId}`, { factor: 'TOTP', code, endUserIpAddress: '203.0.113.42' });
      expect(replayed.status).toBe(400);
      // The next step's code is within the accepted drift (one step either side).
      const nextStep = totpCode(secret, new Date(now().getTime() + 30_000));
      const login = await production.post(`/sca/login/complete?customerId=${customerId}`, { factor: 'TOTP', code: nextStep, endUserIpAddress: '203.0.113.42' });
      expect(login.status).toBe(200);
      expect(login.body.status).toBe('SUCCESS');
    });
  });

  describe('a customer outside the EEA', () => {
    it('answers 409 on every SCA route, and its quotes execute as before', async () => {
      const customerId = await newCustomer(SPRINGFIELD);
      for (const [method, path, body] of [
        ['get', `/sca/factors?customerId=${customerId}`, undefined],
        ['post', `/sca/factors?customerId=${customerId}`, { type: 'TOTP' }],
        ['post', `/sca/login/start?customerId=${customerId}`, { factor: 'SMS_OTP' }],
        ['post', `/sca/record-event?customerId=${customerId}`, { eventType: 'FAILED_LOGIN_ATTEMPT' }],
        ['post', `/sca/factors/reset?customerId=${customerId}`, { factor: 'SMS_OTP' }],
      ] as const) {
        const answer = method === 'get' ? await api.get(path) : await api.post(path, body);
        expect([path, answer.status, answer.body.details?.reason]).toEqual([path, 409, 'SCA_NOT_REQUIRED']);
      }
      const accountId = await fundedUsdAccount(customerId);
      const payeeId = await eurPayee(customerId);
      expect((await api.post(`/customers/external-accounts/${payeeId}/trust`)).status).toBe(409);
      const quote = await executedQuote(accountId, payeeId);
      expect(quote.status).toBe('PROCESSING');
      expect(quote.scaChallenge).toBeUndefined();
      expect((await api.post(`/quotes/${quote.id}/authorize`, { code: SANDBOX_CODE })).status).toBe(409);
      expect((await ledgerOf(quote.id)).USD).toMatchObject({ HOLDING: -10_000 });
      expect((await api.get('/sca/factors?customerId=Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69')).status).toBe(404);
    });
  });
});
