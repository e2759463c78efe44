import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, UnsecuredJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type JWTPayload, type KeyLike } from 'jose';
import { generateP256KeyPair } from './p256';
import {
  OIDC_TOKEN_FAILURE_REASONS,
  OidcTokenError,
  OidcTokenVerifier,
  RETIRED_SANDBOX_OIDC_TOKEN_LITERAL,
  decodeOidcToken,
  oidcNonceForClientPublicKey,
  type OidcTokenErrorKind,
  type OidcTokenFailureReason,
} from './oidc-token';

const ISSUER = 'https://accounts.google.com';
const AUDIENCE = 'platform-client-id.apps.example.com';
const SUBJECT = '110169484474386276334';
const FIXED_NOW_SECONDS = 1_760_000_000;
const fixedNow = (): Date => new Date(FIXED_NOW_SECONDS * 1000);

function baseClaims(overrides: Record<string, unknown> = {}): JWTPayload {
  return {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: SUBJECT,
    email: 'ada@example.com',
    iat: FIXED_NOW_SECONDS - 10,
    exp: FIXED_NOW_SECONDS + 3600,
    ...overrides,
  };
}

/** JWT-shaped token with a dummy signature, as sandbox clients send. */
function sandboxToken(claims: JWTPayload, dummySignature = 'dummy-signature'): string {
  return new UnsecuredJWT(claims).encode() + dummySignature;
}

function withoutClaim(name: string): JWTPayload {
  const claims = baseClaims();
  delete claims[name];
  return claims;
}

async function expectOidcFailure(promise: Promise<unknown>, kind: OidcTokenErrorKind, reason: OidcTokenFailureReason): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(OidcTokenError);
  await expect(promise).rejects.toMatchObject({ kind, reason });
}

