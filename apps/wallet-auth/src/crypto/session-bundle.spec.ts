import { decryptCredentialBundle } from '@turnkey/crypto';
import { bs58check } from '@turnkey/encoding';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import fc from 'fast-check';
import { generateP256KeyPair } from './p256';
import { SessionBundleError, encodeBase58Check, sealSessionSigningKey } from './session-bundle';
import { parseWalletStamp, verifyWalletStamp } from './wallet-stamp';

describe('session-bundle', () => {
  describe(sealSessionSigningKey.name, () => {
    it('produces a bundle that decryptCredentialBundle opens to the session private key', () => {
      const clientKey = generateP256KeyPair();
      const sessionKey = generateP256KeyPair();
      const encryptedSessionSigningKey = sealSessionSigningKey(sessionKey.privateKeyHex, clientKey.publicKeyUncompressedHex);
      expect(decryptCredentialBundle(encryptedSessionSigningKey, clientKey.privateKeyHex)).toBe(sessionKey.privateKeyHex);
    });

    it('also accepts a compressed client key', () => {
      const clientKey = generateP256KeyPair();
      const sessionKey = generateP256KeyPair();
      const encryptedSessionSigningKey = sealSessionSigningKey(sessionKey.privateKeyHex, clientKey.publicKeyCompressedHex);
      expect(decryptCredentialBundle(encryptedSessionSigningKey, clientKey.privateKeyHex)).toBe(sessionKey.privateKeyHex);
    });

    it('lets the client stamp with the opened key', async () => {
      const clientKey = generateP256KeyPair();
      const sessionKey = generateP256KeyPair();
      const sessionPrivateKeyHex = decryptCredentialBundle(sealSessionSigningKey(sessionKey.privateKeyHex, clientKey.publicKeyUncompressedHex), clientKey.privateKeyHex);
      const stamper = new ApiKeyStamper({ apiPublicKey: sessionKey.publicKeyCompressedHex, apiPrivateKey: sessionPrivateKeyHex });
      const stamp = parseWalletStamp((await stamper.stamp('payload')).stampHeaderValue);
      expect(verifyWalletStamp(stamp, 'payload', sessionKey.publicKeyUncompressedHex)).toBe(true);
    });

    it('cannot be opened by another client key', () => {
      const sessionKey = generateP256KeyPair();
      const encryptedSessionSigningKey = sealSessionSigningKey(sessionKey.privateKeyHex, generateP256KeyPair().publicKeyUncompressedHex);
      expect(() => decryptCredentialBundle(encryptedSessionSigningKey, generateP256KeyPair().privateKeyHex)).toThrow();
    });

    it('refuses a bad client public key or session private key with a typed error', () => {
      const sessionKey = generateP256KeyPair();
      for (const badClientKey of ['04' + '01'.repeat(64), '02' + 'ff'.repeat(32), '00', 'zz', '04' + '00'.repeat(64)]) {
        expect(() => sealSessionSigningKey(sessionKey.privateKeyHex, badClientKey)).toThrow(expect.objectContaining({ kind: 'INVALID_CLIENT_PUBLIC_KEY' }));
      }
      expect(() => sealSessionSigningKey('zz', generateP256KeyPair().publicKeyUncompressedHex)).toThrow(SessionBundleError);
      expect(() => sealSessionSigningKey('00'.repeat(32), generateP256KeyPair().publicKeyUncompressedHex)).toThrow(
        expect.objectContaining({ kind: 'INVALID_SESSION_PRIVATE_KEY' }),
      );
    });
  });

  describe(encodeBase58Check.name, () => {
    it('matches bs58check for arbitrary payloads, leading zeros included', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 120 }), fc.nat({ max: 4 }), (payload, leadingZeros) => {
          const withZeros = new Uint8Array([...new Array<number>(leadingZeros).fill(0), ...payload]);
          expect(encodeBase58Check(withZeros)).toBe(bs58check.encode(withZeros));
        }),
      );
    });
  });
});
