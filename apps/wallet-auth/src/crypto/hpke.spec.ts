import { AeadId, CipherSuite, KdfId, KemId } from 'hpke-js';
import fc from 'fast-check';
import { HpkeError, hpkeOpenBase, hpkeSealBase } from './hpke';
import { generateP256KeyPair } from './p256';

// hpke-js is the independent reference: what one side seals, the other opens.
const reference = new CipherSuite({ kem: KemId.DhkemP256HkdfSha256, kdf: KdfId.HkdfSha256, aead: AeadId.Aes256Gcm });
const INFO = Buffer.from('turnkey_hpke', 'utf8');

function bytesOf(hex: string): Buffer {
  return Buffer.from(hex, 'hex');
}

describe('hpke (base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM)', () => {
  it('seals what hpke-js opens, for a compressed or an uncompressed recipient key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 80 }), fc.boolean(), async (plaintext, aad, compressed) => {
        const recipient = generateP256KeyPair();
        const sealed = hpkeSealBase(bytesOf(compressed ? recipient.publicKeyCompressedHex : recipient.publicKeyUncompressedHex), INFO, aad, plaintext);
        expect(sealed.enc).toHaveLength(65);
        expect(sealed.encCompressed).toHaveLength(33);
        const recipientKey = await reference.kem.deserializePrivateKey(bytesOf(recipient.privateKeyHex));
        const context = await reference.createRecipientContext({ recipientKey, enc: sealed.enc, info: INFO });
        expect(Buffer.from(await context.open(sealed.ciphertext, aad))).toEqual(Buffer.from(plaintext));
      }),
      { numRuns: 25 },
    );
  });

  it('opens what hpke-js sealed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 80 }), async (plaintext, aad) => {
        const recipient = generateP256KeyPair();
        const recipientPublicKey = await reference.kem.deserializePublicKey(bytesOf(recipient.publicKeyUncompressedHex));
        const sender = await reference.createSenderContext({ recipientPublicKey, info: INFO });
        const ciphertext = new Uint8Array(await sender.seal(plaintext, aad));
        expect(hpkeOpenBase(bytesOf(recipient.privateKeyHex), new Uint8Array(sender.enc), INFO, aad, ciphertext)).toEqual(Buffer.from(plaintext));
      }),
      { numRuns: 25 },
    );
  });

  it('passes the encapsulated key to an aad function', () => {
    const recipient = generateP256KeyPair();
    let seen: Buffer | undefined;
    const sealed = hpkeSealBase(bytesOf(recipient.publicKeyUncompressedHex), INFO, (enc) => (seen = enc), Buffer.from('secret'));
    expect(seen).toEqual(sealed.enc);
    expect(hpkeOpenBase(bytesOf(recipient.privateKeyHex), sealed.enc, INFO, sealed.enc, sealed.ciphertext).toString()).toBe('secret');
  });

  it('refuses another key, another info or aad, a tampered ciphertext, and a recipient key off the curve', () => {
    const recipient = generateP256KeyPair();
    const sealed = hpkeSealBase(bytesOf(recipient.publicKeyUncompressedHex), INFO, Buffer.from('aad'), Buffer.from('secret'));
    const tampered = Buffer.from(sealed.ciphertext);
    tampered[0] ^= 1;
    const attempts: Array<() => unknown> = [
      () => hpkeOpenBase(bytesOf(generateP256KeyPair().privateKeyHex), sealed.enc, INFO, Buffer.from('aad'), sealed.ciphertext),
      () => hpkeOpenBase(bytesOf(recipient.privateKeyHex), sealed.enc, Buffer.from('other'), Buffer.from('aad'), sealed.ciphertext),
      () => hpkeOpenBase(bytesOf(recipient.privateKeyHex), sealed.enc, INFO, Buffer.from('other'), sealed.ciphertext),
      () => hpkeOpenBase(bytesOf(recipient.privateKeyHex), sealed.enc, INFO, Buffer.from('aad'), tampered),
      () => hpkeOpenBase(bytesOf(recipient.privateKeyHex), sealed.encCompressed, INFO, Buffer.from('aad'), sealed.ciphertext),
      () => hpkeSealBase(bytesOf('04' + '01'.repeat(64)), INFO, Buffer.alloc(0), Buffer.from('secret')),
      () => hpkeSealBase(bytesOf('00'), INFO, Buffer.alloc(0), Buffer.from('secret')),
    ];
    for (const attempt of attempts) expect(attempt).toThrow(HpkeError);
  });
});
