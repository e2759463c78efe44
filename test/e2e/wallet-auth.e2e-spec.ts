/**
 * @distributed wallet-auth: signed retries through the gateway and NATS
 */
import { Writable } from 'node:stream';
import { createServer, Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type KeyLike } from 'jose';
import { oidcNonceForClientPublicKey } from '../../apps/wallet-auth/src/crypto/oidc-token';
import { OTP_SENDER, OtpSender } from '../../apps/wallet-auth/src/credentials/otp-sender';
import { DataSource } from 'typeorm';
import { canonicalRequestDigest } from '@paykit/contracts';
import { Clock, TransactionRunner } from '@paykit/persistence';
import { createRootLogger } from '@paykit/runtime';
import { WALLET_AUTH_CONFIG, WalletAuthConfig } from '../../apps/wallet-auth/src/config/wallet-auth-config';
import { SignedRetryRepository } from '../../apps/wallet-auth/src/signed-retry/signed-retry.repository';
import { SignedRetryService } from '../../apps/wallet-auth/src/signed-retry/signed-retry.service';
import { WalletExportService } from '../../apps/wallet-auth/src/accounts/wallet-export.service';
import { ServiceError } from '@paykit/errors';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { ClientKey, newClientKey, Session, stamp, Wallet, WalletAuthClient } from '../support/wallet-auth-client';

// Every log line of the stack lands here, so the test can prove no secret was ever logged.
const logLines: string[] = [];
createRootLogger({
  level: 'debug',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
});

const GOOGLE = 'https://accounts.google.com';
const LOOPBACK_ISSUER = 'https://issuer.loopback.test';
const AUDIENCE = 'paykit-wallet-client';
const SIGNED_RETRY_TTL_SECONDS = 2;
const OTP_TTL_SECONDS = 3;

