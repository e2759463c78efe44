import { createServer, Server } from 'node:http';
import { Writable } from 'node:stream';
import { createRootLogger } from '@paykit/runtime';
import { OTP_SENDER, OtpSender } from '../../apps/wallet-auth/src/credentials/otp-sender';
import { SoftwareAuthenticator } from '../../libs/testing/src/software-authenticator';
import { itWithBrowser, launchChromium } from '../support/chromium';
import { advanceClock, startTestStack, TestStack } from '../support/test-stack';
import { newClientKey, RP_ID, RP_ORIGIN, Session, stamp, Wallet, WalletAuthClient } from '../support/wallet-auth-client';

// Every warning of the stack lands here, so the test can see the legacy-use line.
const logLines: string[] = [];
createRootLogger({
  level: 'warn',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
});

/** The spec's legacy fixed assertion: sandbox tokens only, and then without WebAuthn checks. */
const LEGACY_ASSERTION = { credentialId: 'AAAA', clientDataJson: 'e30', authenticatorData: 'AAAA', signature: 'sandbox-valid-passkey-signature' };

// Long enough for a few signed requests on a loaded machine; expiry itself is driven by the test clock.
const SESSION_TTL_SECONDS = 60;
/** The browser hands WebAuthn's buffers over as byte arrays; the API takes them in base64url. */
const b64url = (bytes: number[]) => Buffer.from(bytes).toString('base64url');

