import { ConfigError } from '@paykit/runtime';
import { isSandboxCaller, loadWalletAuthConfig } from './wallet-auth-config';

describe('wallet-auth config', () => {
  describe(loadWalletAuthConfig.name, () => {
    it('has working defaults', () => {
      const config = loadWalletAuthConfig({}, 'sandbox');
      expect(config).toMatchObject({ rpId: 'localhost', sessionTtlSeconds: 900, signedRetryTtlSeconds: 300, otpMaxAttempts: 5, otpResendSeconds: 30 });
      expect(config.oidcIssuers.map((issuer) => issuer.issuer)).toEqual(['https://accounts.google.com', 'https://appleid.apple.com']);
      expect(config.oidcIssuers.every((issuer) => issuer.jwksUri)).toBe(true);
    });

    it('reads issuers with and without a JWKS URI', () => {
      const config = loadWalletAuthConfig({ WALLET_AUTH_OIDC_ISSUERS: 'https://a.example=https://a.example/jwks, https://b.example' }, 'sandbox');
      expect(config.oidcIssuers).toEqual([{ issuer: 'https://a.example', jwksUri: 'https://a.example/jwks' }, { issuer: 'https://b.example' }]);
    });

    it.each<[string, Record<string, string>, RegExp]>([
      ['a bad origin', { WALLET_AUTH_RP_ORIGINS: 'localhost:3000' }, /WALLET_AUTH_RP_ORIGINS/],
      ['a bad enclave key', { WALLET_AUTH_ENCLAVE_PRIVATE_KEY: 'abc' }, /WALLET_AUTH_ENCLAVE_PRIVATE_KEY/],
      ['a bad JWKS URI', { WALLET_AUTH_OIDC_ISSUERS: 'https://a.example=ftp://x' }, /JWKS URI/],
      ['a non-integer TTL', { WALLET_AUTH_SESSION_TTL_SECONDS: '1.5' }, /WALLET_AUTH_SESSION_TTL_SECONDS/],
      ['a bad RP id', { WALLET_AUTH_RP_ID: 'https://x' }, /WALLET_AUTH_RP_ID/],
    ])('stops on %s, naming the variable', (_label, env, message) => {
      expect(() => loadWalletAuthConfig(env, 'sandbox')).toThrow(ConfigError);
      expect(() => loadWalletAuthConfig(env, 'sandbox')).toThrow(message);
    });
  });

  describe(isSandboxCaller.name, () => {
    it.each<['sandbox' | 'production', 'sandbox' | 'production', boolean]>([
      ['sandbox', 'sandbox', true],
      ['sandbox', 'production', false],
      ['production', 'production', false],
      ['production', 'sandbox', false],
    ])('deployment %s, token %s: %s', (deployment, environment, expected) => {
      const config = loadWalletAuthConfig({}, deployment);
      expect(isSandboxCaller(config, { platformId: 'p', environment, requestId: 'r' })).toBe(expected);
    });
  });
});
