import { createECDH, createPrivateKey, ECDH, createPublicKey, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist';

/** Why a key could not be used. */
export type P256KeyErrorKind = 'INVALID_PUBLIC_KEY' | 'INVALID_PRIVATE_KEY';

export class P256KeyError extends Error {
  constructor(
    readonly kind: P256KeyErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'P256KeyError';
  }
}

export interface P256KeyPair {
  /** 32-byte scalar, 64 lowercase hex characters. */
  privateKeyHex: string;
  /** SEC1 compressed point (02/03 prefix), 66 hex characters. */
  publicKeyCompressedHex: string;
  /** SEC1 uncompressed point (04 prefix), 130 hex characters. */
  publicKeyUncompressedHex: string;
}

const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;
const COMPRESSED_PUBLIC_KEY_HEX_LENGTH = 66;
const UNCOMPRESSED_PUBLIC_KEY_HEX_LENGTH = 130;
const PRIVATE_KEY_HEX_LENGTH = 64;
// A DER ECDSA P-256 signature is at most 72 bytes; anything longer cannot verify, so skip the work.
const MAX_DER_SIGNATURE_HEX_LENGTH = 144;
const CURVE_ORDER = p256.Point.Fn.ORDER;
const HALF_CURVE_ORDER = CURVE_ORDER >> 1n;

export function isHexString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && HEX_PATTERN.test(value);
}

/** Compressed (02/03 prefix) or uncompressed (04 prefix) only: OpenSSL would also take the hybrid 06/07 form. */
function hasPublicKeyPrefix(publicKeyHex: string): boolean {
  const prefix = publicKeyHex.slice(0, 2);
  return publicKeyHex.length === COMPRESSED_PUBLIC_KEY_HEX_LENGTH ? prefix === '02' || prefix === '03' : prefix === '04';
}

/** The key in the requested encoding; OpenSSL decodes it and checks that the point lies on the curve. */
function encodePublicKey(publicKeyHex: unknown, form: 'compressed' | 'uncompressed'): string {
  if (!isHexString(publicKeyHex) || (publicKeyHex.length !== COMPRESSED_PUBLIC_KEY_HEX_LENGTH && publicKeyHex.length !== UNCOMPRESSED_PUBLIC_KEY_HEX_LENGTH)) {
    throw new P256KeyError('INVALID_PUBLIC_KEY', 'P-256 public key must be 33-byte compressed or 65-byte uncompressed hex');
  }
  try {
    if (!hasPublicKeyPrefix(publicKeyHex)) throw new Error('prefix');
    return ECDH.convertKey(publicKeyHex, 'prime256v1', 'hex', 'hex', form) as string;
  } catch {
    throw new P256KeyError('INVALID_PUBLIC_KEY', 'P-256 public key is not a point on the curve');
  }
}

/** True when the hex string is a valid compressed or uncompressed P-256 public key. */
export function isValidP256PublicKeyHex(publicKeyHex: unknown): publicKeyHex is string {
  // A key already turned into a KeyObject was decoded and checked then: skip the square root.
  if (typeof publicKeyHex === 'string' && publicKeyObjectCache.get(publicKeyHex.toLowerCase())) return true;
  try {
    encodePublicKey(publicKeyHex, 'uncompressed');
    return true;
  } catch {
    return false;
  }
}

export function compressP256PublicKeyHex(publicKeyHex: string): string {
  return encodePublicKey(publicKeyHex, 'compressed');
}

export function uncompressP256PublicKeyHex(publicKeyHex: string): string {
  return encodePublicKey(publicKeyHex, 'uncompressed');
}

/** Compares two public keys regardless of their encoding (compressed, uncompressed, letter case). */
export function isSameP256PublicKey(firstPublicKeyHex: string, secondPublicKeyHex: string): boolean {
  if (!isValidP256PublicKeyHex(firstPublicKeyHex) || !isValidP256PublicKeyHex(secondPublicKeyHex)) return false;
  return compressP256PublicKeyHex(firstPublicKeyHex) === compressP256PublicKeyHex(secondPublicKeyHex);
}

/** The 32 bytes of a P-256 private key given as hex; throws P256KeyError unless it is a scalar in [1, n-1]. */
export function decodeP256PrivateKeyHex(privateKeyHex: unknown): Uint8Array {
  if (!isHexString(privateKeyHex) || privateKeyHex.length !== PRIVATE_KEY_HEX_LENGTH) {
    throw new P256KeyError('INVALID_PRIVATE_KEY', 'P-256 private key must be 32 bytes of hex');
  }
  const privateKeyBytes = Uint8Array.from(Buffer.from(privateKeyHex, 'hex'));
  if (!p256.utils.isValidSecretKey(privateKeyBytes)) {
    throw new P256KeyError('INVALID_PRIVATE_KEY', 'P-256 private key is outside the curve order');
  }
  return privateKeyBytes;
}

export function p256PublicKeyFromPrivateKeyHex(privateKeyHex: string): Omit<P256KeyPair, 'privateKeyHex'> {
  // OpenSSL's fixed-base multiplication: a fraction of the cost of doing it in JavaScript.
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(decodeP256PrivateKeyHex(privateKeyHex));
  return { publicKeyCompressedHex: ecdh.getPublicKey('hex', 'compressed'), publicKeyUncompressedHex: ecdh.getPublicKey('hex', 'uncompressed') };
}

/** A fresh private key alone (a wallet's key: its public key is derived when it is needed, not at provisioning). */
export function generateP256PrivateKeyHex(): string {
  return Buffer.from(p256.utils.randomSecretKey()).toString('hex');
}

