import { decryptCredentialBundle } from '@turnkey/crypto';
import { bs58check } from '@turnkey/encoding';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import fc from 'fast-check';
import { generateP256KeyPair } from './p256';
import { SessionBundleError, encodeBase58Check, sealSessionSigningKey } from './session-bundle';
import { parseWalletStamp, verifyWalletStamp } from './wallet-stamp';

describe('session-bundle', () => {
  describe(sealSessionSigningKey.name, () => {
    it('produces a bundle that decryptCredentialBundle opens to the session private key', async () => {
      const clientKey = generateP256KeyPair();
      const sessionKey = generateP256KeyPair();
      const encryptedSessionSigningKey = await sealSessionSigningKey(sessionKey.privateKeyHex, clientKey.publicKeyUncompressedHex);
      expect(decryptCredentialBundle(encryptedSessionSigningKey, clientKey.privateKeyHex)).toBe(sessionKey.privateKeyHex);
    });

    it('also accepts a compressed client key', async () => {
      const clientKey = generateP256KeyPair();
      const sessionKey = generateP256KeyPair();
      const encryptedSessionSigningKey = await sealSessionSigningKey(sessionKey.privateKeyHex, clientKey.publicKeyCompressedHex);
      expect(decryptCredentialBundle(encryptedSessionSigningKey, clientKey.privateKeyHex)).toBe(sessionKey.privateKeyHex);
    });

    it('lets the client stamp with the opened key', async () => {
      const clientKey = generateP256KeyPair();
      const sessionKey = generateP256KeyPair();
      const sessionPrivateKeyHex = decryptCredentialBundle(
        await sealSessionSigningKey(sessionKey.privateKeyHex, clientKey.publicKeyUncompressedHex),
        clientKey.privateKeyHex,
      );
      const stamper = new ApiKeyStamper({ apiPublicKey: sessionKey.publicKeyCompressedHex, apiPrivateKey: sessionPrivateKeyHex });
      const stamp = parseWalletStamp((await stamper.stamp('payload')).stampHeaderValue);
      expect(verifyWalletStamp(stamp, 'payload', sessionKey.publicKeyUncompressedHex)).toBe(true);
    });

    it('cannot be opened by another client key', async () => {
      const sessionKey = generateP256KeyPair();
      const encryptedSessionSigningKey = await sealSessionSigningKey(sessionKey.privateKeyHex, generateP256KeyPair().publicKeyUncompressedHex);
      expect(() => decryptCredentialBundle(encryptedSessionSigningKey, generateP256KeyPair().privateKeyHex)).toThrow();
    });

    it('refuses a bad client public key or session private key with a typed error', async () => {
      const sessionKey = generateP256KeyPair();
      await expect(sealSessionSigningKey(sessionKey.privateKeyHex, '04' + '01'.repeat(64))).rejects.toMatchObject({
        kind: 'INVALID_CLIENT_PUBLIC_KEY',
      });
      await expect(sealSessionSigningKey('zz', generateP256KeyPair().publicKeyUncompressedHex)).rejects.toBeInstanceOf(SessionBundleError);
      await expect(sealSessionSigningKey('zz', generateP256KeyPair().publicKeyUncompressedHex)).rejects.toMatchObject({
        kind: 'INVALID_SESSION_PRIVATE_KEY',
      });
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