/** A JWT shaped like an ID token; in the sandbox its signature may be a dummy. */
function dummySignedToken(claims: Record<string, unknown>): string {
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'dummy' })).toString('base64url');
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.ZHVtbXktc2lnbmF0dXJl`;
}

function idTokenClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return { iss: GOOGLE, aud: AUDIENCE, sub: `user-${Math.random().toString(36).slice(2)}`, email: 'grace@example.com', iat: now, exp: now + 600, ...overrides };
}

const secrets: string[] = [];
function remember(...values: Array<string | undefined>): void {
  for (const value of values) if (value) secrets.push(value);
}

describe('Embedded wallet authentication', () => {
  let t: TestStack;
  let client: WalletAuthClient;
  let jwks: Server;
  let issuerKey: KeyLike;

  beforeAll(async () => {
    // The non-sandbox OAuth path checks signatures against the issuer's JWKS: served here on loopback.
    const keyPair = await generateKeyPair('ES256');
    issuerKey = keyPair.privateKey;
    const publicJwk = { ...(await exportJWK(keyPair.publicKey)), kid: 'loopback-1', alg: 'ES256', use: 'sig' };
    jwks = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const port = (jwks.address() as { port: number }).port;
    t = await startTestStack({
      env: {
        WALLET_AUTH_OIDC_ISSUERS: `${GOOGLE}=http://127.0.0.1:${port}/google-unused,${LOOPBACK_ISSUER}=http://127.0.0.1:${port}/jwks`,
        WALLET_AUTH_RP_ID: 'localhost',
        WALLET_AUTH_RP_ORIGINS: 'http://localhost:5173',
        WALLET_AUTH_SIGNED_RETRY_TTL_SECONDS: String(SIGNED_RETRY_TTL_SECONDS),
        WALLET_AUTH_OTP_TTL_SECONDS: String(OTP_TTL_SECONDS),
      },
    });
    client = new WalletAuthClient(t.api);
  });

  afterAll(async () => {
    await t?.stop();
    await new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve()));
  });

  describe('accounts start with an EMAIL_OTP credential bound to the customer email', () => {
    it('lists it for the account, and nothing for another platform', async () => {
      const wallet = await client.createWallet('initial');
      const list = await t.api.get(`/auth/credentials?accountId=${wallet.accountId}`);
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        data: [
          { id: wallet.emailCredentialId, accountId: wallet.accountId, type: 'EMAIL_OTP', nickname: wallet.email, createdAt: expect.any(String), updatedAt: expect.any(String) },
        ],
      });
      const other = await t.newPlatform();
      expect((await other.api.get(`/auth/credentials?accountId=${wallet.accountId}`)).body).toEqual({ data: [] });
      const foreign = await other.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {});
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('REFERENCE_NOT_FOUND');
    });

    it('answers 400 with every invalid field of the list query', async () => {
      const response = await t.api.get('/auth/credentials?accountId=nope');
      expect(response.status).toBe(400);
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field: 'accountId', constraint: { pattern: expect.any(String) } })]);
    });
  });

  describe('EMAIL_OTP', () => {
    it('signs the target bundle with the published enclave key, low-S, fresh per challenge', async () => {
      const wallet = await client.createWallet('bundle');
      const enclave = await client.enclaveKey();
      const challenge = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {});
      expect(challenge.status).toBe(200);
      const bundle = JSON.parse(challenge.body.otpEncryptionTargetBundle);
      expect(bundle).toEqual({ version: 'v1.0.0', data: expect.stringMatching(/^[0-9a-f]+$/), dataSignature: expect.stringMatching(/^[0-9a-f]+$/), enclaveQuorumPublic: enclave });
      expect(JSON.parse(Buffer.from(bundle.data, 'hex').toString('utf8')).targetPublic).toMatch(/^04[0-9a-f]{128}$/);
      // The answer is the credential itself plus the target bundle, nothing more.
      expect(challenge.body).toEqual({
        id: wallet.emailCredentialId,
        accountId: wallet.accountId,
        type: 'EMAIL_OTP',
        nickname: wallet.email,
        otpEncryptionTargetBundle: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('completes challenge, encrypted code, 202 and the stamped retry into a session keyed by the client key', async () => {
      const wallet = await client.createWallet('otp');
      const key = newClientKey();
      const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await client.otpBundle(wallet.emailCredentialId, '000000', key) };
      const first = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body);
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ type: 'EMAIL_OTP', payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
      // The challenge is bound to the key that was inside the encrypted bundle.
      expect(JSON.parse(first.body.payloadToSign)).toMatchObject({ operation: 'OTP_VERIFY', accountId: wallet.accountId, publicKey: key.publicKey });
      const retry = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body, {
        headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, key), 'request-id': first.body.requestId },
      });
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual({
        id: expect.stringMatching(/^Session:/),
        authMethodId: wallet.emailCredentialId,
        accountId: wallet.accountId,
        type: 'EMAIL_OTP',
        nickname: wallet.email,
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(retry.body.encryptedSessionSigningKey).toBeUndefined();
      remember(key.privateKey);
      const sessions = await t.api.get(`/auth/sessions?accountId=${wallet.accountId}`);
      expect(sessions.body.data.map((s: any) => s.id)).toEqual([retry.body.id]);
    });

    it('refuses a key other than the one in the bundle on the retry', async () => {
      const wallet = await client.createWallet('otp-other-key');
      const key = newClientKey();
      const body = { type: 'EMAIL_OTP', encryptedOtpBundle: await client.otpBundle(wallet.emailCredentialId, '000000', key) };
      const first = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body);
      const retry = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body, {
        headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, newClientKey()), 'request-id': first.body.requestId },
      });
      expect(retry.status).toBe(401);
      expect(retry.body).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', details: { reason: expect.any(String) } });
    });

    it('answers a wrong code with 401 "Invalid OTP code" and bounds the attempts', async () => {
      const wallet = await client.createWallet('otp-wrong');
      const key = newClientKey();
      const bundle = await client.otpBundle(wallet.emailCredentialId, '123456', key);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const response = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: bundle });
        expect(response.status).toBe(401);
        expect(response.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', details: { reason: 'Invalid OTP code' } });
      }
      const exhausted = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: bundle });
      expect(exhausted.status).toBe(401);
      expect(exhausted.body.details.reason).toMatch(/attempts exhausted/);
    });

    it('refuses the right code once the OTP expired, with 401 and its reason', async () => {
      const wallet = await client.createWallet('otp-expired');
      const key = newClientKey();
      const challenge = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {});
      expect(challenge.status).toBe(200);
      const { encryptOtpCodeToBundle } = await import('@turnkey/crypto');
      const bundle = await encryptOtpCodeToBundle('000000', challenge.body.otpEncryptionTargetBundle, key.publicKey, await client.enclaveKey());
      // The platform's test clock passes the expiry: no waiting on real time.
      await advanceClock(t.api, OTP_TTL_SECONDS + 1);
      const late = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: bundle });
      expect(late.status).toBe(401);
      expect(late.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', details: { reason: 'OTP has expired; request a new one' } });
    });

    it('rate limits challenge re-issue with 429 and Retry-After', async () => {
      const wallet = await client.createWallet('otp-rate');
      expect((await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {})).status).toBe(200);
      const again = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {});
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(again.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    });

    it.each([
      ['not JSON', 'not-json'],
      ['JSON without a ciphertext', JSON.stringify({ encappedPublic: newClientKey().publicKeyUncompressed })],
    ])('answers an encryptedOtpBundle that is %s with 400 INVALID_INPUT', async (_label, encryptedOtpBundle) => {
      const wallet = await client.createWallet('otp-malformed');
      await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {});
      const response = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle });
      expect(response.status).toBe(400);
      expect(response.body.details.errors[0].field).toBe('encryptedOtpBundle');
    });

    it('answers a verify without a pending challenge with 401 and its reason', async () => {
      const wallet = await client.createWallet('otp-none');
      const response = await t.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: '{}' });
      expect(response.status).toBe(401);
      expect(response.body.details.reason).toMatch(/no pending OTP challenge/);
    });
  });

  describe('the signed retry', () => {
    let wallet: Wallet;
    let session: Session;
    const smsBody = () => ({ type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550123' });

    beforeAll(async () => {
      wallet = await client.createWallet('signed');
      session = await client.otpLogin(wallet.emailCredentialId);
    });

    async function challengeFor(body: unknown): Promise<{ payloadToSign: string; requestId: string }> {
      const first = await t.api.post('/auth/credentials', body);
      expect(first.status).toBe(202);
      return first.body;
    }

    it.each<[string, string, (c: { payloadToSign: string; requestId: string }, key: ClientKey) => Promise<Record<string, string>>, RegExp]>([
      ['Request-Id without a signature', 'WALLET_SIGNATURE_MISSING', async (c) => ({ 'request-id': c.requestId }), /Service-Wallet-Signature/],
      ['a signature without Request-Id', 'REQUEST_ID_MISSING', async (c, key) => ({ 'service-wallet-signature': await stamp(c.payloadToSign, key) }), /Request-Id/],
      ['a header that is not a stamp', 'WALLET_SIGNATURE_MALFORMED', async (c) => ({ 'service-wallet-signature': 'not-a-stamp!', 'request-id': c.requestId }), /base64url/],
      [
        'a stamp of another scheme',
        'WALLET_SIGNATURE_MALFORMED',
        async (c) => ({
          'service-wallet-signature': Buffer.from(JSON.stringify({ publicKey: session.key.publicKey, scheme: 'SIGNATURE_SCHEME_OTHER', signature: '3006020101020101' })).toString(
            'base64url',
          ),
          'request-id': c.requestId,
        }),
        /scheme/,
      ],
      [
        'a key that is no session of the account',
        'WALLET_SIGNATURE_INVALID',
        async (c) => ({ 'service-wallet-signature': await stamp(c.payloadToSign, newClientKey()), 'request-id': c.requestId }),
        /not an active session key/,
      ],
      [
        'a session key signing other bytes',
        'WALLET_SIGNATURE_INVALID',
        async (c, key) => ({ 'service-wallet-signature': await stamp(c.payloadToSign + ' ', key), 'request-id': c.requestId }),
        /does not verify/,
      ],
      [
        'an unknown Request-Id',
        'UNAUTHORIZED',
        async (c, key) => ({ 'service-wallet-signature': await stamp(c.payloadToSign, key), 'request-id': 'Request:00000000-0000-7000-8000-000000000000' }),
        /does not match a pending/,
      ],
    ])('refuses %s with 401 %s and a reason', async (_label, code, headersFor, reason) => {
      const challenge = await challengeFor(smsBody());
      const response = await t.api.post('/auth/credentials', smsBody(), { headers: await headersFor(challenge, session.key) });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ status: 401, code, details: { reason: expect.stringMatching(reason) } });
    });

    it('refuses a retry whose body differs from the challenged one with WALLET_SIGNATURE_BODY_MISMATCH', async () => {
      const challenge = await challengeFor(smsBody());
      const response = await t.api.post(
        '/auth/credentials',
        { ...smsBody(), phoneNumber: '+14155550999' },
        {
          headers: { 'service-wallet-signature': await stamp(challenge.payloadToSign, session.key), 'request-id': challenge.requestId },
        },
      );
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'WALLET_SIGNATURE_BODY_MISMATCH', details: { reason: expect.any(String) } });
    });

    it('refuses a Request-Id issued for another operation', async () => {
      const challenge = await challengeFor(smsBody());
      const response = await t.api.delete(`/auth/sessions/${session.id}`, {
        headers: { 'service-wallet-signature': await stamp(challenge.payloadToSign, session.key), 'request-id': challenge.requestId },
      });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
    });

    it('refuses a retry after expiresAt', async () => {
      const challenge = await challengeFor(smsBody());
      await advanceClock(t.api, SIGNED_RETRY_TTL_SECONDS + 1);
      const response = await t.api.post('/auth/credentials', smsBody(), {
        headers: { 'service-wallet-signature': await stamp(challenge.payloadToSign, session.key), 'request-id': challenge.requestId },
      });
      expect(response.status).toBe(401);
      expect(response.body.details.reason).toMatch(/expired/);
    });

    it('lets exactly one of two concurrent retries with one request id through; a later reuse is 401', async () => {
      const race = await client.createWallet('race');
      const raceSession = await client.otpLogin(race.emailCredentialId);
      const body = { type: 'SMS_OTP', accountId: race.accountId, phoneNumber: '+14155550188' };
      const challenge = await challengeFor(body);
      const headers = { 'service-wallet-signature': await stamp(challenge.payloadToSign, raceSession.key), 'request-id': challenge.requestId };
      const results = await Promise.all([t.api.post('/auth/credentials', body, { headers }), t.api.post('/auth/credentials', body, { headers })]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 401]);
      expect(results.find((r) => r.status === 401)!.body.details.reason).toMatch(/already been used/);
      const reuse = await t.api.post('/auth/credentials', body, { headers });
      expect(reuse.status).toBe(401);
      expect(reuse.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'Request-Id has already been used' } });
    });

    it('consumes a challenge issued by another replica on the full path, once across replicas', async () => {
      // A second replica of the service on the same database: its challenges are unknown to the stack's own.
      const app = t.stack.services.get('wallet-auth')!;
      const otherReplica = new SignedRetryService(
        app.get(DataSource),
        app.get(SignedRetryRepository),
        app.get(TransactionRunner),
        app.get<WalletAuthConfig>(WALLET_AUTH_CONFIG),
        app.get(Clock),
      );
      const other = await t.newPlatform();
      const otherClient = new WalletAuthClient(other.api);
      const exported = await otherClient.createWallet('replicas');
      const exportedSession = await otherClient.otpLogin(exported.emailCredentialId);
      const ctx = { platformId: other.platformId, environment: 'sandbox' as const, requestId: 'replica-test' };
      const path = `/internal-accounts/${exported.accountId}/export`;
      const body = { clientPublicKey: newClientKey().publicKeyUncompressed };
      const binding = { accountId: exported.accountId, operation: 'WALLET_EXPORT' as const, requestDigest: canonicalRequestDigest('POST', path, body) };

      // Issued by the other replica, retried over HTTP: consumed by the stack's replica, then used up for both.
      const elsewhere = await otherReplica.issue(ctx, binding);
      const headers = { 'service-wallet-signature': await stamp(elsewhere.payloadToSign, exportedSession.key), 'request-id': elsewhere.requestId };
      expect((await other.api.post(path, body, { headers })).status).toBe(200);
      await expect(otherReplica.consume(ctx, { ...binding, signature: headers['service-wallet-signature'], requestId: elsewhere.requestId })).rejects.toMatchObject({
        details: { reason: 'Request-Id has already been used' },
      });

      // Issued over HTTP, consumed by the other replica first: the HTTP retry then finds it used.
      const here = await other.api.post(path, body);
      expect(here.status).toBe(202);
      const hereHeaders = { 'service-wallet-signature': await stamp(here.body.payloadToSign, exportedSession.key), 'request-id': here.body.requestId };
      await expect(otherReplica.consume(ctx, { ...binding, signature: hereHeaders['service-wallet-signature'], requestId: here.body.requestId })).resolves.toMatchObject({
        requestId: here.body.requestId,
        sessionId: exportedSession.id,
      });
      const reused = await other.api.post(path, body, { headers: hereHeaders });
      expect(reused.status).toBe(401);
      expect(reused.body.details.reason).toBe('Request-Id has already been used');
    });

    it('refuses a retry signed by no session of the account, or over other bytes, and consumes nothing', async () => {
      const wallet2 = await client.createWallet('nothing-consumed');
      const session2 = await client.otpLogin(wallet2.emailCredentialId);
      const path = `/internal-accounts/${wallet2.accountId}/export`;
      const body = { clientPublicKey: newClientKey().publicKeyUncompressed };
      const challenge = await t.api.post(path, body);
      expect(challenge.status).toBe(202);
      const attempts: Array<[string, RegExp]> = [
        [await stamp(challenge.body.payloadToSign, newClientKey()), /not an active session key/],
        [await stamp(challenge.body.payloadToSign, session.key), /not an active session key/],
        [await stamp(`${challenge.body.payloadToSign} `, session2.key), /does not verify/],
      ];
      for (const [signature, reason] of attempts) {
        const refused = await t.api.post(path, body, { headers: { 'service-wallet-signature': signature, 'request-id': challenge.body.requestId } });
        expect(refused.status).toBe(401);
        expect(refused.body.details.reason).toMatch(reason);
      }
      const accepted = await t.api.post(path, body, {
        headers: { 'service-wallet-signature': await stamp(challenge.body.payloadToSign, session2.key), 'request-id': challenge.body.requestId },
      });
      expect(accepted.status).toBe(200);
    });

    it('accepts the legacy fixed header value in the sandbox, and logs it as legacy use', async () => {
      const legacy = await client.createWallet('legacy');
      const body = { type: 'SMS_OTP', accountId: legacy.accountId, phoneNumber: '+14155550177' };
      const challenge = await challengeFor(body);
      const response = await t.api.post('/auth/credentials', body, { headers: { 'service-wallet-signature': 'sandbox-valid-signature', 'request-id': challenge.requestId } });
      expect(response.status).toBe(201);
      expect(logLines.join('')).toMatch(/Legacy sandbox wallet signature accepted/);
    });
  });

  describe('credentials and their limits', () => {
    let wallet: Wallet;
    let session: Session;

    beforeAll(async () => {
      wallet = await client.createWallet('limits');
      session = await client.otpLogin(wallet.emailCredentialId);
    });

    it('adds an SMS_OTP credential by signed retry (202 then 201), and refuses a second one', async () => {
      const added = await client.signed('POST', '/auth/credentials', { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550100' }, session.key);
      expect(added.status).toBe(201);
      expect(added.body).toEqual({
        id: expect.stringMatching(/^AuthMethod:/),
        accountId: wallet.accountId,
        type: 'SMS_OTP',
        nickname: '+14155550100',
        // The signed retry sends the first code: the answer carries the target to encrypt it to.
        otpEncryptionTargetBundle: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const second = await t.api.post('/auth/credentials', { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550101' });
      expect(second.status).toBe(400);
      expect(second.body.code).toBe('SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    });

    it('refuses a second EMAIL_OTP credential on the first call', async () => {
      const response = await t.api.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: wallet.accountId, email: 'other@example.com' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS');
    });

    it('lists every invalid field of a create request', async () => {
      const response = await t.api.post('/auth/credentials', { type: 'TOTP', accountId: 'Account:1', phoneNumber: '555', surprise: 1 });
      expect(response.status).toBe(400);
      const byField = Object.fromEntries(response.body.details.errors.map((e: any) => [e.field, e]));
      expect(byField.type.constraint).toEqual({ enum: ['EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH'] });
      expect(byField.accountId.constraint).toEqual({ pattern: expect.any(String) });
      expect(byField.phoneNumber.constraint).toEqual({ format: 'e.164' });
      expect(byField.surprise.message).toMatch(/not a recognised field/);
    });

    it('requires the fields of the type and refuses the fields of other types', async () => {
      const missing = await t.api.post('/auth/credentials', { type: 'PASSKEY', accountId: wallet.accountId });
      expect(missing.status).toBe(400);
      expect(missing.body.details.errors.map((e: any) => e.field).sort()).toEqual(['attestation', 'challenge']);
      const foreign = await t.api.post('/auth/credentials', { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550102', oidcToken: 'x.y.z' });
      expect(foreign.status).toBe(400);
      expect(foreign.body.details.errors).toEqual([expect.objectContaining({ field: 'oidcToken' })]);
    });

    it("answers another platform's account like an unknown one", async () => {
      const other = await t.newPlatform();
      const response = await other.api.post('/auth/credentials', { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550103' });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
    });
  });

  describe('OAUTH', () => {
    let wallet: Wallet;
    let session: Session;

    beforeAll(async () => {
      wallet = await client.createWallet('oauth');
      session = await client.otpLogin(wallet.emailCredentialId);
    });

    async function registerOauth(claims: Record<string, unknown>): Promise<any> {
      return client.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: wallet.accountId, oidcToken: dummySignedToken(claims) }, session.key);
    }

    it('registers with a sandbox token (dummy signature), nickname from the email claim, and verifies into a sealed session', async () => {
      const claims = idTokenClaims({ email: 'grace.oauth@example.com' });
      const registered = await registerOauth(claims);
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({ type: 'OAUTH', nickname: 'grace.oauth@example.com' });
      const clientKey = newClientKey();
      const verify = await t.api.post(`/auth/credentials/${registered.body.id}/verify`, {
        type: 'OAUTH',
        clientPublicKey: clientKey.publicKeyUncompressed,
        oidcToken: dummySignedToken({ ...claims, nonce: oidcNonceForClientPublicKey(clientKey.publicKeyUncompressed) }),
      });
      expect(verify.status).toBe(200);
      const opened = client.openSealedSession(verify.body, clientKey);
      remember(opened.key.privateKey, clientKey.privateKey);
      // The session key it carries signs for the account.
      const refreshed = await client.signed('POST', `/auth/sessions/${opened.id}/refresh`, { clientPublicKey: newClientKey().publicKeyUncompressed }, opened.key);
      expect(refreshed.status).toBe(201);
    });

    it('refuses a replayed verification token', async () => {
      const claims = idTokenClaims();
      const registered = await registerOauth(claims);
      const clientKey = newClientKey();
      const body = {
        type: 'OAUTH',
        clientPublicKey: clientKey.publicKeyUncompressed,
        oidcToken: dummySignedToken({ ...claims, nonce: oidcNonceForClientPublicKey(clientKey.publicKeyUncompressed) }),
      };
      expect((await t.api.post(`/auth/credentials/${registered.body.id}/verify`, body)).status).toBe(200);
      const replay = await t.api.post(`/auth/credentials/${registered.body.id}/verify`, body);
      expect(replay.status).toBe(401);
      expect(replay.body.details.reason).toBe('OIDC token has already been used');
    });

    it('refuses the same identity twice on one account', async () => {
      const claims = idTokenClaims();
      expect((await registerOauth(claims)).status).toBe(201);
      const again = await t.api.post('/auth/credentials', {
        type: 'OAUTH',
        accountId: wallet.accountId,
        oidcToken: dummySignedToken({ ...claims, iat: (claims.iat as number) - 1 }),
      });
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('OAUTH_CREDENTIAL_ALREADY_EXISTS');
    });

    const now = () => Math.floor(Date.now() / 1000);
    it.each<[string, () => string, number, string | RegExp]>([
      ['the retired fixed literal', () => 'sandbox-valid-oidc-token', 401, /retired fixed literal/],
      ['a malformed JWT', () => 'not.a-jwt', 400, /well-formed/],
      ['an unsupported issuer', () => dummySignedToken(idTokenClaims({ iss: 'https://evil.example' })), 401, /supported issuer/],
      ['a two-element aud', () => dummySignedToken(idTokenClaims({ aud: ['a', 'b'] })), 401, /aud/],
      ['no sub', () => dummySignedToken(idTokenClaims({ sub: '' })), 401, /sub/],
      ['an iat older than 60 s (+5 s skew)', () => dummySignedToken(idTokenClaims({ iat: now() - 70 })), 401, /iat is more than 60 seconds old/],
      ['an exp in the past', () => dummySignedToken(idTokenClaims({ exp: now() - 1 })), 401, /expired/],
    ])('refuses a registration token with %s', async (_label, token, status, reason) => {
      const response = await t.api.post('/auth/credentials', { type: 'OAUTH', accountId: wallet.accountId, oidcToken: token() });
      expect(response.status).toBe(status);
      if (status === 400)
        expect(response.body).toMatchObject({
          code: 'INVALID_INPUT',
          details: { errors: [expect.objectContaining({ field: 'oidcToken', message: expect.stringMatching(reason) })] },
        });
      else expect(response.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: expect.stringMatching(reason) } });
    });

    it.each<[string, (claims: Record<string, unknown>, key: ClientKey) => Record<string, unknown>, RegExp]>([
      ['a nonce of another key', (claims) => ({ ...claims, nonce: oidcNonceForClientPublicKey(newClientKey().publicKeyUncompressed) }), /nonce/],
      ['no nonce', (claims) => ({ ...claims }), /nonce/],
      ['another subject', (claims, key) => ({ ...claims, sub: 'someone-else', nonce: oidcNonceForClientPublicKey(key.publicKeyUncompressed) }), /identity/],
      ['another audience', (claims, key) => ({ ...claims, aud: 'other-client', nonce: oidcNonceForClientPublicKey(key.publicKeyUncompressed) }), /identity/],
    ])('refuses a verification token with %s', async (_label, claimsFor, reason) => {
      const claims = idTokenClaims();
      const registered = await registerOauth(claims);
      const key = newClientKey();
      const response = await t.api.post(`/auth/credentials/${registered.body.id}/verify`, {
        type: 'OAUTH',
        clientPublicKey: key.publicKeyUncompressed,
        oidcToken: dummySignedToken(claimsFor({ ...claims, iat: now() }, key)),
      });
      expect(response.status).toBe(401);
      expect(response.body.details.reason).toMatch(reason);
    });

    it('outside the sandbox (production token) checks the signature against the issuer JWKS', async () => {
      const production = await t.newPlatform('production');
      const prodClient = new WalletAuthClient(production.api);
      const prodWallet = await prodClient.createWallet('prod');
      // Production codes are random and go through the pluggable sender; the test reads them there.
      const sender = t.stack.services.get('wallet-auth')!.get<OtpSender>(OTP_SENDER, { strict: false });
      const sent: string[] = [];
      const spy = jest.spyOn(sender, 'send').mockImplementation(async (_channel, _destination, code) => void sent.push(code));
      let prodSession: Session;
      try {
        await expect(prodClient.otpLogin(prodWallet.emailCredentialId, 'EMAIL_OTP', '000000')).rejects.toThrow(/Invalid OTP code/);
        expect(sent).toHaveLength(1);
        expect(sent[0]).toMatch(/^\d{6}$/);
        // That credential is now rate limited; the genuine flow runs on a second wallet.
        const second = await prodClient.createWallet('prod2');
        sent.length = 0;
        const key = newClientKey();
        const challenge = await production.api.post(`/auth/credentials/${second.emailCredentialId}/challenge`, {});
        const { encryptOtpCodeToBundle } = await import('@turnkey/crypto');
        const bundle = await encryptOtpCodeToBundle(sent[0], challenge.body.otpEncryptionTargetBundle, key.publicKey, await prodClient.enclaveKey());
        const body = { type: 'EMAIL_OTP', encryptedOtpBundle: bundle };
        const first = await production.api.post(`/auth/credentials/${second.emailCredentialId}/verify`, body);
        expect(first.status).toBe(202);
        const legacy = await production.api.post(`/auth/credentials/${second.emailCredentialId}/verify`, body, {
          headers: { 'service-wallet-signature': 'sandbox-valid-signature', 'request-id': first.body.requestId },
        });
        expect(legacy.status).toBe(401);
        expect(legacy.body.code).toBe('WALLET_SIGNATURE_MALFORMED');
        const retry = await production.api.post(`/auth/credentials/${second.emailCredentialId}/verify`, body, {
          headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, key), 'request-id': first.body.requestId },
        });
        expect(retry.status).toBe(200);
        prodSession = { id: retry.body.id, authMethodId: retry.body.authMethodId, key, body: retry.body };
        remember(sent[0]);
        // Registration and verification with tokens the loopback issuer really signed.
        const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'loopback-1', typ: 'JWT' }).sign(issuerKey);
        const claims = idTokenClaims({ iss: LOOPBACK_ISSUER, email: 'prod@example.com' });
        const dummy = await production.api.post('/auth/credentials', { type: 'OAUTH', accountId: second.accountId, oidcToken: dummySignedToken(claims) });
        expect(dummy.status).toBe(401);
        expect(dummy.body.details.reason).toBe('OIDC token signing key is not in the issuer key set');
        const genuine = (await sign(claims)).split('.');
        const forged = [genuine[0], Buffer.from(JSON.stringify({ ...claims, sub: 'attacker' })).toString('base64url'), genuine[2]].join('.');
        const tampered = await production.api.post('/auth/credentials', { type: 'OAUTH', accountId: second.accountId, oidcToken: forged });
        expect(tampered.status).toBe(401);
        expect(tampered.body.details.reason).toBe('OIDC token signature is invalid');
        const registered = await prodClient.signed('POST', '/auth/credentials', { type: 'OAUTH', accountId: second.accountId, oidcToken: await sign(claims) }, prodSession.key);
        expect(registered.status).toBe(201);
        const clientKey = newClientKey();
        const verify = await production.api.post(`/auth/credentials/${registered.body.id}/verify`, {
          type: 'OAUTH',
          clientPublicKey: clientKey.publicKeyUncompressed,
          oidcToken: await sign({ ...claims, iat: now(), nonce: oidcNonceForClientPublicKey(clientKey.publicKeyUncompressed) }),
        });
        expect(verify.status).toBe(200);
        expect(client.openSealedSession(verify.body, clientKey).key.privateKey).toMatch(/^[0-9a-f]{64}$/);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('sessions and revocation', () => {
    it('refreshes into a session on the client-held key when clientPublicKey is compressed: nothing sealed, that key signs', async () => {
      const wallet = await client.createWallet('refresh-held');
      const session = await client.otpLogin(wallet.emailCredentialId);
      const clientKey = newClientKey();
      const refreshed = await client.signed('POST', `/auth/sessions/${session.id}/refresh`, { clientPublicKey: clientKey.publicKey }, session.key);
      expect(refreshed.status).toBe(201);
      expect(refreshed.body.encryptedSessionSigningKey).toBeUndefined();
      const revoked = await client.signed('DELETE', `/auth/sessions/${refreshed.body.id}`, undefined, clientKey);
      expect(revoked.status).toBe(204);
    });

    it('refreshes a session by signed retry into a new sealed key; the old one stops signing', async () => {
      const wallet = await client.createWallet('refresh');
      const session = await client.otpLogin(wallet.emailCredentialId);
      const clientKey = newClientKey();
      const refreshed = await client.signed('POST', `/auth/sessions/${session.id}/refresh`, { clientPublicKey: clientKey.publicKeyUncompressed }, session.key);
      expect(refreshed.status).toBe(201);
      const next = client.openSealedSession(refreshed.body, clientKey);
      expect(next.id).not.toBe(session.id);
      remember(next.key.privateKey);
      const list = await t.api.get(`/auth/sessions?accountId=${wallet.accountId}`);
      expect(list.body.data.map((s: any) => s.id)).toEqual([next.id]);
      expect(list.body.data[0].encryptedSessionSigningKey).toBeUndefined();
      const stale = await client.signed('DELETE', `/auth/sessions/${next.id}`, undefined, session.key);
      expect(stale.status).toBe(401);
      expect(stale.body.code).toBe('WALLET_SIGNATURE_INVALID');
      expect((await client.signed('DELETE', `/auth/sessions/${next.id}`, undefined, next.key)).status).toBe(204);
      expect((await t.api.get(`/auth/sessions?accountId=${wallet.accountId}`)).body.data).toEqual([]);
      expect((await t.api.delete(`/auth/sessions/${next.id}`)).status).toBe(404);
    });

    it('revokes a credential only with a session of another credential, ends its sessions, and never the last one', async () => {
      const wallet = await client.createWallet('revoke');
      const emailSession = await client.otpLogin(wallet.emailCredentialId);
      const sms = await client.signed('POST', '/auth/credentials', { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550144' }, emailSession.key);
      expect(sms.status).toBe(201);
      // The credential added by signed retry came with its first code's target bundle.
      const smsSession = await client.otpLogin(sms.body.id, 'SMS_OTP', '000000', sms.body.otpEncryptionTargetBundle);

      const own = await client.signed('DELETE', `/auth/credentials/${wallet.emailCredentialId}`, undefined, emailSession.key);
      expect(own.status).toBe(401);
      expect(own.body).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', details: { reason: 'must be signed by a session of a different credential' } });

      const revoked = await client.signed('DELETE', `/auth/credentials/${wallet.emailCredentialId}`, undefined, smsSession.key);
      expect(revoked.status).toBe(204);
      const credentials = await t.api.get(`/auth/credentials?accountId=${wallet.accountId}`);
      expect(credentials.body.data.map((c: any) => c.type)).toEqual(['SMS_OTP']);
      const sessions = await t.api.get(`/auth/sessions?accountId=${wallet.accountId}`);
      expect(sessions.body.data.map((s: any) => s.id)).toEqual([smsSession.id]);

      const last = await t.api.delete(`/auth/credentials/${sms.body.id}`);
      expect(last.status).toBe(400);
      expect(last.body).toMatchObject({ code: 'INVALID_INPUT', details: { reason: 'LAST_CREDENTIAL' } });
    });
  });

  describe('signed actions of other services', () => {
    it('exports the wallet sealed to a client key after a signed retry', async () => {
      const wallet = await client.createWallet('export');
      const session = await client.otpLogin(wallet.emailCredentialId);
      const clientKey = newClientKey();
      const path = `/internal-accounts/${wallet.accountId}/export`;
      const first = await t.api.post(path, { clientPublicKey: clientKey.publicKeyUncompressed });
      expect(first.status).toBe(202);
      const exported = await client.signed('POST', path, { clientPublicKey: clientKey.publicKeyUncompressed }, session.key);
      expect(exported.status).toBe(200);
      expect(exported.body).toMatchObject({ id: wallet.accountId, encryptedWalletCredentials: expect.any(String) });
      const walletKey = client.openSealedSession({ ...exported.body, encryptedSessionSigningKey: exported.body.encryptedWalletCredentials }, clientKey).key;
      expect(walletKey.privateKey).toMatch(/^[0-9a-f]{64}$/);
      remember(walletKey.privateKey);
      const again = await client.signed('POST', path, { clientPublicKey: clientKey.publicKeyUncompressed }, session.key);
      expect(client.openSealedSession({ ...again.body, encryptedSessionSigningKey: again.body.encryptedWalletCredentials }, clientKey).key.privateKey).toBe(walletKey.privateKey);
    });
  });

  describe('transfer-out from an embedded wallet (POST /transfer-out)', () => {
    let wallet: Wallet;
    let session: Session;
    let destination: string;
    const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

    beforeAll(async () => {
      wallet = await client.createWallet('transfer');
      // What USDC transfers need of the customer: its fields, then an approved KYC (sandbox: any other name approves).
      expect((await t.api.patch(`/customers/${wallet.customerId}`, { customerType: 'INDIVIDUAL', birthDate: '1990-04-12', nationality: 'US', address })).status).toBe(200);
      expect((await t.api.post('/verifications', { customerId: wallet.customerId })).status).toBeLessThan(300);
      session = await client.otpLogin(wallet.emailCredentialId);
      // A Solana wallet holding USDC: the embedded wallet's currency reaches it on its own network.
      const external = await t.api.post('/customers/external-accounts', {
        customerId: wallet.customerId,
        currency: 'USDC',
        platformAccountId: `wallet-payout-${Math.random().toString(36).slice(2)}`,
        accountInfo: { accountType: 'SOLANA_WALLET', address: '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg' },
      });
      expect(external.status).toBe(201);
      destination = external.body.id;
      expect((await t.api.post(`/sandbox/internal-accounts/${wallet.accountId}/fund`, { amount: 1_000_000 })).status).toBe(200);
    });

    const balance = async () => (await t.api.get(`/internal-accounts/${wallet.accountId}`)).body.balance.amount as number;
    const transactions = async () => (await t.api.get(`/transactions?accountId=${encodeURIComponent(wallet.accountId)}`)).body.data as any[];
    const body = (amount: number) => ({ source: { accountId: wallet.accountId }, destination: { accountId: destination }, amount });

    it('answers 202 without a signature and moves the money on the signed retry (201)', async () => {
      const before = await balance();
      const first = await t.api.post('/transfer-out', body(1_500));
      expect(first.status).toBe(202);
      expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
      expect(JSON.parse(first.body.payloadToSign)).toMatchObject({ operation: 'TRANSFER_OUT', accountId: wallet.accountId });
      expect(await balance()).toBe(before);
      const signed = await t.api.post('/transfer-out', body(1_500), {
        headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, session.key), 'request-id': first.body.requestId },
      });
      expect(signed.status).toBe(201);
      expect(signed.body).toMatchObject({
        type: 'OUTGOING',
        source: { accountId: wallet.accountId, currency: 'USDC' },
        destination: { accountId: destination, currency: 'USDC', onChainTransaction: { network: 'SOLANA', transactionHash: expect.any(String) } },
        sentAmount: { amount: 1_500 },
      });
      expect(await balance()).toBe(before - 1_500);
      expect((await transactions()).map((transaction) => transaction.id)).toContain(signed.body.id);
    });

    it('refuses a signature by a key that is no session of the wallet with 401 WALLET_SIGNATURE_INVALID, moving nothing', async () => {
      const before = { balance: await balance(), transactions: (await transactions()).length };
      const first = await t.api.post('/transfer-out', body(2_000));
      expect(first.status).toBe(202);
      const forged = await t.api.post('/transfer-out', body(2_000), {
        headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, newClientKey()), 'request-id': first.body.requestId },
      });
      expect(forged.status).toBe(401);
      expect(forged.body).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', details: { reason: expect.stringMatching(/not an active session key/) } });
      const unsigned = await t.api.post('/transfer-out', body(2_000), { headers: { 'request-id': first.body.requestId } });
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.code).toBe('WALLET_SIGNATURE_MISSING');
      expect(await balance()).toBe(before.balance);
      expect(await transactions()).toHaveLength(before.transactions);
    });

    it('keeps Idempotency-Key: a repeat answers the first transaction without a signature; another body is 409 before any challenge', async () => {
      const headers = { 'idempotency-key': `wallet-out-${Math.random().toString(36).slice(2)}` };
      const before = await balance();
      const first = await t.api.post('/transfer-out', body(700), { headers });
      expect(first.status).toBe(202);
      const signedHeaders = { ...headers, 'service-wallet-signature': await stamp(first.body.payloadToSign, session.key), 'request-id': first.body.requestId };
      const created = await t.api.post('/transfer-out', body(700), { headers: signedHeaders });
      expect(created.status).toBe(201);
      // The same signed retry again (say the answer was lost), and the plain repeat: the first answer, nothing moves.
      for (const repeat of [await t.api.post('/transfer-out', body(700), { headers: signedHeaders }), await t.api.post('/transfer-out', body(700), { headers })]) {
        expect(repeat.status).toBe(201);
        expect(repeat.body).toEqual(created.body);
      }
      const reused = await t.api.post('/transfer-out', body(701), { headers });
      expect(reused.status).toBe(409);
      expect(reused.body).toMatchObject({ code: 'CONFLICT', details: { reason: 'IDEMPOTENCY_KEY_REUSED' } });
      expect(await balance()).toBe(before - 700);
    });

    it("answers the transfer's own 4xx before any challenge", async () => {
      const wrongCurrency = await t.api.post('/transfer-out', { ...body(100), currency: 'USD' });
      expect(wrongCurrency.status).toBe(400);
      expect(wrongCurrency.body.code).toBe('INVALID_CURRENCY');
      const other = await t.newPlatform();
      const foreign = await other.api.post('/transfer-out', body(100));
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('REFERENCE_NOT_FOUND');
    });
  });

  describe('wallet privacy (PATCH /internal-accounts/{id})', () => {
    it('updates privateEnabled after a signed retry', async () => {
      const wallet = await client.createWallet('privacy');
      const session = await client.otpLogin(wallet.emailCredentialId);
      const first = await t.api.patch(`/internal-accounts/${wallet.accountId}`, { privateEnabled: true });
      expect(first.status).toBe(202);
      expect(JSON.parse(first.body.payloadToSign)).toMatchObject({ operation: 'WALLET_PRIVACY_UPDATE', accountId: wallet.accountId });
      const updated = await client.signed('PATCH', `/internal-accounts/${wallet.accountId}`, { privateEnabled: true }, session.key);
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({
        id: wallet.accountId,
        type: 'EMBEDDED_WALLET',
        privateEnabled: true,
        totalBalance: { amount: 0 },
        fundingPaymentInstructions: expect.any(Array),
      });
      expect((await t.api.get(`/internal-accounts/${wallet.accountId}`)).body.privateEnabled).toBe(true);
    });

    it('refuses before any challenge: another platform 404, a non-wallet account 400, a bad body 400, a body without any field 400', async () => {
      const wallet = await client.createWallet('privacy-refused');
      const other = await t.newPlatform();
      expect((await other.api.patch(`/internal-accounts/${wallet.accountId}`, { privateEnabled: true })).status).toBe(404);
      const accounts = await t.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(wallet.customerId)}`);
      const holding = accounts.body.data.find((a: any) => a.type !== 'EMBEDDED_WALLET');
      const notWallet = await t.api.patch(`/internal-accounts/${holding.id}`, { privateEnabled: true });
      expect(notWallet.status).toBe(400);
      const badBody = await t.api.patch(`/internal-accounts/${wallet.accountId}`, { privateEnabled: 'yes' });
      expect(badBody.status).toBe(400);
      expect(badBody.body.details.errors[0].field).toBe('privateEnabled');
      // privateEnabled is optional in the body's schema, but an update must change something.
      const empty = await t.api.patch(`/internal-accounts/${wallet.accountId}`, {});
      expect(empty.status).toBe(400);
      expect(empty.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'privateEnabled' }] } });
    });
  });

  describe('customer email tied to EMAIL_OTP (PATCH /customers/{customerId})', () => {
    it('needs a signed retry to change the email, which updates the customer and its tied credential together', async () => {
      const wallet = await client.createWallet('email-change');
      const session = await client.otpLogin(wallet.emailCredentialId);
      const body = { customerType: 'INDIVIDUAL', email: 'Changed.Address@example.com' };
      const first = await t.api.patch(`/customers/${wallet.customerId}`, body);
      expect(first.status).toBe(202);
      expect(JSON.parse(first.body.payloadToSign)).toMatchObject({ operation: 'CUSTOMER_EMAIL_UPDATE', accountId: wallet.accountId });
      expect((await t.api.get(`/customers/${wallet.customerId}`)).body.email).toBe(wallet.email);
      const unsigned = await t.api.patch(`/customers/${wallet.customerId}`, body, { headers: { 'request-id': first.body.requestId } });
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.code).toBe('WALLET_SIGNATURE_MISSING');
      const changed = await client.signed('PATCH', `/customers/${wallet.customerId}`, body, session.key);
      expect(changed.status).toBe(200);
      expect(changed.body.email).toBe('changed.address@example.com');
      // No waiting for the customer's update event: the signed retry changed the credential too.
      const list = await t.api.get(`/auth/credentials?accountId=${wallet.accountId}`);
      expect(list.body.data.find((c: any) => c.id === wallet.emailCredentialId)).toMatchObject({ type: 'EMAIL_OTP', nickname: 'changed.address@example.com' });
      // The new address is now the tied one: setting it again needs no signature.
      expect((await t.api.patch(`/customers/${wallet.customerId}`, body)).status).toBe(200);
    });

    it("brings the credential along from the customer's update event when the direct update fails", async () => {
      const wallet = await client.createWallet('email-backstop');
      const session = await client.otpLogin(wallet.emailCredentialId);
      const bindings = t.stack.services.get('wallet-auth')!.get(WalletExportService);
      const failing = jest.spyOn(bindings, 'updateEmailBinding').mockRejectedValueOnce(new ServiceError('SERVICE_UNAVAILABLE', 'wallet-auth is restarting'));
      try {
        const changed = await client.signed('PATCH', `/customers/${wallet.customerId}`, { customerType: 'INDIVIDUAL', email: 'backstop@example.com' }, session.key);
        // The customer changed (its event is committed with it), so the answer is the change, not an error.
        expect(changed.status).toBe(200);
        expect(failing).toHaveBeenCalledTimes(1);
      } finally {
        failing.mockRestore();
      }
      expect(logLines.join('')).toMatch(/Tied EMAIL_OTP credentials of customer .* not updated directly \(SERVICE_UNAVAILABLE\)/);
      await eventually(async () => {
        const list = await t.api.get(`/auth/credentials?accountId=${wallet.accountId}`);
        const credential = list.body.data.find((c: any) => c.id === wallet.emailCredentialId);
        return credential.nickname === 'backstop@example.com' ? credential : undefined;
      });
    });

    it('answers the other 4xx of the update before any challenge', async () => {
      const wallet = await client.createWallet('email-invalid');
      const response = await t.api.patch(`/customers/${wallet.customerId}`, { customerType: 'BUSINESS', email: 'new@example.com', businessInfo: { legalName: 'Acme' } });
      expect(response.status).toBe(400);
      expect(response.body.details.errors[0]).toMatchObject({ field: 'customerType' });
      expect((await t.api.get(`/customers/${wallet.customerId}`)).body.email).toBe(wallet.email);
    });

    it('lets other customer changes through without a signature', async () => {
      const wallet = await client.createWallet('email-unchanged');
      const response = await t.api.patch(`/customers/${wallet.customerId}`, { customerType: 'INDIVIDUAL', fullName: 'Grace B. Hopper', email: wallet.email.toUpperCase() });
      expect(response.status).toBe(200);
      expect(response.body.fullName).toBe('Grace B. Hopper');
    });
  });

  describe('secrets', () => {
    it('never writes an OTP code, private key or session key to the logs', () => {
      const logs = logLines.join('');
      expect(logs.length).toBeGreaterThan(0);
      expect(secrets.length).toBeGreaterThan(3);
      for (const secret of secrets) {
        // A 6-digit code may occur inside a random id by chance: look for it standing alone.
        if (/^\d{6}$/.test(secret)) expect(logs).not.toMatch(new RegExp(`(?<![0-9a-fA-F-])${secret}(?![0-9a-fA-F-])`));
        else expect(logs).not.toContain(secret);
      }
      expect(logs).not.toMatch(/otp_code/);
    });
  });
});
