import { readFileSync } from 'node:fs';
import { FactoryProvider } from '@nestjs/common';
import { DiscoveryEntry } from '@paykit/contracts';
import { Env, EnvReader } from '@paykit/runtime';

export const EXTERNAL_ACCOUNTS_CONFIG = Symbol('EXTERNAL_ACCOUNTS_CONFIG');

export interface ExternalAccountsConfig {
  /**
   * The operator's discovery data (DISCOVERY_DATA_FILE, a JSON array of {bankName, displayName,
   * country, currency}): when given, it replaces the seeded sandbox lists at start.
   */
  discoveryEntries?: DiscoveryEntry[];
}

const FILE_VARIABLE = 'DISCOVERY_DATA_FILE';

function isEntry(value: unknown): value is DiscoveryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.bankName === 'string' &&
    entry.bankName !== '' &&
    typeof entry.displayName === 'string' &&
    entry.displayName !== '' &&
    typeof entry.country === 'string' &&
    /^[A-Z]{2}$/.test(entry.country) &&
    typeof entry.currency === 'string' &&
    /^[A-Z]{3}$/.test(entry.currency)
  );
}

export function loadExternalAccountsConfig(env: Env): ExternalAccountsConfig {
  const read = new EnvReader(env);
  const file = read.optional(FILE_VARIABLE);
  let discoveryEntries: DiscoveryEntry[] | undefined;
  if (file) {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      const bad = Array.isArray(parsed) ? parsed.findIndex((entry) => !isEntry(entry)) : 0;
      if (!Array.isArray(parsed) || bad >= 0) {
        read.problems.push(
          `${FILE_VARIABLE} must name a JSON array of {bankName, displayName, country (2 upper-case letters), currency (3 upper-case letters)} (entry ${bad} is not)`,
        );
      } else {
        discoveryEntries = (parsed as DiscoveryEntry[]).map(({ bankName, displayName, country, currency }) => ({ bankName, displayName, country, currency }));
      }
    } catch (error) {
      read.problems.push(`${FILE_VARIABLE} could not be read as JSON: ${(error as Error).message}`);
    }
  }
  read.done();
  return { discoveryEntries };
}

export const externalAccountsConfigProvider: FactoryProvider<ExternalAccountsConfig> = {
  provide: EXTERNAL_ACCOUNTS_CONFIG,
  useFactory: () => loadExternalAccountsConfig(process.env),
};
