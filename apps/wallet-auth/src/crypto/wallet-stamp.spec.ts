import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { generateP256KeyPair, type P256KeyPair } from './p256';
import { WALLET_STAMP_SCHEME, WalletStampError, parseWalletStamp, verifyWalletStamp } from './wallet-stamp';

const PAYLOAD_TO_SIGN = JSON.stringify({
  requestId: 'Request:019a0000-0000-7000-8000-000000000000',
  operation: 'AUTH_CREDENTIAL_REVOKE',
  digest: 'a1b2c3',
  note: 'non-ASCII survives: é ✓',
});

async function stampWith(keyPair: P256KeyPair, payload: string): Promise<string> {
  const stamper = new ApiKeyStamper({ apiPublicKey: keyPair.publicKeyCompressedHex, apiPrivateKey: keyPair.privateKeyHex });
  const { stampHeaderValue } = await stamper.stamp(payload);
  return stampHeaderValue;
}

function encodeStamp(stamp: unknown): string {
  return Buffer.from(JSON.stringify(stamp), 'utf8').toString('base64url');
}

function expectMalformed(headerValue: unknown): void {
  let thrown: unknown;
  try {
    parseWalletStamp(headerValue);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(WalletStampError);
  expect((thrown as WalletStampError).kind).toBe('MALFORMED');
}

describe('wallet-stamp', () => {
  let sessionKey: P256KeyPair;

  beforeAll(() => {
    sessionKey = generateP256KeyPair();
  });

  describe(parseWalletStamp.name, () => {
    it('reads the public key and signature from a real ApiKeyStamper stamp', async () => {
      const headerValue = await stampWith(sessionKey, PAYLOAD_TO_SIGN);
      const decoded = JSON.parse(Buffer.from(headerValue, 'base64url').toString('utf8')) as Record<string, unknown>;
      expect(decoded.scheme).toBe(WALLET_STAMP_SCHEME);

      const stamp = parseWalletStamp(headerValue);
      expect(stamp.publicKeyHex).toBe(sessionKey.publicKeyCompressedHex);
      expect(stamp.signatureHex).toBe(decoded.signature);
    });

    it('tolerates base64 padding and surrounding whitespace', async () => {
      const headerValue = await stampWith(sessionKey, PAYLOAD_TO_SIGN);
      const padded = headerValue + '='.repeat((4 - (headerValue.length % 4)) % 4);
      expect(parseWalletStamp(`  ${padded} `).publicKeyHex).toBe(sessionKey.publicKeyCompressedHex);
    });

    it.each<[string, unknown]>([
      ['a non-string', 42],
      ['an empty string', ''],
      ['non-base64url text', 'not a stamp!'],
      ['base64url of non-JSON', Buffer.from('hello').toString('base64url')],
      ['a JSON array', encodeStamp(['a'])],
      ['an overlong value', 'A'.repeat(5000)],
    ])('rejects %s as MALFORMED', (_label, headerValue) => {
      expectMalformed(headerValue);
    });

    it('rejects stamps with a wrong scheme, bad public key or bad signature as MALFORMED', async () => {
      const genuine = JSON.parse(Buffer.from(await stampWith(sessionKey, PAYLOAD_TO_SIGN), 'base64url').toString('utf8')) as Record<string, unknown>;
      expectMalformed(encodeStamp({ ...genuine, scheme: 'SIGNATURE_SCHEME_TK_API_ED25519' }));
      expectMalformed(encodeStamp({ ...genuine, scheme: undefined }));
      expectMalformed(encodeStamp({ ...genuine, publicKey: '02' + 'ff'.repeat(32) }));
      expectMalformed(encodeStamp({ ...genuine, publicKey: 12 }));
      expectMalformed(encodeStamp({ ...genuine, signature: 'zz' }));
      expectMalformed(encodeStamp({ ...genuine, signature: '3006020101020101ff' }));
      expectMalformed(encodeStamp({ ...genuine, signature: undefined }));
    });
  });

  describe(verifyWalletStamp.name, () => {
    it('accepts a real stamp over the exact payload, many times (high-S signatures included)', async () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const payload = `${PAYLOAD_TO_SIGN}#${attempt}`;
        const stamp = parseWalletStamp(await stampWith(sessionKey, payload));
        expect(verifyWalletStamp(stamp, payload)).toBe(true);
      }
    });

    it('rejects a stamp over a different payload', async () => {
      const stamp = parseWalletStamp(await stampWith(sessionKey, PAYLOAD_TO_SIGN));
      expect(verifyWalletStamp(stamp, PAYLOAD_TO_SIGN.replace('revoke', 'Revoke').replace('a1b2c3', 'a1b2c4'))).toBe(false);
      expect(verifyWalletStamp(stamp, `${PAYLOAD_TO_SIGN} `)).toBe(false);
    });

    it('rejects a stamp whose claimed key did not make the signature', async () => {
      const otherKey = generateP256KeyPair();
      const stamp = parseWalletStamp(await stampWith(otherKey, PAYLOAD_TO_SIGN));
      expect(verifyWalletStamp({ ...stamp, publicKeyHex: sessionKey.publicKeyCompressedHex }, PAYLOAD_TO_SIGN)).toBe(false);
    });

    it('binds the stamp to the stored session key when one is given', async () => {
      const stamp = parseWalletStamp(await stampWith(sessionKey, PAYLOAD_TO_SIGN));
      expect(verifyWalletStamp(stamp, PAYLOAD_TO_SIGN, sessionKey.publicKeyUncompressedHex)).toBe(true);
      expect(verifyWalletStamp(stamp, PAYLOAD_TO_SIGN, generateP256KeyPair().publicKeyCompressedHex)).toBe(false);
    });
  });
});
