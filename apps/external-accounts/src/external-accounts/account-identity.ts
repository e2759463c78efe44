import { createHash } from 'node:crypto';
import { AccountInfo, CORRIDORS, sandboxSuffix } from '@paykit/contracts';

/** The field that names the destination (sandbox suffixes are read from it): the corridor's first identifier given. */
export function primaryIdentifier(info: AccountInfo): string {
  for (const field of CORRIDORS[info.accountType].identifiers) {
    const value = info[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

/**
 * The last three characters of the primary identifier; for `user@domain` identifiers (email
 * pix keys, UPI VPAs, Lightning addresses) those of the username part.
 */
export function identifierLast3(identifier: string): string {
  const at = identifier.indexOf('@');
  const significant = at >= 0 ? identifier.slice(0, at) : identifier;
  return sandboxSuffix(significant);
}

/** Same destination = same fingerprint (case-insensitive: emails, VPAs and addresses ignore case). */
export function destinationFingerprint(currency: string, info: AccountInfo): string {
  const parts = [info.accountType, currency, ...CORRIDORS[info.accountType].identifying.map((field) => (typeof info[field] === 'string' ? info[field] : '').toLowerCase())];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
