import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FactoryProvider, Logger, Module } from '@nestjs/common';
import { Env, EnvReader, RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';

export const PAYMENTS_CONFIG = Symbol('PAYMENTS_CONFIG');

/** The payments service's own settings, read once at boot. */
export interface PaymentsConfig {
  /**
   * An operator's rate table (JSON, the shape of `DEFAULT_RATE_TABLE` in
   * exchange-rates/rate-table.ts), from `FX_RATE_TABLE` or the file `FX_RATE_TABLE_FILE`;
   * undefined keeps the built-in sandbox table. Parsed and checked by the exchange-rates feature.
   */
  rateTableJson?: { source: string; text: string };
  /** An operator's directory (UMA providers, VASPs, network fees) from the file DIRECTORY_FILE; undefined keeps the sandbox one. */
  directoryJson?: { source: string; text: string };
  /** How long a quote's rate and fees stay locked. */
  quoteValiditySeconds: number;
  /** How long an incoming payment waits for the platform's decision before it is rejected. */
  incomingApprovalWindowSeconds: number;
  /** Seals stablecoin provider credentials at rest (AES-256-GCM, bound to the platform id). */
  keyEncryptionKey: Buffer;
  usingDevelopmentKey: boolean;
}

const KEY_VARIABLE = 'PAYMENTS_KEY_ENCRYPTION_KEY';
/**
 * Sandbox deployments without a configured key use this well-known one, so `npm start` works on a
 * fresh clone; it protects nothing and the service says so at start. Production refuses to start without a key.
 */
const DEVELOPMENT_KEY = createHash('sha256').update('paykit sandbox stablecoin provider credentials: not a secret').digest();

export function loadPaymentsConfig(env: Env, deployment: RuntimeConfig['deployment']): PaymentsConfig {
  const read = new EnvReader(env);
  const rawKey = read.optional(KEY_VARIABLE);
  let keyEncryptionKey = DEVELOPMENT_KEY;
  if (rawKey) {
    const decoded = /^[0-9a-fA-F]{64}$/.test(rawKey) ? Buffer.from(rawKey, 'hex') : Buffer.from(rawKey, 'base64');
    if (decoded.length !== 32) read.problems.push(`${KEY_VARIABLE} must be 32 bytes, as 64 hex characters or base64`);
    else keyEncryptionKey = decoded;
  } else if (deployment === 'production') {
    read.problems.push(`${KEY_VARIABLE} is required in production (32 bytes, hex or base64): it encrypts stablecoin provider credentials at rest`);
  }
  const inline = read.optional('FX_RATE_TABLE');
  const file = read.optional('FX_RATE_TABLE_FILE');
  let rateTableJson: PaymentsConfig['rateTableJson'];
  if (inline && file) read.problems.push('FX_RATE_TABLE and FX_RATE_TABLE_FILE are exclusive: set one');
  else if (inline) rateTableJson = { source: 'FX_RATE_TABLE', text: inline };
  else if (file) {
    try {
      rateTableJson = { source: `FX_RATE_TABLE_FILE (${file})`, text: readFileSync(file, 'utf8') };
    } catch (error) {
      read.problems.push(`FX_RATE_TABLE_FILE cannot be read: ${(error as Error).message}`);
    }
  }
  const directoryFile = read.optional('DIRECTORY_FILE');
  let directoryJson: PaymentsConfig['directoryJson'];
  if (directoryFile) {
    try {
      directoryJson = { source: `DIRECTORY_FILE (${directoryFile})`, text: readFileSync(directoryFile, 'utf8') };
    } catch (error) {
      read.problems.push(`DIRECTORY_FILE cannot be read: ${(error as Error).message}`);
    }
  }
  const config: PaymentsConfig = {
    rateTableJson,
    directoryJson,
    quoteValiditySeconds: read.number('QUOTE_VALIDITY_SECONDS', 300, { min: 1, max: 86_400, integer: true }),
    incomingApprovalWindowSeconds: read.number('INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS', 300, { min: 1, max: 86_400, integer: true }),
    keyEncryptionKey,
    usingDevelopmentKey: !rawKey,
  };
  read.done();
  return config;
}

export const paymentsConfigProvider: FactoryProvider<PaymentsConfig> = {
  provide: PAYMENTS_CONFIG,
  inject: [RUNTIME_CONFIG],
  useFactory: (runtime: RuntimeConfig) => {
    const config = loadPaymentsConfig(runtime.env, runtime.deployment);
    if (config.usingDevelopmentKey) new Logger('PaymentsConfig').warn(`${KEY_VARIABLE} is not set: stablecoin provider credentials are sealed with the sandbox development key`);
    return config;
  },
};

/** The service's validated configuration, for the features that read it. */
@Module({ providers: [paymentsConfigProvider], exports: [PAYMENTS_CONFIG] })
export class PaymentsConfigModule {}
