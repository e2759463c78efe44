import { ACCOUNT_FORMATS, AccountType, CORRIDORS, ExternalAccountWarning } from '@paykit/contracts';

/** IBAN length per country (ISO 13616 registry), for the countries this product accepts in EUR_ACCOUNT (SEPA). */
export const SEPA_IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/** ISO 7064 mod 97-10 over the rearranged IBAN (letters as 10..35): a valid IBAN leaves 1. */
export function isValidIbanChecksum(iban: string): boolean {
  if (!ACCOUNT_FORMATS.iban.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** ABA routing number check digit: 3-7-1 weights over the nine digits sum to a multiple of 10. */
export function isValidAbaRoutingNumber(routing: string): boolean {
  if (!ACCOUNT_FORMATS.routingNumber.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...routing].reduce((total, digit, i) => total + Number(digit) * weights[i], 0);
  return sum % 10 === 0;
}

/** CLABE control digit: weights 3-7-1 over the first 17 digits, (10 - sum mod 10) mod 10. */
export function isValidClabe(clabe: string): boolean {
  if (!ACCOUNT_FORMATS.clabe.test(clabe)) return false;
  const weights = [3, 7, 1];
  const sum = [...clabe.slice(0, 17)].reduce((total, digit, i) => total + ((Number(digit) * weights[i % 3]) % 10), 0);
  return (10 - (sum % 10)) % 10 === Number(clabe[17]);
}

interface CheckDigitRule {
  /** The shape the wire contract already enforces; a value of another shape is its error, not this one's. */
  shape: RegExp;
  isValid: (value: string) => boolean;
  description: string;
}

const ABA: CheckDigitRule = { shape: ACCOUNT_FORMATS.routingNumber, isValid: isValidAbaRoutingNumber, description: 'ABA check digit' };
const CLABE: CheckDigitRule = { shape: ACCOUNT_FORMATS.clabe, isValid: isValidClabe, description: 'CLABE control digit' };
const IBAN: CheckDigitRule = { shape: ACCOUNT_FORMATS.iban, isValid: isValidIbanChecksum, description: 'IBAN check digits (ISO 7064 mod 97)' };

/** The accountInfo fields that carry a check digit, by accountType (every `iban` field carries one). */
function checkDigitFields(accountType: AccountType): Record<string, CheckDigitRule> {
  const fields: Record<string, CheckDigitRule> = 'iban' in CORRIDORS[accountType].fields ? { iban: IBAN } : {};
  if (accountType === 'USD_ACCOUNT') Object.assign(fields, { routingNumber: ABA, intermediaryRoutingNumber: ABA });
  if (accountType === 'MXN_ACCOUNT') fields.clabeNumber = CLABE;
  return fields;
}

/**
 * A well-shaped identifier whose check digit is wrong, one warning per field. The reference API
 * accepts these values (its own examples fail some of these checks), so they never refuse a body.
 */
export function checkDigitWarnings(accountType: AccountType, info: Record<string, unknown>, prefix: string): ExternalAccountWarning[] {
  const warnings: ExternalAccountWarning[] = [];
  for (const [name, rule] of Object.entries(checkDigitFields(accountType))) {
    const value = info[name];
    if (typeof value !== 'string' || !rule.shape.test(value) || rule.isValid(value)) continue;
    const field = `${prefix}.${name}`;
    warnings.push({ field, message: `${field} fails the ${rule.description}: check it before sending money` });
  }
  return warnings;
}