describe('Embedded wallet authentication: passkeys', () => {
  let t: TestStack;
  let client: WalletAuthClient;
  let page: Server;
  let pageOrigin: string;

  beforeAll(async () => {
    // The relying party's page for the browser run: WebAuthn needs a secure context, which localhost is.
    page = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><title>Paykit wallet</title><p>passkeys</p>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://localhost:${(page.address() as { port: number }).port}`;
    t = await startTestStack({
      env: {
        WALLET_AUTH_RP_ID: RP_ID,
        WALLET_AUTH_RP_ORIGINS: `${RP_ORIGIN},${pageOrigin}`,
        WALLET_AUTH_SESSION_TTL_SECONDS: String(SESSION_TTL_SECONDS),
      },
    });
    client = new WalletAuthClient(t.api);
  });

  afterAll(async () => {
    await t?.stop();
    await new Promise<void>((resolve) => (page ? page.close(() => resolve()) : resolve()));
  });

  /** A wallet, an OTP session on it, and a registered passkey. */
  async function walletWithPasskey(
    authenticator = new SoftwareAuthenticator(),
  ): Promise<{ wallet: Wallet; otp: Session; passkeyId: string; authenticator: SoftwareAuthenticator }> {
    const wallet = await client.createWallet('passkey');
    const otp = await client.otpLogin(wallet.emailCredentialId);
    const added = await client.addPasskey(wallet.accountId, authenticator, otp.key);
    if (added.status !== 201) throw new Error(`passkey registration: ${added.status} ${JSON.stringify(added.body)}`);
    return { wallet, otp, passkeyId: added.body.id, authenticator };
  }

  describe('registration', () => {
    it('verifies a genuine attestation (202 then 201) and refuses the same credentialId twice', async () => {
      const authenticator = new SoftwareAuthenticator({ attestation: 'packed' });
      const { wallet, otp, passkeyId } = await walletWithPasskey(authenticator);
      const list = await t.api.get(`/auth/credentials?accountId=${wallet.accountId}`);
      expect(list.body.data.find((c: any) => c.id === passkeyId)).toMatchObject({ type: 'PASSKEY', nickname: 'Laptop', credentialId: authenticator.credentialId });
      const again = await client.addPasskey(wallet.accountId, authenticator, otp.key, 'Again');
      expect(again.status).toBe(400);
      expect(again.body.code).toBe('PASSKEY_CREDENTIAL_ALREADY_EXISTS');
      // Another passkey is fine: any number of distinct credential ids.
      expect((await client.addPasskey(wallet.accountId, new SoftwareAuthenticator({ attestation: 'none' }), otp.key, 'Phone')).status).toBe(201);
    });

    it('registers with the challenge in the reference form: the base64url of the bytes the browser was given', async () => {
      const wallet = await client.createWallet('passkey-reference');
      const otp = await client.otpLogin(wallet.emailCredentialId);
      const authenticator = new SoftwareAuthenticator();
      const challengeBytes = `reference-form-${Math.random().toString(36).slice(2)}`;
      const registration = authenticator.createRegistration({ rpId: RP_ID, origin: RP_ORIGIN, challenge: challengeBytes });
      const body = {
        type: 'PASSKEY',
        accountId: wallet.accountId,
        nickname: 'iPhone Face-ID',
        challenge: Buffer.from(challengeBytes, 'utf8').toString('base64url'),
        attestation: {
          credentialId: registration.id,
          clientDataJson: registration.response.clientDataJSON,
          attestationObject: registration.response.attestationObject,
          transports: ['internal', 'hybrid'],
        },
      };
      const first = await t.api.post('/auth/credentials', body);
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ type: 'PASSKEY', requestId: expect.stringMatching(/^Request:/) });
      const created = await client.signed('POST', '/auth/credentials', body, otp.key);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ type: 'PASSKEY', nickname: 'iPhone Face-ID', credentialId: authenticator.credentialId });
    });

    it.each<[string, { origin?: string; rpId?: string; signedChallenge?: string; userPresent?: boolean }, number, string | RegExp]>([
      ['an attestation made for another challenge', { signedChallenge: 'another-challenge' }, 401, 'passkey challenge does not match'],
      ['an origin that is not allowed', { origin: 'https://evil.example' }, 401, 'passkey origin is not allowed'],
      ['another RP id', { rpId: 'evil.example' }, 401, 'passkey RP ID does not match'],
      ['no user presence', { userPresent: false }, 401, 'passkey user presence flag is not set'],
    ])('refuses %s', async (_label, ceremony, status, reason) => {
      const wallet = await client.createWallet('passkey-bad');
      const authenticator = new SoftwareAuthenticator();
      const challenge = 'registration-challenge';
      const registration = authenticator.createRegistration({
        rpId: ceremony.rpId ?? RP_ID,
        origin: ceremony.origin ?? RP_ORIGIN,
        challenge: ceremony.signedChallenge ?? challenge,
        userPresent: ceremony.userPresent,
      });
      const response = await t.api.post('/auth/credentials', {
        type: 'PASSKEY',
        accountId: wallet.accountId,
        challenge,
        attestation: { credentialId: registration.id, clientDataJson: registration.response.clientDataJSON, attestationObject: registration.response.attestationObject },
      });
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason } });
    });
  });

  describe('authentication', () => {
    it('challenge with clientPublicKey, assertion with Request-Id, and a session key sealed to the client key', async () => {
      const { wallet, passkeyId, authenticator } = await walletWithPasskey();
      const clientKey = newClientKey();
      const challenge = await t.api.post(`/auth/credentials/${passkeyId}/challenge`, { clientPublicKey: clientKey.publicKeyUncompressed });
      expect(challenge.status).toBe(200);
      expect(challenge.body).toEqual({
        id: passkeyId,
        accountId: wallet.accountId,
        type: 'PASSKEY',
        nickname: 'Laptop',
        challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
        requestId: expect.stringMatching(/^Request:/),
        credentialId: authenticator.credentialId,
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const assertion = authenticator.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: challenge.body.challenge });
      const verify = await t.api.post(`/auth/credentials/${passkeyId}/verify`, { type: 'PASSKEY', assertion }, { headers: { 'request-id': challenge.body.requestId } });
      expect(verify.status).toBe(200);
      expect(verify.body).toMatchObject({
        id: expect.stringMatching(/^Session:/),
        authMethodId: passkeyId,
        accountId: wallet.accountId,
        type: 'PASSKEY',
        encryptedSessionSigningKey: expect.any(String),
      });
      const session = client.openSealedSession(verify.body, clientKey);
      // The opened key signs for the account: it revokes its own session.
      expect((await client.signed('DELETE', `/auth/sessions/${session.id}`, undefined, session.key)).status).toBe(204);
      // A Request-Id opens one session only.
      const reuse = await t.api.post(
        `/auth/credentials/${passkeyId}/verify`,
        { type: 'PASSKEY', assertion: authenticator.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: challenge.body.challenge }) },
        { headers: { 'request-id': challenge.body.requestId } },
      );
      expect(reuse.status).toBe(401);
      expect(reuse.body.details.reason).toBe('Request-Id has already been used');
    });

    it('requires clientPublicKey on the challenge and Request-Id on verify', async () => {
      const { passkeyId, authenticator } = await walletWithPasskey();
      const noKey = await t.api.post(`/auth/credentials/${passkeyId}/challenge`, {});
      expect(noKey.status).toBe(400);
      expect(noKey.body.details.errors[0].field).toBe('clientPublicKey');
      const badKey = await t.api.post(`/auth/credentials/${passkeyId}/challenge`, { clientPublicKey: '04' + '11'.repeat(64) });
      expect(badKey.status).toBe(400);
      const noRequestId = await t.api.post(`/auth/credentials/${passkeyId}/verify`, {
        type: 'PASSKEY',
        assertion: authenticator.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: 'x' }),
      });
      expect(noRequestId.status).toBe(401);
      expect(noRequestId.body.code).toBe('REQUEST_ID_MISSING');
    });

    it.each<[string, (authenticator: SoftwareAuthenticator, challenge: string) => any, string]>([
      ['an assertion for another challenge', (a) => a.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: 'stale' }), 'passkey challenge does not match'],
      ['another origin', (a, c) => a.createAssertion({ rpId: RP_ID, origin: 'https://evil.example', challenge: c }), 'passkey origin is not allowed'],
      ['another RP id', (a, c) => a.createAssertion({ rpId: 'evil.example', origin: RP_ORIGIN, challenge: c }), 'passkey RP ID does not match'],
      ['no user presence', (a, c) => a.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: c, userPresent: false }), 'passkey user presence flag is not set'],
      ['a counter that goes backwards', (a, c) => a.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: c, signCount: 0 }), 'passkey signature counter did not increase'],
      [
        'a signature by another authenticator',
        (a, c) => ({ ...new SoftwareAuthenticator({ initialSignCount: 10 }).createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: c }), credentialId: a.credentialId }),
        'passkey signature is invalid',
      ],
      [
        'another credential id',
        (_a, c) => new SoftwareAuthenticator().createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: c }),
        'passkey credential id does not match the credential',
      ],
    ])('refuses %s with 401 and its reason', async (_label, assertionFor, reason) => {
      const { passkeyId, authenticator } = await walletWithPasskey();
      // One good login first, so the stored counter is above zero.
      await client.passkeyLogin(passkeyId, authenticator);
      const challenge = await t.api.post(`/auth/credentials/${passkeyId}/challenge`, { clientPublicKey: newClientKey().publicKeyUncompressed });
      const response = await t.api.post(
        `/auth/credentials/${passkeyId}/verify`,
        { type: 'PASSKEY', assertion: assertionFor(authenticator, challenge.body.challenge) },
        { headers: { 'request-id': challenge.body.requestId } },
      );
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', details: { reason } });
    });

    it('accepts the legacy fixed assertion signature in the sandbox without WebAuthn checks, and logs the legacy use', async () => {
      const { passkeyId } = await walletWithPasskey();
      const clientKey = newClientKey();
      const challenge = await t.api.post(`/auth/credentials/${passkeyId}/challenge`, { clientPublicKey: clientKey.publicKeyUncompressed });
      const verify = await t.api.post(
        `/auth/credentials/${passkeyId}/verify`,
        { type: 'PASSKEY', assertion: LEGACY_ASSERTION },
        { headers: { 'request-id': challenge.body.requestId } },
      );
      expect(verify.status).toBe(200);
      expect(client.openSealedSession(verify.body, clientKey).key.privateKey).toMatch(/^[0-9a-f]{64}$/);
      expect(logLines.filter((line) => line.includes(passkeyId))).toEqual([
        expect.stringMatching(/"level":"warn".*Legacy sandbox passkey assertion accepted without WebAuthn checks/),
      ]);
    });

    it('refuses the legacy fixed assertion with a production token (401), running the WebAuthn checks instead', async () => {
      // Production OTP codes are random and go through the pluggable sender: the test reads them there.
      const production = await t.newPlatform('production');
      const prodClient = new WalletAuthClient(production.api);
      const wallet = await prodClient.createWallet('prod-passkey');
      const sender = t.stack.services.get('wallet-auth')!.get<OtpSender>(OTP_SENDER, { strict: false });
      const codes: string[] = [];
      const spy = jest.spyOn(sender, 'send').mockImplementation(async (_channel, _destination, code) => void codes.push(code));
      let otp: Session;
      try {
        const key = newClientKey();
        const otpChallenge = await production.api.post(`/auth/credentials/${wallet.emailCredentialId}/challenge`, {});
        expect(otpChallenge.status).toBe(200);
        const { encryptOtpCodeToBundle } = await import('@turnkey/crypto');
        const body = {
          type: 'EMAIL_OTP',
          encryptedOtpBundle: await encryptOtpCodeToBundle(codes[0], otpChallenge.body.otpEncryptionTargetBundle, key.publicKey, await prodClient.enclaveKey()),
        };
        const first = await production.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body);
        expect(first.status).toBe(202);
        const retry = await production.api.post(`/auth/credentials/${wallet.emailCredentialId}/verify`, body, {
          headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, key), 'request-id': first.body.requestId },
        });
        expect(retry.status).toBe(200);
        otp = { id: retry.body.id, authMethodId: retry.body.authMethodId, key, body: retry.body };
      } finally {
        spy.mockRestore();
      }
      const authenticator = new SoftwareAuthenticator();
      const added = await prodClient.addPasskey(wallet.accountId, authenticator, otp.key);
      expect(added.status).toBe(201);
      const challenge = await production.api.post(`/auth/credentials/${added.body.id}/challenge`, { clientPublicKey: newClientKey().publicKeyUncompressed });
      const verify = (assertion: unknown) =>
        production.api.post(`/auth/credentials/${added.body.id}/verify`, { type: 'PASSKEY', assertion }, { headers: { 'request-id': challenge.body.requestId } });
      // The fixed value as the spec gives it, and the fixed signature inside an otherwise genuine assertion.
      const legacy = await verify(LEGACY_ASSERTION);
      expect(legacy.status).toBe(401);
      expect(legacy.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'passkey credential id does not match the credential' } });
      const genuine = authenticator.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: challenge.body.challenge });
      const legacySignature = await verify({ ...genuine, signature: LEGACY_ASSERTION.signature });
      expect(legacySignature.status).toBe(401);
      expect(legacySignature.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'passkey signature is invalid' } });
      expect(logLines.some((line) => line.includes(added.body.id))).toBe(false);
      // Nothing was spent by the refusals: the genuine assertion still opens the session.
      expect((await verify(genuine)).status).toBe(200);
    });
  });

  describe('session expiry', () => {
    it('stops accepting a session key after expiresAt', async () => {
      const { wallet, passkeyId, authenticator } = await walletWithPasskey();
      const session = await client.passkeyLogin(passkeyId, authenticator);
      expect(Date.parse(session.body.expiresAt) - Date.parse(session.body.createdAt)).toBe(SESSION_TTL_SECONDS * 1000);
      // The platform's test clock passes the expiry: no waiting on real time.
      await advanceClock(t.api, SESSION_TTL_SECONDS + 1);
      const late = await client.signed('POST', `/auth/sessions/${session.id}/refresh`, { clientPublicKey: newClientKey().publicKeyUncompressed }, session.key);
      expect(late.status).toBe(404);
      const signedLate = await client.signed('POST', '/auth/credentials', { type: 'SMS_OTP', accountId: wallet.accountId, phoneNumber: '+14155550166' }, session.key);
      expect(signedLate.status).toBe(401);
      expect(signedLate.body).toMatchObject({ code: 'WALLET_SIGNATURE_INVALID', details: { reason: 'signing key is not an active session key of this account' } });
      const sessions = await t.api.get(`/auth/sessions?accountId=${wallet.accountId}`);
      expect(sessions.body.data.map((s: any) => s.id)).not.toContain(session.id);
    });
  });

  itWithBrowser(
    'registers and signs in with Chromium and its virtual authenticator, end to end',
    async () => {
      const wallet = await client.createWallet('chromium');
      const browser = await launchChromium();
      try {
        const context = await browser.newContext();
        const tab = await context.newPage();
        await tab.goto(`${pageOrigin}/`);
        const cdp = await context.newCDPSession(tab);
        await cdp.send('WebAuthn.enable');
        await cdp.send('WebAuthn.addVirtualAuthenticator', {
          options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
        });

        const registrationChallenge = `chromium-registration-${Date.now()}`;
        const attestationBytes = await tab.evaluate(
          async ({ challenge, rpId }) => {
            const bytes = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer));
            const credential = (await navigator.credentials.create({
              publicKey: {
                challenge: new TextEncoder().encode(challenge),
                rp: { id: rpId, name: 'Paykit wallet' },
                user: { id: new TextEncoder().encode('grace'), name: 'grace@example.com', displayName: 'Grace' },
                pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
                attestation: 'none',
              },
            })) as PublicKeyCredential;
            const response = credential.response as AuthenticatorAttestationResponse;
            return {
              credentialId: credential.id,
              clientDataJson: bytes(response.clientDataJSON),
              attestationObject: bytes(response.attestationObject),
              transports: response.getTransports(),
            };
          },
          { challenge: registrationChallenge, rpId: RP_ID },
        );
        const attestation = {
          ...attestationBytes,
          clientDataJson: b64url(attestationBytes.clientDataJson),
          attestationObject: b64url(attestationBytes.attestationObject),
        };

        // Sessions live SESSION_TTL_SECONDS here, and launching Chromium on a busy machine can take longer:
        // sign in only once the browser has produced the attestation.
        const otp = await client.otpLogin(wallet.emailCredentialId);
        const added = await client.signed(
          'POST',
          '/auth/credentials',
          { type: 'PASSKEY', accountId: wallet.accountId, nickname: 'Chromium', challenge: registrationChallenge, attestation },
          otp.key,
        );
        expect(added.status).toBe(201);
        expect(added.body.credentialId).toBe(attestation.credentialId);

        const clientKey = newClientKey();
        const challenge = await t.api.post(`/auth/credentials/${added.body.id}/challenge`, { clientPublicKey: clientKey.publicKeyUncompressed });
        const assertionBytes = await tab.evaluate(
          async ({ challenge: text, rpId, credentialId }) => {
            const bytes = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer));
            const credential = (await navigator.credentials.get({
              publicKey: {
                challenge: new TextEncoder().encode(text),
                rpId,
                allowCredentials: [{ type: 'public-key', id: new Uint8Array(credentialId) }],
                userVerification: 'preferred',
              },
            })) as PublicKeyCredential;
            const response = credential.response as AuthenticatorAssertionResponse;
            return {
              credentialId: credential.id,
              clientDataJson: bytes(response.clientDataJSON),
              authenticatorData: bytes(response.authenticatorData),
              signature: bytes(response.signature),
            };
          },
          { challenge: challenge.body.challenge, rpId: RP_ID, credentialId: [...Buffer.from(challenge.body.credentialId, 'base64url')] },
        );
        const assertion = {
          credentialId: assertionBytes.credentialId,
          clientDataJson: b64url(assertionBytes.clientDataJson),
          authenticatorData: b64url(assertionBytes.authenticatorData),
          signature: b64url(assertionBytes.signature),
        };

        const verify = await t.api.post(`/auth/credentials/${added.body.id}/verify`, { type: 'PASSKEY', assertion }, { headers: { 'request-id': challenge.body.requestId } });
        expect(verify.status).toBe(200);
        const session = client.openSealedSession(verify.body, clientKey);
        const refreshed = await client.signed('POST', `/auth/sessions/${session.id}/refresh`, { clientPublicKey: newClientKey().publicKeyUncompressed }, session.key);
        expect(refreshed.status).toBe(201);
      } finally {
        await browser.close();
      }
      // Launching Chromium on a loaded machine is part of this test.
    },
    90_000,
  );
});
