import { ServiceError } from '@paykit/errors';

const UMA_ADDRESS = /^(\$[a-z0-9\-_.+]+)@([a-z0-9.-]+\.[a-z0-9-]+)$/;
const MAX_USERNAME_LENGTH = 64;

/**
 * The spec's UMA address rule (`$<username>@<domain>`, username of `a-z0-9-_.+`, at most 64
 * characters including `$`, case-insensitive): the lowercase address, or 400 INVALID_UMA_ADDRESS.
 */
export function parseUmaAddress(value: string, field: string): string {
  const address = value.trim().toLowerCase();
  const parts = UMA_ADDRESS.exec(address);
  const reason = !parts
    ? 'must look like $username@domain, the username made of a-z, 0-9, -, _, . and +'
    : parts[1].length > MAX_USERNAME_LENGTH
      ? `username must be at most ${MAX_USERNAME_LENGTH} characters including $`
      : undefined;
  if (reason) {
    throw new ServiceError('INVALID_UMA_ADDRESS', `${field} ${reason}`, { errors: [{ field, message: `${field} ${reason}`, constraint: { pattern: UMA_ADDRESS.source } }] });
  }
  return address;
}
