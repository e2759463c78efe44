import { encryptOtpCodeToBundle, formatHpkeBuf, hpkeEncrypt } from '@turnkey/crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { p256 } from '@noble/curves/nist';
import { sha256 } from '@noble/hashes/sha2';
import { EnclaveSigner, OTP_ENCRYPTION_TARGET_BUNDLE_VERSION, OtpBundleError, createOtpEncryptionTarget, decryptOtpBundle } from './otp-bundle';
import { generateP256KeyPair, isLowSDerSignature } from './p256';
import { parseWalletStamp, verifyWalletStamp } from './wallet-stamp';

interface ParsedTargetBundle {
  version: string;
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
}

function expectOtpBundleError(open: () => unknown, kind: OtpBundleError['kind']): void {
  expect(open).toThrow(OtpBundleError);
  expect(open).toThrow(expect.objectContaining({ kind }));
}

describe('otp-bundle', () => {
  const signer = EnclaveSigner.generate();

  describe(EnclaveSigner.name, () => {
    it('exposes the uncompressed public key of its private key', () => {
      const keyPair = generateP256KeyPair();
      expect(new EnclaveSigner(keyPair.privateKeyHex).publicKeyUncompressedHex).toBe(keyPair.publicKeyUncompressedHex);
    });

    it('refuses an invalid private key', () => {
      expect(() => new EnclaveSigner('00'.repeat(32))).toThrow();
    });
  });

  describe(createOtpEncryptionTarget.name, () => {
    it('produces a bundle whose data signature verifies under strict (low-S) @noble/curves', () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const { otpEncryptionTargetBundle, targetPrivateKeyHex } = createOtpEncryptionTarget(signer);
        const bundle = JSON.parse(otpEncryptionTargetBundle) as ParsedTargetBundle;
        expect(bundle.version).toBe(OTP_ENCRYPTION_TARGET_BUNDLE_VERSION);
        expect(bundle.enclaveQuorumPublic).toBe(signer.publicKeyUncompressedHex);
        const signedData = JSON.parse(Buffer.from(bundle.data, 'hex').toString('utf8')) as { targetPublic: string };
        expect(signedData.targetPublic).toBe(Buffer.from(p256.getPublicKey(Buffer.from(targetPrivateKeyHex, 'hex'), false)).toString('hex'));
        expect(isLowSDerSignature(bundle.dataSignature)).toBe(true);
        const verified = p256.verify(Buffer.from(bundle.dataSignature, 'hex'), sha256(Buffer.from(bundle.data, 'hex')), Buffer.from(bundle.enclaveQuorumPublic, 'hex'), {
          format: 'der',
          lowS: true,
        });
        expect(verified).toBe(true);
      }
    });

    it('uses a fresh target key for every challenge', () => {
      expect(createOtpEncryptionTarget(signer).targetPrivateKeyHex).not.toBe(createOtpEncryptionTarget(signer).targetPrivateKeyHex);
    });
  });

  describe(decryptOtpBundle.name, () => {
    it('opens what encryptOtpCodeToBundle from @turnkey/crypto sealed, pinned to our signer key', async () => {
      const clientKey = generateP256KeyPair();
      const { otpEncryptionTargetBundle, targetPrivateKeyHex } = createOtpEncryptionTarget(signer);
      const encryptedOtpBundle = await encryptOtpCodeToBundle('000000', otpEncryptionTargetBundle, clientKey.publicKeyCompressedHex, signer.publicKeyUncompressedHex);

      const decrypted = decryptOtpBundle(encryptedOtpBundle, targetPrivateKeyHex);
      expect(decrypted).toEqual({ otpCode: '000000', clientPublicKeyHex: clientKey.publicKeyCompressedHex });
    });

    it('yields a client key that then verifies the signed-retry stamp', async () => {
      const clientKey = generateP256KeyPair();
      const { otpEncryptionTargetBundle, targetPrivateKeyHex } = createOtpEncryptionTarget(signer);
      const encryptedOtpBundle = await encryptOtpCodeToBundle('123456', otpEncryptionTargetBundle, clientKey.publicKeyUncompressedHex, signer.publicKeyUncompressedHex);
      const { clientPublicKeyHex } = decryptOtpBundle(encryptedOtpBundle, targetPrivateKeyHex);

      const payloadToSign = '{"requestId":"Request:1","op":"OTP_VERIFY"}';
      const stamper = new ApiKeyStamper({ apiPublicKey: clientKey.publicKeyCompressedHex, apiPrivateKey: clientKey.privateKeyHex });
      const stamp = parseWalletStamp((await stamper.stamp(payloadToSign)).stampHeaderValue);
      expect(verifyWalletStamp(stamp, payloadToSign, clientPublicKeyHex)).toBe(true);
    });

    it('refuses to open a bundle with another challenge key', async () => {
      const clientKey = generateP256KeyPair();
      const first = createOtpEncryptionTarget(signer);
      const second = createOtpEncryptionTarget(signer);
      const encryptedOtpBundle = await encryptOtpCodeToBundle('000000', first.otpEncryptionTargetBundle, clientKey.publicKeyCompressedHex, signer.publicKeyUncompressedHex);
      expectOtpBundleError(() => decryptOtpBundle(encryptedOtpBundle, second.targetPrivateKeyHex), 'DECRYPTION_FAILED');
    });

    it('detects a tampered ciphertext or swapped encapsulated key', async () => {
      const clientKey = generateP256KeyPair();
      const { otpEncryptionTargetBundle, targetPrivateKeyHex } = createOtpEncryptionTarget(signer);
      const encrypted = JSON.parse(await encryptOtpCodeToBundle('000000', otpEncryptionTargetBundle, clientKey.publicKeyCompressedHex, signer.publicKeyUncompressedHex)) as {
        encappedPublic: string;
        ciphertext: string;
      };
      const flipped = (encrypted.ciphertext[0] === '0' ? '1' : '0') + encrypted.ciphertext.slice(1);
      expectOtpBundleError(() => decryptOtpBundle(JSON.stringify({ ...encrypted, ciphertext: flipped }), targetPrivateKeyHex), 'DECRYPTION_FAILED');
      const otherEncapped = generateP256KeyPair().publicKeyUncompressedHex;
      expectOtpBundleError(() => decryptOtpBundle(JSON.stringify({ ...encrypted, encappedPublic: otherEncapped }), targetPrivateKeyHex), 'DECRYPTION_FAILED');
    });

    it('is refused by a client that pins a different signer key', async () => {
      const { otpEncryptionTargetBundle } = createOtpEncryptionTarget(signer);
      const clientKey = generateP256KeyPair();
      await expect(
        encryptOtpCodeToBundle('000000', otpEncryptionTargetBundle, clientKey.publicKeyCompressedHex, EnclaveSigner.generate().publicKeyUncompressedHex),
      ).rejects.toThrow();
    });

    it.each<[string, unknown]>([
      ['a non-string', 7],
      ['an empty string', ''],
      ['not JSON', '{nope'],
      ['a JSON array', '[]'],
      ['a missing encappedPublic', JSON.stringify({ ciphertext: 'ab'.repeat(40) })],
      ['an invalid encappedPublic', JSON.stringify({ encappedPublic: '04' + '01'.repeat(64), ciphertext: 'ab'.repeat(40) })],
      ['a non-hex ciphertext', JSON.stringify({ encappedPublic: generateP256KeyPair().publicKeyUncompressedHex, ciphertext: 'xyz' })],
      ['a too-short ciphertext', JSON.stringify({ encappedPublic: generateP256KeyPair().publicKeyUncompressedHex, ciphertext: 'ab'.repeat(16) })],
      ['an oversized bundle', 'x'.repeat(10000)],
    ])('rejects %s as MALFORMED', async (_label, encryptedOtpBundle) => {
      const { targetPrivateKeyHex } = createOtpEncryptionTarget(signer);
      expectOtpBundleError(() => decryptOtpBundle(encryptedOtpBundle as string, targetPrivateKeyHex), 'MALFORMED');
    });

    it.each<[string, string]>([
      ['not JSON', 'otp=000000'],
      ['missing otp_code', JSON.stringify({ public_key: generateP256KeyPair().publicKeyCompressedHex })],
      ['an invalid public_key', JSON.stringify({ otp_code: '000000', public_key: 'abcd' })],
    ])('reports a decrypted plaintext that is %s as INVALID_PLAINTEXT', async (_label, plaintext) => {
      const { otpEncryptionTargetBundle, targetPrivateKeyHex } = createOtpEncryptionTarget(signer);
      const { targetPublic } = JSON.parse(Buffer.from((JSON.parse(otpEncryptionTargetBundle) as ParsedTargetBundle).data, 'hex').toString('utf8')) as { targetPublic: string };
      // The same HPKE call encryptOtpCodeToBundle makes, with a plaintext a genuine client would never send.
      const encryptedOtpBundle = formatHpkeBuf(hpkeEncrypt({ plainTextBuf: Buffer.from(plaintext, 'utf8'), targetKeyBuf: Buffer.from(targetPublic, 'hex') }));
      expectOtpBundleError(() => decryptOtpBundle(encryptedOtpBundle, targetPrivateKeyHex), 'INVALID_PLAINTEXT');
    });

    it('reports an unusable target key as INVALID_TARGET_KEY', async () => {
      const encryptedOtpBundle = JSON.stringify({ encappedPublic: generateP256KeyPair().publicKeyUncompressedHex, ciphertext: 'ab'.repeat(40) });
      expectOtpBundleError(() => decryptOtpBundle(encryptedOtpBundle, 'not-a-key'), 'INVALID_TARGET_KEY');
    });
  });
});