describe(OidcTokenVerifier.name, () => {
  const sandboxVerifier = new OidcTokenVerifier({ supportedIssuers: [{ issuer: ISSUER }], sandbox: true, now: fixedNow });

  describe('checkRegistrationToken (sandbox rules)', () => {
    it('accepts a JWT-shaped token with a dummy signature and returns its identity', async () => {
      await expect(sandboxVerifier.checkRegistrationToken(sandboxToken(baseClaims()))).resolves.toEqual({
        issuer: ISSUER,
        audience: AUDIENCE,
        subject: SUBJECT,
        email: 'ada@example.com',
        issuedAt: FIXED_NOW_SECONDS - 10,
        expiresAt: FIXED_NOW_SECONDS + 3600,
      });
      await expect(sandboxVerifier.checkRegistrationToken(sandboxToken(baseClaims(), ''))).resolves.toMatchObject({ subject: SUBJECT });
    });

    it('accepts aud as a one-element array', async () => {
      await expect(sandboxVerifier.checkRegistrationToken(sandboxToken(baseClaims({ aud: [AUDIENCE] })))).resolves.toMatchObject({
        audience: AUDIENCE,
      });
    });

    it('rejects the retired fixed literal token with a 401 reason, not a 400', async () => {
      await expectOidcFailure(sandboxVerifier.checkRegistrationToken(RETIRED_SANDBOX_OIDC_TOKEN_LITERAL), 'UNAUTHORIZED', OIDC_TOKEN_FAILURE_REASONS.retiredLiteral);
    });

    it.each([
      ['no dots', 'not-a-jwt'],
      ['two segments', 'abc.def'],
      ['four segments', 'a.b.c.d'],
      ['non-JSON header and payload', 'bm90LWpzb24.bm90LWpzb24.sig'],
      ['an empty string', ''],
    ])('rejects a token with %s as MALFORMED', async (_label, token) => {
      await expectOidcFailure(sandboxVerifier.checkRegistrationToken(token), 'MALFORMED', OIDC_TOKEN_FAILURE_REASONS.malformed);
    });

    it.each<[string, JWTPayload, OidcTokenFailureReason]>([
      ['missing iss', withoutClaim('iss'), OIDC_TOKEN_FAILURE_REASONS.issuerUnsupported],
      ['unsupported iss', baseClaims({ iss: 'https://evil.example.com' }), OIDC_TOKEN_FAILURE_REASONS.issuerUnsupported],
      ['missing aud', withoutClaim('aud'), OIDC_TOKEN_FAILURE_REASONS.audienceInvalid],
      ['empty aud', baseClaims({ aud: '' }), OIDC_TOKEN_FAILURE_REASONS.audienceInvalid],
      ['two-element aud', baseClaims({ aud: [AUDIENCE, 'other'] }), OIDC_TOKEN_FAILURE_REASONS.audienceInvalid],
      ['aud array with an empty string', baseClaims({ aud: [''] }), OIDC_TOKEN_FAILURE_REASONS.audienceInvalid],
      ['numeric aud', baseClaims({ aud: 7 }), OIDC_TOKEN_FAILURE_REASONS.audienceInvalid],
      ['missing sub', withoutClaim('sub'), OIDC_TOKEN_FAILURE_REASONS.subjectInvalid],
      ['empty sub', baseClaims({ sub: '' }), OIDC_TOKEN_FAILURE_REASONS.subjectInvalid],
      ['missing iat', withoutClaim('iat'), OIDC_TOKEN_FAILURE_REASONS.issuedAtInvalid],
      ['string iat', baseClaims({ iat: String(FIXED_NOW_SECONDS) }), OIDC_TOKEN_FAILURE_REASONS.issuedAtInvalid],
      ['iat 66 s old', baseClaims({ iat: FIXED_NOW_SECONDS - 66 }), OIDC_TOKEN_FAILURE_REASONS.issuedAtTooOld],
      ['iat 6 s in the future', baseClaims({ iat: FIXED_NOW_SECONDS + 6 }), OIDC_TOKEN_FAILURE_REASONS.issuedAtInFuture],
      ['missing exp', withoutClaim('exp'), OIDC_TOKEN_FAILURE_REASONS.expirationInvalid],
      ['string exp', baseClaims({ exp: 'tomorrow' }), OIDC_TOKEN_FAILURE_REASONS.expirationInvalid],
      ['exp equal to now', baseClaims({ exp: FIXED_NOW_SECONDS }), OIDC_TOKEN_FAILURE_REASONS.expired],
      ['exp in the past', baseClaims({ exp: FIXED_NOW_SECONDS - 1 }), OIDC_TOKEN_FAILURE_REASONS.expired],
    ])('rejects a token with %s', async (_label, claims, reason) => {
      await expectOidcFailure(sandboxVerifier.checkRegistrationToken(sandboxToken(claims)), 'UNAUTHORIZED', reason);
    });

    it.each([
      ['iat 60 s old', FIXED_NOW_SECONDS - 60],
      ['iat 65 s old (within the 5 s skew)', FIXED_NOW_SECONDS - 65],
      ['iat 5 s in the future (within the skew)', FIXED_NOW_SECONDS + 5],
    ])('accepts a token with %s', async (_label, iat) => {
      await expect(sandboxVerifier.checkRegistrationToken(sandboxToken(baseClaims({ iat })))).resolves.toMatchObject({ issuedAt: iat });
    });

    it('reads time from the injected clock', async () => {
      const token = sandboxToken(baseClaims());
      const laterVerifier = new OidcTokenVerifier({
        supportedIssuers: [{ issuer: ISSUER }],
        sandbox: true,
        now: () => new Date((FIXED_NOW_SECONDS + 120) * 1000),
      });
      await expectOidcFailure(laterVerifier.checkRegistrationToken(token), 'UNAUTHORIZED', OIDC_TOKEN_FAILURE_REASONS.issuedAtTooOld);
    });
  });

  describe('checkVerificationToken (sandbox rules)', () => {
    const clientPublicKey = generateP256KeyPair().publicKeyUncompressedHex;

    it('accepts a token whose nonce is SHA-256 hex of the exact clientPublicKey', async () => {
      const token = sandboxToken(baseClaims({ nonce: oidcNonceForClientPublicKey(clientPublicKey) }));
      await expect(sandboxVerifier.checkVerificationToken(token, clientPublicKey)).resolves.toMatchObject({ subject: SUBJECT });
    });

    it.each<[string, Record<string, unknown>]>([
      ['missing', {}],
      ['of another key', { nonce: oidcNonceForClientPublicKey(generateP256KeyPair().publicKeyUncompressedHex) }],
      ['of the key in other letter case', { nonce: oidcNonceForClientPublicKey(clientPublicKey.toUpperCase()) }],
      ['the raw key instead of its hash', { nonce: clientPublicKey }],
    ])('rejects a nonce that is %s', async (_label, nonceClaim) => {
      const token = sandboxToken(baseClaims(nonceClaim));
      await expectOidcFailure(sandboxVerifier.checkVerificationToken(token, clientPublicKey), 'UNAUTHORIZED', OIDC_TOKEN_FAILURE_REASONS.nonceMismatch);
    });

    it('checks the credential identity when given', async () => {
      const token = sandboxToken(baseClaims({ nonce: oidcNonceForClientPublicKey(clientPublicKey) }));
      const identity = { issuer: ISSUER, audience: AUDIENCE, subject: SUBJECT };
      await expect(sandboxVerifier.checkVerificationToken(token, clientPublicKey, identity)).resolves.toMatchObject(identity);
      await expectOidcFailure(
        sandboxVerifier.checkVerificationToken(token, clientPublicKey, { ...identity, subject: 'someone-else' }),
        'UNAUTHORIZED',
        OIDC_TOKEN_FAILURE_REASONS.identityMismatch,
      );
    });
  });

  describe('signature verification outside the sandbox', () => {
    const KEY_ID = 'issuer-key-1';
    let issuerPrivateKey: KeyLike;
    let publishedJwk: JWK;
    let jwksServer: Server;
    let jwksUri: string;
    let jwksRequestCount = 0;

    beforeAll(async () => {
      const keyPair = await generateKeyPair('ES256');
      issuerPrivateKey = keyPair.privateKey;
      publishedJwk = { ...(await exportJWK(keyPair.publicKey)), kid: KEY_ID, alg: 'ES256', use: 'sig' };
      jwksServer = createServer((request, response) => {
        jwksRequestCount += 1;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ keys: [publishedJwk] }));
      });
      await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
      jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
    });

    function productionVerifier(): OidcTokenVerifier {
      return new OidcTokenVerifier({ supportedIssuers: [{ issuer: ISSUER, jwksUri }], sandbox: false });
    }

    function liveClaims(overrides: Record<string, unknown> = {}): JWTPayload {
      const nowSeconds = Math.floor(Date.now() / 1000);
      return baseClaims({ iat: nowSeconds, exp: nowSeconds + 600, ...overrides });
    }

    async function signedToken(claims: JWTPayload, key: KeyLike = issuerPrivateKey, kid = KEY_ID): Promise<string> {
      return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(key);
    }

    it('accepts a token signed by a key from the issuer JWKS served over loopback', async () => {
      const before = jwksRequestCount;
      await expect(productionVerifier().checkRegistrationToken(await signedToken(liveClaims()))).resolves.toMatchObject({ subject: SUBJECT });
      expect(jwksRequestCount).toBeGreaterThan(before);
    });

    it('still applies the claim rules to a correctly signed token', async () => {
      const nowSeconds = Math.floor(Date.now() / 1000);
      const token = await signedToken(liveClaims({ iat: nowSeconds - 600, exp: nowSeconds - 1 }));
      await expectOidcFailure(productionVerifier().checkRegistrationToken(token), 'UNAUTHORIZED', OIDC_TOKEN_FAILURE_REASONS.issuedAtTooOld);
    });

    it('rejects a dummy signature', async () => {
      await expectOidcFailure(
        productionVerifier().checkRegistrationToken(sandboxToken(liveClaims()).replace(/^[^.]+/, 'eyJhbGciOiJFUzI1NiIsImtpZCI6Imlzc3Vlci1rZXktMSJ9')),
        'UNAUTHORIZED',
        OIDC_TOKEN_FAILURE_REASONS.signatureInvalid,
      );
    });

    it('rejects a token signed by another key under the published key id', async () => {
      const impostor = await generateKeyPair('ES256');
      await expectOidcFailure(
        productionVerifier().checkRegistrationToken(await signedToken(liveClaims(), impostor.privateKey)),
        'UNAUTHORIZED',
        OIDC_TOKEN_FAILURE_REASONS.signatureInvalid,
      );
    });

    it('rejects a token whose key id is not in the key set', async () => {
      const impostor = await generateKeyPair('ES256');
      await expectOidcFailure(
        productionVerifier().checkRegistrationToken(await signedToken(liveClaims(), impostor.privateKey, 'unknown-kid')),
        'UNAUTHORIZED',
        OIDC_TOKEN_FAILURE_REASONS.signingKeyNotFound,
      );
    });

    it('rejects unsigned and shared-secret tokens', async () => {
      await expectOidcFailure(productionVerifier().checkRegistrationToken(new UnsecuredJWT(liveClaims()).encode()), 'UNAUTHORIZED', OIDC_TOKEN_FAILURE_REASONS.algorithmNotAllowed);
      const hmacToken = await new SignJWT(liveClaims()).setProtectedHeader({ alg: 'HS256', kid: KEY_ID }).sign(new Uint8Array(32).fill(7));
      await expectOidcFailure(productionVerifier().checkRegistrationToken(hmacToken), 'UNAUTHORIZED', OIDC_TOKEN_FAILURE_REASONS.algorithmNotAllowed);
    });

    it('verifies the nonce of a signed verification token', async () => {
      const clientPublicKey = generateP256KeyPair().publicKeyUncompressedHex;
      const token = await signedToken(liveClaims({ nonce: oidcNonceForClientPublicKey(clientPublicKey) }));
      await expect(productionVerifier().checkVerificationToken(token, clientPublicKey)).resolves.toMatchObject({ subject: SUBJECT });
    });

    it('reports an unreachable key set as KEY_SET_UNAVAILABLE', async () => {
      const closedServer = createServer();
      await new Promise<void>((resolve) => closedServer.listen(0, '127.0.0.1', resolve));
      const closedPort = (closedServer.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closedServer.close(() => resolve()));
      const verifier = new OidcTokenVerifier({
        supportedIssuers: [{ issuer: ISSUER, jwksUri: `http://127.0.0.1:${closedPort}/jwks` }],
        sandbox: false,
      });
      await expectOidcFailure(verifier.checkRegistrationToken(await signedToken(liveClaims())), 'KEY_SET_UNAVAILABLE', OIDC_TOKEN_FAILURE_REASONS.keySetUnavailable);
    });

    it('uses an injected key-set getter instead of fetching', async () => {
      const resolvedIssuers: string[] = [];
      const verifier = new OidcTokenVerifier({
        supportedIssuers: [{ issuer: ISSUER }],
        sandbox: false,
        keySetResolver: (issuerConfig) => {
          resolvedIssuers.push(issuerConfig.issuer);
          return createLocalJWKSet({ keys: [publishedJwk] });
        },
      });
      await expect(verifier.checkRegistrationToken(await signedToken(liveClaims()))).resolves.toMatchObject({ subject: SUBJECT });
      await expect(verifier.checkRegistrationToken(await signedToken(liveClaims()))).resolves.toMatchObject({ subject: SUBJECT });
      expect(resolvedIssuers).toEqual([ISSUER]);
    });

    it('refuses to start outside the sandbox without a JWKS URL for every issuer', () => {
      expect(() => new OidcTokenVerifier({ supportedIssuers: [{ issuer: ISSUER }], sandbox: false })).toThrow(/jwksUri/);
    });
  });
});

describe(decodeOidcToken.name, () => {
  it('returns header and claims without verifying', () => {
    const decoded = decodeOidcToken(sandboxToken(baseClaims()));
    expect(decoded.header.alg).toBe('none');
    expect(decoded.claims.sub).toBe(SUBJECT);
  });

  it('treats non-strings as MALFORMED', () => {
    expect(() => decodeOidcToken(42)).toThrow(OidcTokenError);
  });
});

describe(oidcNonceForClientPublicKey.name, () => {
  it('is lowercase SHA-256 hex of the UTF-8 string', () => {
    expect(oidcNonceForClientPublicKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
