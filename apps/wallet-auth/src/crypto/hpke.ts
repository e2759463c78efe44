import { createCipheriv, createDecipheriv, createECDH, createHmac, ECDH } from 'node:crypto';

/**
 * HPKE (RFC 9180) base mode, single shot, for the one suite the client libraries use:
 * DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM. Built on node:crypto's synchronous
 * primitives: hpke-js runs each HMAC and key import as its own WebCrypto promise, which made one
 * seal cost milliseconds; here it is two EC operations and a few HMACs.
 */

const CURVE = 'prime256v1';
const KEM_ID = 0x0010;
const KDF_ID = 0x0001;
const AEAD_ID = 0x0002;
const MODE_BASE = 0x00;
const HASH_BYTES = 32;
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Uncompressed P-256 point: the KEM's serialized public key (Npk) and encapsulated key (Nenc). */
export const HPKE_ENC_BYTES = 65;

const VERSION_LABEL = Buffer.from('HPKE-v1', 'ascii');
const KEM_SUITE_ID = Buffer.concat([Buffer.from('KEM', 'ascii'), u16(KEM_ID)]);
const HPKE_SUITE_ID = Buffer.concat([Buffer.from('HPKE', 'ascii'), u16(KEM_ID), u16(KDF_ID), u16(AEAD_ID)]);
const EMPTY = Buffer.alloc(0);

export class HpkeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HpkeError';
  }
}

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}

function hmac(key: Uint8Array, ...parts: Uint8Array[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function labeledExtract(suiteId: Buffer, salt: Uint8Array, label: string, ikm: Uint8Array): Buffer {
  // An empty salt is HashLen zero bytes (RFC 5869), which HMAC treats exactly like an empty key.
  return hmac(salt, VERSION_LABEL, suiteId, Buffer.from(label, 'ascii'), ikm);
}

function labeledExpand(suiteId: Buffer, prk: Uint8Array, label: string, info: Uint8Array, length: number): Buffer {
  // Every length this suite asks for fits in one HMAC block (T(1) of RFC 5869).
  if (length > HASH_BYTES) throw new HpkeError('expansion longer than one hash block');
  return hmac(prk, u16(length), VERSION_LABEL, suiteId, Buffer.from(label, 'ascii'), info, Uint8Array.of(1)).subarray(0, length);
}

/** DHKEM ExtractAndExpand: the shared secret from the DH output and both public keys. */
function kemSharedSecret(dh: Uint8Array, enc: Uint8Array, recipientPublicKey: Uint8Array): Buffer {
  const eaePrk = labeledExtract(KEM_SUITE_ID, EMPTY, 'eae_prk', dh);
  return labeledExpand(KEM_SUITE_ID, eaePrk, 'shared_secret', Buffer.concat([enc, recipientPublicKey]), HASH_BYTES);
}

// The key schedule context of base mode depends on `info` only; callers use one info, so it is kept.
const scheduleContexts = new Map<string, Buffer>();

function keyScheduleContext(info: Uint8Array): Buffer {
  const cacheKey = Buffer.from(info).toString('hex');
  let context = scheduleContexts.get(cacheKey);
  if (!context) {
    const pskIdHash = labeledExtract(HPKE_SUITE_ID, EMPTY, 'psk_id_hash', EMPTY);
    const infoHash = labeledExtract(HPKE_SUITE_ID, EMPTY, 'info_hash', info);
    context = Buffer.concat([Uint8Array.of(MODE_BASE), pskIdHash, infoHash]);
    if (scheduleContexts.size < 16) scheduleContexts.set(cacheKey, context);
  }
  return context;
}

/** Base-mode key schedule: the AEAD key and nonce of the first (and only) message. */
function keySchedule(sharedSecret: Uint8Array, info: Uint8Array): { key: Buffer; nonce: Buffer } {
  const context = keyScheduleContext(info);
  const secret = labeledExtract(HPKE_SUITE_ID, sharedSecret, 'secret', EMPTY);
  return {
    key: labeledExpand(HPKE_SUITE_ID, secret, 'key', context, KEY_BYTES),
    nonce: labeledExpand(HPKE_SUITE_ID, secret, 'base_nonce', context, NONCE_BYTES),
  };
}

export interface HpkeSealed {
  /** The encapsulated (ephemeral) public key, uncompressed. */
  enc: Buffer;
  /** The same key compressed (33 bytes), for formats that carry it that way. */
  encCompressed: Buffer;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  ciphertext: Buffer;
}

/**
 * Seals `plaintext` to a P-256 public key (compressed or uncompressed bytes). The recipient key is
 * checked to be a point on the curve; a bad key throws HpkeError. `aad` may depend on the
 * encapsulated key (some formats authenticate it), hence the function form.
 */
export function hpkeSealBase(recipientPublicKey: Uint8Array, info: Uint8Array, aad: Uint8Array | ((enc: Buffer) => Uint8Array), plaintext: Uint8Array): HpkeSealed {
  const ephemeral = createECDH(CURVE);
  ephemeral.generateKeys();
  let dh: Buffer;
  let recipientUncompressed: Buffer;
  try {
    recipientUncompressed = convertToUncompressed(recipientPublicKey);
    if (recipientUncompressed.length !== HPKE_ENC_BYTES) throw new HpkeError('not a finite point');
    dh = ephemeral.computeSecret(recipientUncompressed);
  } catch {
    throw new HpkeError('recipient public key is not a P-256 point');
  }
  const enc = ephemeral.getPublicKey();
  const { key, nonce } = keySchedule(kemSharedSecret(dh, enc, recipientUncompressed), info);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(typeof aad === 'function' ? aad(enc) : aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { enc, encCompressed: ephemeral.getPublicKey(null, 'compressed'), ciphertext };
}

/**
 * Opens a base-mode message sealed to the P-256 private key `recipientPrivateKey` (32 bytes).
 * Any failure (bad point, wrong key, tampering) throws HpkeError.
 */
export function hpkeOpenBase(recipientPrivateKey: Uint8Array, enc: Uint8Array, info: Uint8Array, aad: Uint8Array, ciphertext: Uint8Array): Buffer {
  if (enc.length !== HPKE_ENC_BYTES) throw new HpkeError('encapsulated key must be an uncompressed P-256 point');
  if (ciphertext.length < TAG_BYTES) throw new HpkeError('ciphertext is shorter than its tag');
  try {
    const recipient = createECDH(CURVE);
    recipient.setPrivateKey(recipientPrivateKey);
    const dh = recipient.computeSecret(enc);
    const { key, nonce } = keySchedule(kemSharedSecret(dh, enc, recipient.getPublicKey()), info);
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(aad);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - TAG_BYTES));
    return Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new HpkeError('message could not be opened with this key');
  }
}

/**
 * The uncompressed form of a P-256 public key given compressed or uncompressed. A compressed key is
 * decoded (and so checked); an uncompressed one is returned as is, and the DH that uses it checks it.
 */
export function convertToUncompressed(publicKey: Uint8Array): Buffer {
  if (publicKey.length === HPKE_ENC_BYTES && publicKey[0] === 0x04) return Buffer.from(publicKey);
  return ECDH.convertKey(Buffer.from(publicKey), CURVE, undefined, undefined, 'uncompressed') as Buffer;
}
