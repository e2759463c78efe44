import { createHash } from 'node:crypto';
import { TURNKEY_HPKE_INFO, turnkeyHpkeAdditionalData, turnkeyHpkeSuite } from './otp-bundle';
import { compressP256PublicKeyHex, isValidP256PublicKeyHex, p256PublicKeyFromPrivateKeyHex, uncompressP256PublicKeyHex } from './p256';

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

function encodeBase58(bytes: Uint8Array): string {
  // Each leading zero byte is written as the first alphabet letter; the rest is a big-endian number.
  let leadingZeroCount = 0;
  while (leadingZeroCount < bytes.length && bytes[leadingZeroCount] === 0) leadingZeroCount += 1;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  const digits: string[] = [];
  while (value > 0n) {
    digits.push(BASE58_ALPHABET[Number(value % 58n)]);
    value /= 58n;
  }
  return BASE58_ALPHABET[0].repeat(leadingZeroCount) + digits.reverse().join('');
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
export async function sealSessionSigningKey(sessionPrivateKeyHex: string, clientPublicKeyHex: string): Promise<string> {
  if (!isValidP256PublicKeyHex(clientPublicKeyHex)) {
    throw new SessionBundleError('INVALID_CLIENT_PUBLIC_KEY', 'clientPublicKey is not a P-256 public key in hex');
  }
  try {
    p256PublicKeyFromPrivateKeyHex(sessionPrivateKeyHex);
  } catch {
    throw new SessionBundleError('INVALID_SESSION_PRIVATE_KEY', 'session private key is not a P-256 private key');
  }
  // The receiver's side of the additional data is always the uncompressed point, whatever form the client sent.
  const clientPublicKeyUncompressed = Buffer.from(uncompressP256PublicKeyHex(clientPublicKeyHex), 'hex');
  const recipientPublicKey = await turnkeyHpkeSuite.kem.deserializePublicKey(clientPublicKeyUncompressed);
  const sender = await turnkeyHpkeSuite.createSenderContext({ recipientPublicKey, info: TURNKEY_HPKE_INFO });
  const encappedKeyUncompressed = new Uint8Array(sender.enc);
  const ciphertext = await sender.seal(
    Buffer.from(sessionPrivateKeyHex, 'hex'),
    turnkeyHpkeAdditionalData(encappedKeyUncompressed, clientPublicKeyUncompressed),
  );
  const encappedKeyCompressed = Buffer.from(compressP256PublicKeyHex(Buffer.from(encappedKeyUncompressed).toString('hex')), 'hex');
  return encodeBase58Check(Buffer.concat([encappedKeyCompressed, new Uint8Array(ciphertext)]));
}