export function generateP256KeyPair(): P256KeyPair {
  const privateKeyBytes = p256.utils.randomSecretKey();
  const privateKeyHex = Buffer.from(privateKeyBytes).toString('hex');
  return { privateKeyHex, ...p256PublicKeyFromPrivateKeyHex(privateKeyHex) };
}

function coordinatesAsJwkMembers(uncompressedHex: string): { x: string; y: string } {
  const uncompressed = Buffer.from(uncompressedHex, 'hex');
  return { x: uncompressed.subarray(1, 33).toString('base64url'), y: uncompressed.subarray(33, 65).toString('base64url') };
}

/** Builds a node:crypto private KeyObject; throws P256KeyError on a bad key. */
export function createP256PrivateKeyObject(privateKeyHex: string): KeyObject {
  const privateKeyBytes = decodeP256PrivateKeyHex(privateKeyHex);
  const { publicKeyUncompressedHex } = p256PublicKeyFromPrivateKeyHex(privateKeyHex);
  return createPrivateKey({
    key: { kty: 'EC', crv: 'P-256', d: Buffer.from(privateKeyBytes).toString('base64url'), ...coordinatesAsJwkMembers(publicKeyUncompressedHex) },
    format: 'jwk',
  });
}

/** Least-recently-used map with a fixed capacity; Map keeps insertion order, so the first key is the oldest. */
export class BoundedLruCache<Key, Value> {
  private readonly entries = new Map<Key, Value>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: Key): Value | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: Key, value: Value): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldestKey = this.entries.keys().next();
      if (!oldestKey.done) this.entries.delete(oldestKey.value);
    }
  }

  delete(key: Key): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

// Verification runs for every signed request; decoding a compressed key costs a modular square root,
// so the KeyObject is built once per session key and reused.
const PUBLIC_KEY_OBJECT_CACHE_CAPACITY = 4096;
const publicKeyObjectCache = new BoundedLruCache<string, KeyObject>(PUBLIC_KEY_OBJECT_CACHE_CAPACITY);

function publicKeyObjectFor(publicKeyHex: string): KeyObject {
  const cacheKey = publicKeyHex.toLowerCase();
  const cached = publicKeyObjectCache.get(cacheKey);
  if (cached) return cached;
  const keyObject = createPublicKey({ key: { kty: 'EC', crv: 'P-256', ...coordinatesAsJwkMembers(encodePublicKey(cacheKey, 'uncompressed')) }, format: 'jwk' });
  publicKeyObjectCache.set(cacheKey, keyObject);
  return keyObject;
}

/** Exposed for tests and for operators who rotate many keys; the cache is otherwise self-managing. */
export function clearP256PublicKeyCache(): void {
  publicKeyObjectCache.clear();
}

export function p256PublicKeyCacheSize(): number {
  return publicKeyObjectCache.size;
}

function messageBytes(message: Uint8Array | string): Uint8Array {
  return typeof message === 'string' ? Buffer.from(message, 'utf8') : message;
}

/**
 * ECDSA P-256 / SHA-256 verification of a DER signature. Accepts high-S signatures, because
 * node:crypto signers (such as @turnkey/api-key-stamper's Node path) do not normalize S.
 * Any malformed input yields false.
 */
export function verifyP256Sha256(publicKeyHex: string, message: Uint8Array | string, derSignatureHex: string): boolean {
  if (typeof message !== 'string' && !(message instanceof Uint8Array)) return false;
  if (!isHexString(derSignatureHex) || derSignatureHex.length > MAX_DER_SIGNATURE_HEX_LENGTH) return false;
  try {
    const keyObject = publicKeyObjectFor(publicKeyHex);
    return nodeVerify('sha256', messageBytes(message), { key: keyObject, dsaEncoding: 'der' }, Buffer.from(derSignatureHex, 'hex'));
  } catch {
    return false;
  }
}

interface SignatureScalars {
  r: bigint;
  s: bigint;
}

function parseDerSignature(derSignature: Uint8Array): SignatureScalars {
  const signature = p256.Signature.fromBytes(derSignature, 'der');
  return { r: signature.r, s: signature.s };
}

/** Rewrites a DER signature so that S is in the lower half of the curve order (same validity, canonical form). */
export function normalizeDerSignatureToLowS(derSignatureHex: string): string {
  const { r, s } = parseDerSignature(Buffer.from(derSignatureHex, 'hex'));
  const lowS = s > HALF_CURVE_ORDER ? CURVE_ORDER - s : s;
  return new p256.Signature(r, lowS).toHex('der');
}

export function isLowSDerSignature(derSignatureHex: string): boolean {
  try {
    return parseDerSignature(Buffer.from(derSignatureHex, 'hex')).s <= HALF_CURVE_ORDER;
  } catch {
    return false;
  }
}

/** Signs with a prepared KeyObject and returns DER hex with low S, as @noble-based verifiers may require. */
export function signP256Sha256LowSWithKeyObject(privateKey: KeyObject, message: Uint8Array | string): string {
  const derSignature = nodeSign('sha256', messageBytes(message), { key: privateKey, dsaEncoding: 'der' });
  return normalizeDerSignatureToLowS(derSignature.toString('hex'));
}

/** ECDSA P-256 / SHA-256 signature as low-S DER hex; throws P256KeyError on a bad private key. */
export function signP256Sha256LowS(privateKeyHex: string, message: Uint8Array | string): string {
  return signP256Sha256LowSWithKeyObject(createP256PrivateKeyObject(privateKeyHex), message);
}
