import { createHash } from 'node:crypto';
import {
  compactVerify,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  type CompactVerifyGetKey,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose';
import { Clock } from '@paykit/persistence';

/**
 * A fixed token value the sandbox once accepted in place of a JWT. It is refused everywhere now,
 * with a 401 rather than a 400, because clients still send it.
 */
export const RETIRED_SANDBOX_OIDC_TOKEN_LITERAL = 'sandbox-valid-oidc-token';

export const OIDC_MAX_TOKEN_AGE_SECONDS = 60;
export const OIDC_CLOCK_SKEW_SECONDS = 5;
// ID tokens are a few kilobytes at most; the bound keeps hostile input cheap to refuse.
const MAX_OIDC_TOKEN_LENGTH = 16_384;

// Asymmetric algorithms only: a shared-secret (HS*) or unsigned token can never prove the issuer signed it.
export const OIDC_ALLOWED_SIGNING_ALGORITHMS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** The `reason` strings returned with 401 UNAUTHORIZED, one per check. */
export const OIDC_TOKEN_FAILURE_REASONS = Object.freeze({
  retiredLiteral: 'OIDC token is a retired fixed literal, not a JWT',
  malformed: 'OIDC token is not a well-formed JWT',
  issuerUnsupported: 'OIDC token iss is not a supported issuer',
  audienceInvalid: 'OIDC token aud must be a non-empty string or a one-element string array',
  subjectInvalid: 'OIDC token sub must be a non-empty string',
  issuedAtInvalid: 'OIDC token iat must be a number',
  issuedAtTooOld: `OIDC token iat is more than ${OIDC_MAX_TOKEN_AGE_SECONDS} seconds old`,
  issuedAtInFuture: 'OIDC token iat is in the future',
  expirationInvalid: 'OIDC token exp must be a number',
  expired: 'OIDC token has expired',
  nonceMismatch: 'OIDC token nonce does not match SHA-256 of clientPublicKey',
  algorithmNotAllowed: 'OIDC token signing algorithm is not allowed',
  signingKeyNotFound: 'OIDC token signing key is not in the issuer key set',
  signatureInvalid: 'OIDC token signature is invalid',
  keySetUnavailable: 'OIDC issuer key set could not be retrieved',
  identityMismatch: 'OIDC token identity (iss, aud, sub) does not match the credential',
} as const);

export type OidcTokenFailureReason = (typeof OIDC_TOKEN_FAILURE_REASONS)[keyof typeof OIDC_TOKEN_FAILURE_REASONS];

/** MALFORMED maps to 400 INVALID_INPUT; UNAUTHORIZED to 401; KEY_SET_UNAVAILABLE is the issuer's outage, not the caller's fault. */
export type OidcTokenErrorKind = 'MALFORMED' | 'UNAUTHORIZED' | 'KEY_SET_UNAVAILABLE';

export class OidcTokenError extends Error {
  constructor(
    readonly kind: OidcTokenErrorKind,
    readonly reason: OidcTokenFailureReason,
  ) {
    super(reason);
    this.name = 'OidcTokenError';
  }
}

export interface OidcIssuerConfig {
  /** Exact `iss` value. */
  issuer: string;
  /** JWKS endpoint; required outside the sandbox unless a key-set resolver is injected. */
  jwksUri?: string;
}

/** What `createRemoteJWKSet` / `createLocalJWKSet` return. */
export type OidcKeySetGetter = CompactVerifyGetKey;
export type OidcKeySetResolver = (issuer: OidcIssuerConfig) => OidcKeySetGetter;

export interface OidcTokenVerifierOptions {
  supportedIssuers: readonly OidcIssuerConfig[];
  /** Sandbox skips the signature check (the signature segment may be a dummy); every claim rule still applies. */
  sandbox: boolean;
  /**
   * The time tokens are judged at: real time (`Clock.real`, the one clock's plumbing reading) by
   * default, since a token's lifetime is set by its issuer, not by a platform's test clock; tests pin it.
   */
  now?: () => Date;
  /** Replaces the remote JWKS fetch, e.g. with a local key set in tests. */
  keySetResolver?: OidcKeySetResolver;
}

export interface OidcIdentity {
  issuer: string;
  audience: string;
  subject: string;
}

export interface VerifiedOidcToken extends OidcIdentity {
  /** Becomes the credential nickname when present. */
  email?: string;
  issuedAt: number;
  expiresAt: number;
  nonce?: string;
}

export interface DecodedOidcToken {
  header: ProtectedHeaderParameters;
  claims: JWTPayload;
}

function unauthorized(reason: OidcTokenFailureReason): OidcTokenError {
  return new OidcTokenError('UNAUTHORIZED', reason);
}

/** The nonce a client must put in its token: lowercase hex SHA-256 of the exact clientPublicKey string. */
export function oidcNonceForClientPublicKey(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}

/** Decodes without verifying. The retired literal is a 401; anything else that is not a JWT is MALFORMED. */
export function decodeOidcToken(token: unknown): DecodedOidcToken {
  if (token === RETIRED_SANDBOX_OIDC_TOKEN_LITERAL) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.retiredLiteral);
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_OIDC_TOKEN_LENGTH || token.split('.').length !== 3) {
    throw new OidcTokenError('MALFORMED', OIDC_TOKEN_FAILURE_REASONS.malformed);
  }
  try {
    return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
  } catch {
    throw new OidcTokenError('MALFORMED', OIDC_TOKEN_FAILURE_REASONS.malformed);
  }
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function singleAudience(aud: unknown): string | undefined {
  if (isNonEmptyString(aud)) return aud;
  if (Array.isArray(aud) && aud.length === 1 && isNonEmptyString(aud[0])) return aud[0];
  return undefined;
}

