import { createHash } from 'node:crypto';
import { AccountInfo, AccountType, sandboxSuffix } from '@paykit/contracts';

/** The field that names the destination (sandbox suffixes are read from it). */
export function primaryIdentifier(info: AccountInfo): string {
  const text = (field: string) => {
    const value = info[field];
    return typeof value === 'string' ? value : '';
  };
  switch (info.accountType) {
    case 'MXN_ACCOUNT':
      return text('clabeNumber');
    case 'BRL_ACCOUNT':
      return text('pixKey');
    case 'EUR_ACCOUNT':
      return text('iban');
    case 'INR_ACCOUNT':
      return text('vpa');
    case 'LN_WALLET':
      return text('address');
    case 'SWIFT_ACCOUNT':
      return text('iban') || text('accountNumber');
    case 'COP_ACCOUNT':
    case 'SLV_ACCOUNT':
      return text('accountNumber') || text('phoneNumber');
    case 'KES_ACCOUNT':
    case 'TZS_ACCOUNT':
    case 'ZMW_ACCOUNT':
    case 'RWF_ACCOUNT':
    case 'MWK_ACCOUNT':
    case 'UGX_ACCOUNT':
    case 'XOF_ACCOUNT':
      return text('phoneNumber');
    case 'USD_ACCOUNT':
    case 'PHP_ACCOUNT':
    case 'GBP_ACCOUNT':
    case 'NGN_ACCOUNT':
    case 'ZAR_ACCOUNT':
    case 'CAD_ACCOUNT':
      return text('accountNumber');
  }
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

/** Fields that together name one destination, per accountType (beneficiary and labels excluded). */
const IDENTIFYING_FIELDS: Record<AccountType, string[]> = {
  USD_ACCOUNT: ['routingNumber', 'accountNumber'],
  MXN_ACCOUNT: ['clabeNumber'],
  BRL_ACCOUNT: ['pixKeyType', 'pixKey'],
  COP_ACCOUNT: ['bankName', 'accountNumber', 'phoneNumber'],
  SLV_ACCOUNT: ['bankName', 'accountNumber', 'phoneNumber'],
  EUR_ACCOUNT: ['iban'],
  PHP_ACCOUNT: ['bankName', 'accountNumber'],
  GBP_ACCOUNT: ['sortCode', 'accountNumber'],
  INR_ACCOUNT: ['vpa'],
  NGN_ACCOUNT: ['bankName', 'accountNumber'],
  ZAR_ACCOUNT: ['bankName', 'accountNumber'],
  KES_ACCOUNT: ['provider', 'phoneNumber'],
  TZS_ACCOUNT: ['provider', 'phoneNumber'],
  ZMW_ACCOUNT: ['provider', 'phoneNumber'],
  RWF_ACCOUNT: ['provider', 'phoneNumber'],
  MWK_ACCOUNT: ['provider', 'phoneNumber'],
  UGX_ACCOUNT: ['provider', 'phoneNumber'],
  XOF_ACCOUNT: ['provider', 'phoneNumber'],
  CAD_ACCOUNT: ['bankCode', 'branchCode', 'accountNumber'],
  SWIFT_ACCOUNT: ['swiftCode', 'iban', 'accountNumber'],
  LN_WALLET: ['address'],
};

/** Same destination = same fingerprint (case-insensitive: emails, VPAs and addresses ignore case). */
export function destinationFingerprint(currency: string, info: AccountInfo): string {
  const parts = [info.accountType, currency, ...IDENTIFYING_FIELDS[info.accountType].map((field) => (typeof info[field] === 'string' ? info[field] : '').toLowerCase())];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Identifiers masked in list responses: all but the last 4 characters become `*`. */
const MASKED_FIELDS = ['accountNumber', 'iban', 'clabeNumber'] as const;

export function maskAccountInfo(info: AccountInfo): AccountInfo {
  const masked: AccountInfo = { ...info };
  for (const field of MASKED_FIELDS) {
    const value = info[field];
    if (typeof value === 'string') masked[field] = value.length <= 4 ? value : '*'.repeat(value.length - 4) + value.slice(-4);
  }
  return masked;
}
