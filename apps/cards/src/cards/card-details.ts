import { createHash, createHmac, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

/**
 * The simulated issuer's card secrets. The card number and security code are never stored: they
 * derive from a random per-card seed (HMAC-SHA256), end in the card's last4 and pass the Luhn
 * check. They leave this service only on the reveal page, and are never logged.
 */
export function newDetailsSeed(): string {
  return randomBytes(32).toString('hex');
}

export function cardNumberAndCode(seed: string, cardId: string, last4: string): { pan: string; cvv: string } {
  const digest = createHmac('sha256', Buffer.from(seed, 'hex')).update(cardId).digest();
  // A 4-prefixed (VISA range) number: 1 + 10 derived digits + 1 check digit + last4 = 16 digits.
  const middle = Array.from(digest.subarray(0, 10), (byte) => String(byte % 10)).join('');
  const withoutCheck = `4${middle}0${last4}`;
  // The check digit sits 5th from the right, an undoubled Luhn position: it adds itself to the sum.
  const check = (10 - (luhnSum(withoutCheck) % 10)) % 10;
  const pan = `4${middle}${check}${last4}`;
  const cvv = Array.from(digest.subarray(10, 13), (byte) => String(byte % 10)).join('');
  return { pan, cvv };
}

export function luhnSum(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum;
}

/** The issuer keeps a static 3-D Secure password only as a salted scrypt hash (`scrypt$<salt>$<hash>`). */
export async function hashThreeDsPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('hex')}$${hash.toString('hex')}`;
}

export async function threeDsPasswordMatches(password: string, stored: string): Promise<boolean> {
  const [, salt, hash] = stored.split('$');
  const candidate = await scrypt(password, Buffer.from(salt, 'hex'), 32);
  return timingSafeEqual(candidate, Buffer.from(hash, 'hex'));
}

/** A password the issuer generates when the platform gives none (the cardholder never sees it). */
export function generatedThreeDsPassword(): string {
  return randomBytes(18).toString('base64url');
}

/** A reveal URL's token, and the only form of it that is stored. */
export function newRevealToken(): string {
  return randomBytes(32).toString('base64url');
}

export function revealTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
