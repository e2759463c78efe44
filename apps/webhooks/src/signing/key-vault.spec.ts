import { createPublicKey, createVerify, randomBytes } from 'node:crypto';
import { KeyVault } from './key-vault';
import { signatureHeader } from './webhook-signature';

describe(KeyVault.name, () => {
  const vault = new KeyVault(randomBytes(32));
  const platformId = 'Platform:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

  describe('generate', () => {
    it('makes a P-256 key pair: the public key as PEM (SPKI), the private key sealed', () => {
      const key = vault.generate(platformId);
      const publicKey = createPublicKey(key.publicKeyPem);
      expect(key.publicKeyPem.startsWith('-----BEGIN PUBLIC KEY-----')).toBe(true);
      expect(publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
      expect(key.sealedPrivateKey).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
      expect(key.sealedPrivateKey).not.toContain('PRIVATE');
      expect(key.keyEncryptionKeyId).toBe(vault.keyEncryptionKeyId);
    });
  });

  describe('open', () => {
    it('gives back the private key that signs for the published public key (verified as INTEROP.md shows)', () => {
      const key = vault.generate(platformId);
      const privateKey = vault.open(platformId, key.sealedPrivateKey, key.keyEncryptionKeyId);
      const body = Buffer.from('{"id":"Webhook:1","type":"CUSTOMER.KYC_PENDING","timestamp":"2025-10-13T00:00:00.000Z","data":{}}');
      const header = JSON.parse(signatureHeader(privateKey, body));
      expect(header).toEqual({ v: '1', s: expect.any(String) });
      expect(createVerify('SHA256').update(body).verify(key.publicKeyPem, Buffer.from(header.s, 'base64'))).toBe(true);
    });

    it.each([
      ['for another platform (the seal is bound to the platform id)', (sealed: string) => vault.open('Platform:other', sealed, vault.keyEncryptionKeyId)],
      ['with another key-encryption key', (sealed: string) => new KeyVault(randomBytes(32)).open(platformId, sealed, vault.keyEncryptionKeyId)],
      ['when the row names another key-encryption key', (sealed: string) => vault.open(platformId, sealed, 'someotherkey')],
      ['when tampered with', (sealed: string) => vault.open(platformId, sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA'), vault.keyEncryptionKeyId)],
    ])('refuses to open a sealed key %s', (_, open) => {
      const key = vault.generate(platformId);
      expect(() => open(key.sealedPrivateKey)).toThrow();
    });
  });
});