function signatureFailureFrom(error: unknown): OidcTokenError {
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return unauthorized(OIDC_TOKEN_FAILURE_REASONS.algorithmNotAllowed);
  if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSMultipleMatchingKeys) {
    return unauthorized(OIDC_TOKEN_FAILURE_REASONS.signingKeyNotFound);
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWSInvalid) {
    return unauthorized(OIDC_TOKEN_FAILURE_REASONS.signatureInvalid);
  }
  if (error instanceof joseErrors.JOSENotSupported) return unauthorized(OIDC_TOKEN_FAILURE_REASONS.algorithmNotAllowed);
  // Timeouts, unreachable endpoints and unparseable key sets are the issuer's problem.
  return new OidcTokenError('KEY_SET_UNAVAILABLE', OIDC_TOKEN_FAILURE_REASONS.keySetUnavailable);
}

/** Default resolver: jose's remote key set (cached and rate-limited by jose) at the issuer's jwksUri. */
export const remoteKeySetResolver: OidcKeySetResolver = (issuerConfig) => {
  if (!issuerConfig.jwksUri) throw new OidcTokenError('KEY_SET_UNAVAILABLE', OIDC_TOKEN_FAILURE_REASONS.keySetUnavailable);
  return createRemoteJWKSet(new URL(issuerConfig.jwksUri));
};

/** Applies the spec's OIDC rules (sandbox and production) to registration and verification tokens. */
export class OidcTokenVerifier {
  private readonly issuersByName: ReadonlyMap<string, OidcIssuerConfig>;
  private readonly now: () => Date;
  private readonly keySetResolver: OidcKeySetResolver;
  private readonly keySets = new Map<string, OidcKeySetGetter>();

  constructor(private readonly options: OidcTokenVerifierOptions) {
    this.issuersByName = new Map(options.supportedIssuers.map((config) => [config.issuer, config]));
    this.now = options.now ?? (() => Clock.real());
    this.keySetResolver = options.keySetResolver ?? remoteKeySetResolver;
    if (!options.sandbox && !options.keySetResolver) {
      const withoutKeySet = options.supportedIssuers.find((config) => !config.jwksUri);
      if (withoutKeySet) throw new Error(`OIDC issuer ${withoutKeySet.issuer} has no jwksUri configured`);
    }
  }

  /** Token sent with POST /auth/credentials (OAUTH): identity and freshness. */
  async checkRegistrationToken(token: string): Promise<VerifiedOidcToken> {
    return this.check(token);
  }

  /**
   * Token sent with verify (OAUTH): additionally bound to clientPublicKey through its nonce, and,
   * when the credential's identity is given, to that identity.
   */
  async checkVerificationToken(token: string, clientPublicKey: string, credentialIdentity?: OidcIdentity): Promise<VerifiedOidcToken> {
    const verified = await this.check(token);
    const expectedNonce = oidcNonceForClientPublicKey(clientPublicKey);
    if (typeof verified.nonce !== 'string' || verified.nonce.toLowerCase() !== expectedNonce) {
      throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.nonceMismatch);
    }
    if (
      credentialIdentity &&
      (credentialIdentity.issuer !== verified.issuer || credentialIdentity.audience !== verified.audience || credentialIdentity.subject !== verified.subject)
    ) {
      throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.identityMismatch);
    }
    return verified;
  }

  private async check(token: string): Promise<VerifiedOidcToken> {
    const { claims } = decodeOidcToken(token);
    const issuerConfig = typeof claims.iss === 'string' ? this.issuersByName.get(claims.iss) : undefined;
    if (!issuerConfig) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.issuerUnsupported);
    // The issuer must be known before its key set can be chosen; every other claim is checked only on a signed token.
    if (!this.options.sandbox) await this.verifySignature(token, issuerConfig);

    const audience = singleAudience(claims.aud);
    if (audience === undefined) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.audienceInvalid);
    if (!isNonEmptyString(claims.sub)) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.subjectInvalid);

    const nowSeconds = this.now().getTime() / 1000;
    if (!isFiniteNumber(claims.iat)) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.issuedAtInvalid);
    if (claims.iat < nowSeconds - OIDC_MAX_TOKEN_AGE_SECONDS - OIDC_CLOCK_SKEW_SECONDS) {
      throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.issuedAtTooOld);
    }
    if (claims.iat > nowSeconds + OIDC_CLOCK_SKEW_SECONDS) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.issuedAtInFuture);
    if (!isFiniteNumber(claims.exp)) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.expirationInvalid);
    if (claims.exp <= nowSeconds) throw unauthorized(OIDC_TOKEN_FAILURE_REASONS.expired);

    const email = claims['email'];
    const nonce = claims['nonce'];
    return {
      issuer: issuerConfig.issuer,
      audience,
      subject: claims.sub,
      issuedAt: claims.iat,
      expiresAt: claims.exp,
      ...(typeof email === 'string' ? { email } : {}),
      ...(typeof nonce === 'string' ? { nonce } : {}),
    };
  }

  private async verifySignature(token: string, issuerConfig: OidcIssuerConfig): Promise<void> {
    try {
      await compactVerify(token, this.keySetFor(issuerConfig), { algorithms: [...OIDC_ALLOWED_SIGNING_ALGORITHMS] });
    } catch (error) {
      if (error instanceof OidcTokenError) throw error;
      throw signatureFailureFrom(error);
    }
  }

  private keySetFor(issuerConfig: OidcIssuerConfig): OidcKeySetGetter {
    const cached = this.keySets.get(issuerConfig.issuer);
    if (cached) return cached;
    const keySet = this.keySetResolver(issuerConfig);
    this.keySets.set(issuerConfig.issuer, keySet);
    return keySet;
  }
}
