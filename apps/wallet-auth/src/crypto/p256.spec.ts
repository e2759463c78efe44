import { createSign, generateKeyPairSync } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import { sha256 } from '@noble/hashes/sha2';
import fc from 'fast-check';
import {
  BoundedLruCache,
  P256KeyError,
  clearP256PublicKeyCache,
  compressP256PublicKeyHex,
  generateP256KeyPair,
  isLowSDerSignature,
  isSameP256PublicKey,
  isValidP256PublicKeyHex,
  normalizeDerSignatureToLowS,
  p256PublicKeyCacheSize,
  p256PublicKeyFromPrivateKeyHex,
  signP256Sha256LowS,
  uncompressP256PublicKeyHex,
  verifyP256Sha256,
} from './p256';

const CURVE_ORDER = p256.Point.Fn.ORDER;

function highSVariant(derSignatureHex: string): string {
  const signature = p256.Signature.fromBytes(Buffer.from(derSignatureHex, 'hex'), 'der');
  const s = signature.s > CURVE_ORDER >> 1n ? signature.s : CURVE_ORDER - signature.s;
  return new p256.Signature(signature.r, s).toHex('der');
}

describe('p256', () => {
  describe(generateP256KeyPair.name, () => {
    it('returns a private key and both encodings of its public key', () => {
      const keyPair = generateP256KeyPair();
      expect(keyPair.privateKeyHex).toMatch(/^[0-9a-f]{64}$/);
      expect(keyPair.publicKeyCompressedHex).toMatch(/^0[23][0-9a-f]{64}$/);
      expect(keyPair.publicKeyUncompressedHex).toMatch(/^04[0-9a-f]{128}$/);
      expect(Buffer.from(p256.getPublicKey(Buffer.from(keyPair.privateKeyHex, 'hex'), true)).toString('hex')).toBe(keyPair.publicKeyCompressedHex);
      expect(p256PublicKeyFromPrivateKeyHex(keyPair.privateKeyHex)).toEqual({
        publicKeyCompressedHex: keyPair.publicKeyCompressedHex,
        publicKeyUncompressedHex: keyPair.publicKeyUncompressedHex,
      });
    });
  });

  describe('key encoding', () => {
    it('converts between compressed and uncompressed forms', () => {
      const keyPair = generateP256KeyPair();
      expect(compressP256PublicKeyHex(keyPair.publicKeyUncompressedHex)).toBe(keyPair.publicKeyCompressedHex);
      expect(uncompressP256PublicKeyHex(keyPair.publicKeyCompressedHex)).toBe(keyPair.publicKeyUncompressedHex);
      expect(isSameP256PublicKey(keyPair.publicKeyCompressedHex, keyPair.publicKeyUncompressedHex.toUpperCase())).toBe(true);
      expect(isSameP256PublicKey(keyPair.publicKeyCompressedHex, generateP256KeyPair().publicKeyCompressedHex)).toBe(false);
    });

    it.each([
      ['empty', ''],
      ['odd length', '02abc'],
      ['not hex', 'zz'.repeat(33)],
      ['wrong prefix', '05' + 'ab'.repeat(32)],
      ['off the curve', '04' + '01'.repeat(64)],
      ['wrong length', '02' + 'ab'.repeat(31)],
    ])('rejects a malformed public key (%s)', (_label, publicKeyHex) => {
      expect(isValidP256PublicKeyHex(publicKeyHex)).toBe(false);
      expect(() => compressP256PublicKeyHex(publicKeyHex)).toThrow(P256KeyError);
    });

    it('rejects non-string input without throwing', () => {
      expect(isValidP256PublicKeyHex(undefined)).toBe(false);
      expect(isValidP256PublicKeyHex(42)).toBe(false);
    });

    it('answers from the verification key cache for a key already used, in any letter case', () => {
      const keyPair = generateP256KeyPair();
      const signature = signP256Sha256LowS(keyPair.privateKeyHex, 'cached');
      expect(verifyP256Sha256(keyPair.publicKeyCompressedHex, 'cached', signature)).toBe(true);
      expect(isValidP256PublicKeyHex(keyPair.publicKeyCompressedHex.toUpperCase())).toBe(true);
      // A key that never decoded is never cached.
      expect(verifyP256Sha256('04' + '01'.repeat(64), 'cached', signature)).toBe(false);
      expect(isValidP256PublicKeyHex('04' + '01'.repeat(64))).toBe(false);
    });
  });

  describe(verifyP256Sha256.name, () => {
    it('verifies node:crypto signatures for compressed and uncompressed keys, strings and bytes', () => {
      const keyPair = generateP256KeyPair();
      const payload = '{"type":"ACTIVITY","amount":"1€"}';
      const signatureHex = signP256Sha256LowS(keyPair.privateKeyHex, payload);
      expect(verifyP256Sha256(keyPair.publicKeyCompressedHex, payload, signatureHex)).toBe(true);
      expect(verifyP256Sha256(keyPair.publicKeyUncompressedHex, Buffer.from(payload, 'utf8'), signatureHex)).toBe(true);
      expect(verifyP256Sha256(keyPair.publicKeyCompressedHex, payload + ' ', signatureHex)).toBe(false);
      expect(verifyP256Sha256(generateP256KeyPair().publicKeyCompressedHex, payload, signatureHex)).toBe(false);
    });

    it('accepts a high-S signature, as produced by unnormalized node:crypto signers', () => {
      const keyPair = generateP256KeyPair();
      const highS = highSVariant(signP256Sha256LowS(keyPair.privateKeyHex, 'payload'));
      expect(isLowSDerSignature(highS)).toBe(false);
      expect(verifyP256Sha256(keyPair.publicKeyCompressedHex, 'payload', highS)).toBe(true);
    });

    it('verifies a signature made by an independent node:crypto key', () => {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const publicKeyHex = '04' + Buffer.from(String(jwk.x), 'base64url').toString('hex') + Buffer.from(String(jwk.y), 'base64url').toString('hex');
      const signatureHex = createSign('SHA256').update('hello').sign(privateKey, 'hex');
      expect(verifyP256Sha256(publicKeyHex, 'hello', signatureHex)).toBe(true);
    });

    it.each([
      ['empty', ''],
      ['not hex', 'not-hex'],
      ['truncated DER', '3044022001'],
      ['oversized', '30'.repeat(100)],
    ])('returns false for a malformed signature (%s)', (_label, signatureHex) => {
      const keyPair = generateP256KeyPair();
      expect(verifyP256Sha256(keyPair.publicKeyCompressedHex, 'payload', signatureHex)).toBe(false);
    });

    it('returns false for a malformed public key or message instead of throwing', () => {
      const keyPair = generateP256KeyPair();
      const signatureHex = signP256Sha256LowS(keyPair.privateKeyHex, 'payload');
      expect(verifyP256Sha256('04' + '01'.repeat(64), 'payload', signatureHex)).toBe(false);
      expect(verifyP256Sha256('', 'payload', signatureHex)).toBe(false);
      expect(verifyP256Sha256(keyPair.publicKeyCompressedHex, 42 as unknown as string, signatureHex)).toBe(false);
    });

    it('caches key objects per public key, bounded', () => {
      clearP256PublicKeyCache();
      const keyPair = generateP256KeyPair();
      const signatureHex = signP256Sha256LowS(keyPair.privateKeyHex, 'x');
      for (let attempt = 0; attempt < 5; attempt += 1) verifyP256Sha256(keyPair.publicKeyCompressedHex, 'x', signatureHex);
      expect(p256PublicKeyCacheSize()).toBe(1);
    });
  });

  describe(signP256Sha256LowS.name, () => {
    it('throws a typed error for a bad private key', () => {
      expect(() => signP256Sha256LowS('00'.repeat(32), 'x')).toThrow(P256KeyError);
      expect(() => signP256Sha256LowS('ff'.repeat(32), 'x')).toThrow(P256KeyError);
      expect(() => signP256Sha256LowS('abc', 'x')).toThrow(P256KeyError);
    });

    it('always produces low-S signatures that strict @noble/curves verification accepts', () => {
      const keyPair = generateP256KeyPair();
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 256 }), (message) => {
          const signatureHex = signP256Sha256LowS(keyPair.privateKeyHex, message);
          const signatureBytes = Buffer.from(signatureHex, 'hex');
          const publicKey = Buffer.from(keyPair.publicKeyUncompressedHex, 'hex');
          expect(isLowSDerSignature(signatureHex)).toBe(true);
          expect(p256.verify(signatureBytes, sha256(message), publicKey, { format: 'der', lowS: true })).toBe(true);
          expect(p256.verify(signatureBytes, sha256(message), publicKey, { format: 'der' })).toBe(true);
        }),
        { numRuns: 200 },
      );
    });
  });

  describe(normalizeDerSignatureToLowS.name, () => {
    it('maps a high-S signature to the equivalent low-S one and leaves low-S alone', () => {
      const keyPair = generateP256KeyPair();
      const lowS = signP256Sha256LowS(keyPair.privateKeyHex, 'm');
      expect(normalizeDerSignatureToLowS(lowS)).toBe(lowS);
      expect(normalizeDerSignatureToLowS(highSVariant(lowS))).toBe(lowS);
    });
  });

  describe(BoundedLruCache.name, () => {
    it('evicts the least recently used entry', () => {
      const cache = new BoundedLruCache<string, number>(2);
      cache.set('a', 1);
      cache.set('b', 2);
      expect(cache.get('a')).toBe(1);
      cache.set('c', 3);
      expect(cache.get('b')).toBeUndefined();
      expect(cache.get('a')).toBe(1);
      expect(cache.get('c')).toBe(3);
      expect(cache.size).toBe(2);
    });

    it('refuses a non-positive capacity', () => {
      expect(() => new BoundedLruCache<string, number>(0)).toThrow(RangeError);
    });
  });
});
