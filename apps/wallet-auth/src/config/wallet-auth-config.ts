import { EnvReader, Env, RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { CallerContext, sandboxRulesApply } from '@paykit/contracts';
import type { OidcIssuerConfig } from '../crypto/oidc-token';

export const WALLET_AUTH_CONFIG = Symbol('WALLET_AUTH_CONFIG');

/** The wallet-auth service's own settings, read once at boot from the process's environment. */
export interface WalletAuthConfig {
  /** `sandbox` deployments honour the spec's magic values for sandbox tokens. */
  deployment: 'sandbox' | 'production';
  /** WebAuthn relying party: RP id and the origins allowed in clientDataJSON. */
  rpId: string;
  allowedOrigins: string[];
  /** Supported OIDC issuers and, outside the sandbox, their JWKS endpoints. */
  oidcIssuers: OidcIssuerConfig[];
  /** Optional fixed enclave key (hex); generated and kept in the database otherwise. */
  enclavePrivateKeyHex?: string;
  sessionTtlSeconds: number;
  signedRetryTtlSeconds: number;
  otpTtlSeconds: number;
  otpMaxAttempts: number;
  /** Minimum time between two OTP challenges of one credential (429 with Retry-After below it). */
  otpResendSeconds: number;
  passkeyChallengeTtlSeconds: number;
}

const DEFAULT_ISSUERS = 'https://accounts.google.com=https://www.googleapis.com/oauth2/v3/certs,https://appleid.apple.com=https://appleid.apple.com/auth/keys';

function parseIssuers(read: EnvReader, raw: string): OidcIssuerConfig[] {
  const issuers: OidcIssuerConfig[] = [];
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf('=');
    const issuer = separator === -1 ? entry : entry.slice(0, separator);
    const jwksUri = separator === -1 ? undefined : entry.slice(separator + 1);
    if (!issuer) read.problems.push(`WALLET_AUTH_OIDC_ISSUERS has an empty issuer in "${entry}"`);
    if (jwksUri !== undefined) {
      try {
        const url = new URL(jwksUri);
        if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('protocol');
      } catch {
        read.problems.push(`WALLET_AUTH_OIDC_ISSUERS: JWKS URI of ${issuer} must be an http(s) URL (got "${jwksUri}")`);
      }
    }
    issuers.push({ issuer, ...(jwksUri ? { jwksUri } : {}) });
  }
  if (issuers.length === 0) read.problems.push('WALLET_AUTH_OIDC_ISSUERS must name at least one issuer');
  return issuers;
}

export function loadWalletAuthConfig(env: Readonly<Env>, deployment: 'sandbox' | 'production'): WalletAuthConfig {
  const read = new EnvReader({ ...env });
  const origins = read
    .string('WALLET_AUTH_RP_ORIGINS', 'http://localhost,http://localhost:8080')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) read.problems.push(`WALLET_AUTH_RP_ORIGINS: "${origin}" is not an origin (scheme://host[:port])`);
  }
  const enclavePrivateKeyHex = read.optional('WALLET_AUTH_ENCLAVE_PRIVATE_KEY');
  if (enclavePrivateKeyHex !== undefined && !/^[0-9a-fA-F]{64}$/.test(enclavePrivateKeyHex)) {
    read.problems.push('WALLET_AUTH_ENCLAVE_PRIVATE_KEY must be 32 bytes of hex (a P-256 private key)');
  }
  const config: WalletAuthConfig = {
    deployment,
    rpId: read.string('WALLET_AUTH_RP_ID', 'localhost'),
    allowedOrigins: origins,
    oidcIssuers: parseIssuers(read, read.string('WALLET_AUTH_OIDC_ISSUERS', DEFAULT_ISSUERS)),
    enclavePrivateKeyHex: enclavePrivateKeyHex?.toLowerCase(),
    sessionTtlSeconds: read.number('WALLET_AUTH_SESSION_TTL_SECONDS', 900, { min: 1, max: 30 * 24 * 3600, integer: true }),
    signedRetryTtlSeconds: read.number('WALLET_AUTH_SIGNED_RETRY_TTL_SECONDS', 300, { min: 1, max: 3600, integer: true }),
    otpTtlSeconds: read.number('WALLET_AUTH_OTP_TTL_SECONDS', 600, { min: 1, max: 3600, integer: true }),
    otpMaxAttempts: read.number('WALLET_AUTH_OTP_MAX_ATTEMPTS', 5, { min: 1, max: 20, integer: true }),
    otpResendSeconds: read.number('WALLET_AUTH_OTP_RESEND_SECONDS', 30, { min: 0, max: 3600, integer: true }),
    passkeyChallengeTtlSeconds: read.number('WALLET_AUTH_PASSKEY_CHALLENGE_TTL_SECONDS', 300, { min: 1, max: 3600, integer: true }),
  };
  if (!/^[a-z0-9.-]+$/i.test(config.rpId)) read.problems.push('WALLET_AUTH_RP_ID must be a host name (e.g. wallet.example.com)');
  read.done();
  return config;
}

/** Nest provider: validated once at boot; a bad variable stops the service with a message naming it. */
export const walletAuthConfigProvider = {
  provide: WALLET_AUTH_CONFIG,
  inject: [RUNTIME_CONFIG],
  useFactory: (runtime: RuntimeConfig): WalletAuthConfig => loadWalletAuthConfig(runtime.env, runtime.deployment),
};

/**
 * The spec's sandbox magic values apply to sandbox tokens on a sandbox deployment only (the one
 * decision every service asks, `sandboxRulesApply`); a production token always gets the production checks.
 */
export function isSandboxCaller(config: WalletAuthConfig, ctx: CallerContext): boolean {
  return sandboxRulesApply(config.deployment, ctx);
}
