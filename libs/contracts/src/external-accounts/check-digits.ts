import { FieldConstraint } from '@paykit/errors';
import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';
import { ACCOUNT_FORMATS } from './formats';

/** IBAN length per country (ISO 13616 registry), for the countries this product accepts in EUR_ACCOUNT (SEPA). */
export const SEPA_IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27, GB: 22, GI: 23,
  GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18, NO: 15, PL: 28,
  PT: 25, RO: 24, SE: 24, SI: 19, SK: 24, SM: 27, VA: 22,
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

function withConstraint(options: ValidationOptions | undefined, constraint: FieldConstraint): ValidationOptions {
  return { ...options, context: { ...(options?.context as object), constraint } };
}

/**
 * A check-digit rule. `shape` is the format rule reported by its own decorator: a value of the
 * wrong shape is left to it, so one field gets one error naming the rule it broke.
 */
function checkDigitRule(name: string, format: string, test: (value: string) => boolean, description: string, shape?: RegExp): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value) => typeof value === 'string' && ((shape !== undefined && !shape.test(value)) || test(value)),
        defaultMessage: buildMessage((each) => `${each}$property must be ${description}`),
      },
    },
    withConstraint(undefined, { format }),
  );
}

export const IsIban = () => checkDigitRule('isIban', 'iban', isValidIbanChecksum, 'an IBAN (electronic format, no spaces) with a valid check digit');
export const IsAbaRoutingNumber = () =>
  checkDigitRule('isAbaRoutingNumber', 'aba-routing-number', isValidAbaRoutingNumber, 'a 9-digit ABA routing number with a valid check digit', ACCOUNT_FORMATS.routingNumber);
export const IsClabe = () => checkDigitRule('isClabe', 'clabe', isValidClabe, 'an 18-digit CLABE with a valid control digit', ACCOUNT_FORMATS.clabe);
