import { createHash } from 'node:crypto';
import { convertToUncompressed, HpkeError, HpkeSealed, hpkeSealBase } from './hpke';
import { TURNKEY_HPKE_INFO, turnkeyHpkeAdditionalData } from './otp-bundle';
import { decodeP256PrivateKeyHex, isHexString } from './p256';

export type SessionBundleErrorKind = 'INVALID_CLIENT_PUBLIC_KEY' | 'INVALID_SESSION_PRIVATE_KEY';

export class SessionBundleError extends Error {
  constructor(
    readonly kind: SessionBundleErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SessionBundleError';
  }
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58CHECK_CHECKSUM_BYTES = 4;

function doubleSha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest();
}

// Five base-58 digits per limb: a limb times 256 plus a carry stays an exact double (< 2^53).
const BASE58_DIGITS_PER_LIMB = 5;
const BASE58_LIMB = 58 ** BASE58_DIGITS_PER_LIMB;

function encodeBase58(bytes: Uint8Array): string {
  // Each leading zero byte is written as the first alphabet letter; the rest is a big-endian number,
  // converted by long division in base-58^5 limbs (BigInt division costs several times more).
  let leadingZeroCount = 0;
  while (leadingZeroCount < bytes.length && bytes[leadingZeroCount] === 0) leadingZeroCount += 1;
  const limbs: number[] = []; // least significant first
  for (let index = leadingZeroCount; index < bytes.length; index++) {
    let carry = bytes[index];
    for (let limb = 0; limb < limbs.length; limb++) {
      const value = limbs[limb] * 256 + carry;
      carry = Math.floor(value / BASE58_LIMB);
      limbs[limb] = value - carry * BASE58_LIMB;
    }
    while (carry > 0) {
      const quotient = Math.floor(carry / BASE58_LIMB);
      limbs.push(carry - quotient * BASE58_LIMB);
      carry = quotient;
    }
  }
  let digits = '';
  for (const limb of limbs) {
    let value = limb;
    for (let digit = 0; digit < BASE58_DIGITS_PER_LIMB; digit++) {
      const quotient = Math.floor(value / 58);
      digits = BASE58_ALPHABET[value - quotient * 58] + digits;
      value = quotient;
    }
  }
  // The top limb's unused digits came out as zeros ('1'): they are not part of the number.
  let first = 0;
  while (first < digits.length && digits[first] === BASE58_ALPHABET[0]) first += 1;
  return BASE58_ALPHABET[0].repeat(leadingZeroCount) + digits.slice(first);
}

/** Base58 of payload || first four bytes of SHA-256(SHA-256(payload)), as bs58check writes it. */
export function encodeBase58Check(payload: Uint8Array): string {
  return encodeBase58(Buffer.concat([payload, doubleSha256(payload).subarray(0, BASE58CHECK_CHECKSUM_BYTES)]));
}

/**
 * Seals a session private key to the client's public key so that @turnkey/crypto's
 * decryptCredentialBundle(bundle, clientPrivateKeyHex) returns the session private key hex.
 * Layout: base58check(compressed encapsulated key (33 bytes) || HPKE ciphertext of the raw 32-byte key).
 */
export function sealSessionSigningKey(sessionPrivateKeyHex: string, clientPublicKeyHex: string): string {
  let sessionPrivateKey: Uint8Array;
  try {
    sessionPrivateKey = decodeP256PrivateKeyHex(sessionPrivateKeyHex);
  } catch {
    throw new SessionBundleError('INVALID_SESSION_PRIVATE_KEY', 'session private key is not a P-256 private key');
  }
  // The receiver's side of the additional data is always the uncompressed point, whatever form the client sent.
  const clientPublicKeyUncompressed = clientPublicKeyPoint(clientPublicKeyHex);
  let sealed: HpkeSealed | undefined;
  try {
    if (clientPublicKeyUncompressed) {
      sealed = hpkeSealBase(clientPublicKeyUncompressed, TURNKEY_HPKE_INFO, (enc) => turnkeyHpkeAdditionalData(enc, clientPublicKeyUncompressed), sessionPrivateKey);
    }
  } catch (error) {
    if (!(error instanceof HpkeError)) throw error;
  }
  if (!sealed) throw new SessionBundleError('INVALID_CLIENT_PUBLIC_KEY', 'clientPublicKey is not a P-256 public key in hex');
  return encodeBase58Check(Buffer.concat([sealed.encCompressed, sealed.ciphertext]));
}

/** The uncompressed encoding of a P-256 public key in hex, or undefined when it cannot be one (the seal checks the point). */
function clientPublicKeyPoint(publicKeyHex: string): Buffer | undefined {
  if (!isHexString(publicKeyHex) || (publicKeyHex.length !== 66 && publicKeyHex.length !== 130)) return undefined;
  try {
    return convertToUncompressed(Buffer.from(publicKeyHex, 'hex'));
  } catch {
    return undefined;
  }
}
