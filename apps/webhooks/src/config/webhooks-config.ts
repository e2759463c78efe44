import { createHash } from 'node:crypto';
import { FactoryProvider, Logger } from '@nestjs/common';
import { Env, EnvReader, RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { GUIDE_RETRY_POLICY } from '../deliveries/retry-schedule';

export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');

export interface WebhooksConfig {
  /** AES-256 key that seals every platform's signing private key at rest. */
  keyEncryptionKey: Buffer;
  /** True when no key was configured and the fixed sandbox development key is in use. */
  usingDevelopmentKey: boolean;
  /** How long one delivery attempt may take (connect, headers and body). */
  deliveryTimeoutMs: number;
  /**
   * How long an attempt's lease outlives its timeout, time to record the outcome. An attempt cut
   * off by a crash is made again once its lease expires: after the timeout plus this margin.
   */
  leaseMarginMs: number;
  /** Attempts in flight per platform (across replicas), so one slow receiver never holds the others up. */
  maxConcurrencyPerPlatform: number;
  /** Attempts in flight per process. */
  maxConcurrency: number;
  /** How long a failing delivery is retried, 7 days (scaled by SANDBOX_TIME_SCALE in the sandbox). */
  retryWindowMs: number;
  /** First retry delay, 1 minute; doubles on every failure (with jitter), capped by `maxRetryDelayMs` (30 minutes). */
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** Multiplies the retry schedule (SANDBOX_TIME_SCALE in a sandbox deployment, 1 in production). */
  timeScale: number;
}

const KEY_VARIABLE = 'WEBHOOK_KEY_ENCRYPTION_KEY';
/**
 * Sandbox deployments without a configured key use this well-known one, so `npm start` works on a
 * fresh clone; it protects nothing and the service says so at start. Production refuses to start without a key.
 */
const DEVELOPMENT_KEY = createHash('sha256').update('paykit sandbox webhook signing keys: not a secret').digest();

/** The webhooks service's own settings; the shared ones come from the runtime config. */
export function loadWebhooksConfig(env: Env, runtime: RuntimeConfig): WebhooksConfig {
  const read = new EnvReader(env);
  const rawKey = read.optional(KEY_VARIABLE);
  let keyEncryptionKey = DEVELOPMENT_KEY;
  if (rawKey) {
    const decoded = /^[0-9a-fA-F]{64}$/.test(rawKey) ? Buffer.from(rawKey, 'hex') : Buffer.from(rawKey, 'base64');
    if (decoded.length !== 32) read.problems.push(`${KEY_VARIABLE} must be 32 bytes, as 64 hex characters or base64`);
    else keyEncryptionKey = decoded;
  } else if (runtime.deployment === 'production') {
    read.problems.push(`${KEY_VARIABLE} is required in production (32 bytes, hex or base64): it encrypts the webhook signing keys at rest`);
  }
  const config: WebhooksConfig = {
    keyEncryptionKey,
    usingDevelopmentKey: !rawKey,
    deliveryTimeoutMs: read.number('WEBHOOK_DELIVERY_TIMEOUT_MS', 10_000, { min: 100, max: 60_000, integer: true }),
    leaseMarginMs: read.number('WEBHOOK_LEASE_MARGIN_MS', 20_000, { min: 1000, max: 600_000, integer: true }),
    maxConcurrencyPerPlatform: read.number('WEBHOOK_MAX_CONCURRENCY_PER_PLATFORM', 32, { min: 1, max: 1000, integer: true }),
    maxConcurrency: read.number('WEBHOOK_MAX_CONCURRENCY', 256, { min: 1, max: 10_000, integer: true }),
    ...GUIDE_RETRY_POLICY,
    timeScale: runtime.deployment === 'sandbox' ? runtime.sandboxTimeScale : 1,
  };
  read.done();
  return config;
}

/** The Nest provider of the validated config; warns once when the development key is in use. */
export const webhooksConfigProvider: FactoryProvider<WebhooksConfig> = {
  provide: WEBHOOKS_CONFIG,
  inject: [RUNTIME_CONFIG],
  useFactory: (runtime: RuntimeConfig) => {
    const config = loadWebhooksConfig(runtime.env, runtime);
    if (config.usingDevelopmentKey) {
      new Logger('WebhooksConfig').warn(`${KEY_VARIABLE} is not set: webhook signing keys are sealed with the sandbox development key`);
    }
    return config;
  },
};
