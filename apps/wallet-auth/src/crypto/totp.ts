import { createHmac, timingSafeEqual } from 'node:crypto';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what authenticator apps read from an otpauth:// URI). */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return output;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const character of clean) {
    const index = BASE32_ALPHABET.indexOf(character);
    if (index < 0) throw new Error('Not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** The RFC 6238 time step holding `at`. */
export function totpTimeStep(at: Date, periodSeconds = TOTP_PERIOD_SECONDS): number {
  return Math.floor(at.getTime() / 1000 / periodSeconds);
}

/** RFC 6238 (HMAC-SHA1, RFC 4226 dynamic truncation) for the time step holding `at`. */
export function totpCode(secret: Uint8Array, at: Date, digits = TOTP_DIGITS, periodSeconds = TOTP_PERIOD_SECONDS): string {
  const message = Buffer.alloc(8);
  message.writeUInt32BE(Math.floor(totpTimeStep(at, periodSeconds) / 2 ** 32), 0);
  message.writeUInt32BE(totpTimeStep(at, periodSeconds) % 2 ** 32, 4);
  const hmac = createHmac('sha1', secret).update(message).digest();
  const offset = hmac[hmac.length - 1] & 0x0f;
  const binary = ((hmac[offset] & 0x7f) << 24) | (hmac[offset + 1] << 16) | (hmac[offset + 2] << 8) | hmac[offset + 3];
  return (binary % 10 ** digits).toString().padStart(digits, '0');
}

/**
 * The time step whose code `code` is, among the current step and one either side (clock drift);
 * undefined when it is none of them. The caller accepts each step once (RFC 6238 §5.2).
 */
export function totpMatchedStep(secret: Uint8Array, code: string, now: Date): number | undefined {
  for (const offset of [0, -1, 1]) {
    const at = new Date(now.getTime() + offset * TOTP_PERIOD_SECONDS * 1000);
    const expected = Buffer.from(totpCode(secret, at));
    const given = Buffer.from(code);
    if (expected.length === given.length && timingSafeEqual(expected, given)) return totpTimeStep(at);
  }
  return undefined;
}
