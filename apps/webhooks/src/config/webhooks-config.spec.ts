import { ConfigError, loadRuntimeConfig } from '@paykit/runtime';
import { loadWebhooksConfig } from './webhooks-config';

const sandbox = loadRuntimeConfig({ SANDBOX_TIME_SCALE: '0.001' }, 'embedded', []);
const production = loadRuntimeConfig({ DEPLOYMENT_ENV: 'production', SANDBOX_TIME_SCALE: '0.001' }, 'embedded', []);

describe(loadWebhooksConfig.name, () => {
  it('defaults to a 10 s timeout and retries over 7 days at most 30 minutes apart, scaled in the sandbox', () => {
    const config = loadWebhooksConfig({}, sandbox);
    expect(config).toMatchObject({
      deliveryTimeoutMs: 10_000,
      leaseMarginMs: 20_000,
      retryWindowMs: 7 * 24 * 3600 * 1000,
      maxRetryDelayMs: 30 * 60 * 1000,
      timeScale: 0.001,
      usingDevelopmentKey: true,
    });
    expect(config.keyEncryptionKey).toHaveLength(32);
  });

  it('keeps real time in production', () => {
    expect(loadWebhooksConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: 'ab'.repeat(32) }, production).timeScale).toBe(1);
  });

  it.each([
    ['hex', 'ab'.repeat(32)],
    ['base64', Buffer.alloc(32, 7).toString('base64')],
  ])('reads a %s key-encryption key', (_, value) => {
    const config = loadWebhooksConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: value }, sandbox);
    expect(config.usingDevelopmentKey).toBe(false);
    expect(config.keyEncryptionKey).toHaveLength(32);
  });

  it.each([
    ['no key-encryption key in production', {}, production, /WEBHOOK_KEY_ENCRYPTION_KEY is required in production/],
    ['a key of the wrong size', { WEBHOOK_KEY_ENCRYPTION_KEY: 'abcd' }, sandbox, /WEBHOOK_KEY_ENCRYPTION_KEY must be 32 bytes/],
    ['a timeout out of range', { WEBHOOK_DELIVERY_TIMEOUT_MS: '5' }, sandbox, /WEBHOOK_DELIVERY_TIMEOUT_MS must be an integer/],
    ['a lease margin under a second', { WEBHOOK_LEASE_MARGIN_MS: '10' }, sandbox, /WEBHOOK_LEASE_MARGIN_MS must be an integer/],
    ['a concurrency of 0', { WEBHOOK_MAX_CONCURRENCY_PER_PLATFORM: '0' }, sandbox, /WEBHOOK_MAX_CONCURRENCY_PER_PLATFORM/],
  ])('refuses %s, naming the variable', (_, env, runtime, message) => {
    expect(() => loadWebhooksConfig(env, runtime)).toThrow(ConfigError);
    expect(() => loadWebhooksConfig(env, runtime)).toThrow(message);
  });
});
