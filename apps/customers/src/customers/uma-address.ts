import { ServiceError } from '@paykit/errors';

const UMA_ADDRESS = /^(\$[a-z0-9\-_.+]+)@([a-z0-9.-]+)$/;
const MAX_USERNAME_LENGTH = 64;

/**
 * The spec's UMA address rule: `$<username>@<domain>`, username of `a-z0-9-_.+`, at most 64
 * characters including `$`, case-insensitive (kept lowercase), domain = the platform's UMA domain.
 * Returns the lowercase address or throws 400 INVALID_UMA_ADDRESS naming the broken rule.
 */
export function normaliseUmaAddress(value: string, umaDomain: string): string {
  const address = value.trim().toLowerCase();
  const fail = (reason: string): never => {
    throw new ServiceError('INVALID_UMA_ADDRESS', `umaAddress ${reason}`, {
      errors: [{ field: 'umaAddress', message: `umaAddress ${reason}`, constraint: { pattern: UMA_ADDRESS.source } }],
    });
  };
  const parts = UMA_ADDRESS.exec(address);
  if (!parts) return fail('must look like $username@domain, the username made of a-z, 0-9, -, _, . and +');
  if (parts[1].length > MAX_USERNAME_LENGTH) return fail(`username must be at most ${MAX_USERNAME_LENGTH} characters including $`);
  if (parts[2] !== umaDomain.toLowerCase()) return fail(`domain must be the platform's UMA domain (${umaDomain})`);
  return address;
}
