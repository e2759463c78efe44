import { createCipheriv, createDecipheriv, createHash, createPrivateKey, generateKeyPairSync, KeyObject, randomBytes } from 'node:crypto';

const SEALED_VERSION = 'v1';

/** A new platform signing key pair: the public half as PEM (SPKI), the private half sealed. */
export interface GeneratedSigningKey {
  publicKeyPem: string;
  sealedPrivateKey: string;
  keyEncryptionKeyId: string;
}

/**
 * Keeps platform signing keys sealed at rest: AES-256-GCM under the service's key-encryption key,
 * bound to the platform id (additional data), so a sealed key copied to another platform's row
 * does not open. The private key leaves this class only as a KeyObject used to sign.
 */
export class KeyVault {
  readonly keyEncryptionKeyId: string;

  constructor(private readonly keyEncryptionKey: Buffer) {
    if (keyEncryptionKey.length !== 32) throw new Error('The key-encryption key must be 32 bytes');
    // Identifies which key sealed a row without revealing it.
    this.keyEncryptionKeyId = createHash('sha256').update('paykit-kek-id').update(keyEncryptionKey).digest('hex').slice(0, 16);
  }

  generate(platformId: string): GeneratedSigningKey {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return {
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      sealedPrivateKey: this.seal(platformId, privateKey.export({ type: 'pkcs8', format: 'der' })),
      keyEncryptionKeyId: this.keyEncryptionKeyId,
    };
  }

  open(platformId: string, sealed: string, keyEncryptionKeyId: string): KeyObject {
    if (keyEncryptionKeyId !== this.keyEncryptionKeyId) {
      throw new Error(`The signing key of platform ${platformId} was sealed with another key-encryption key (${keyEncryptionKeyId})`);
    }
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== SEALED_VERSION || !iv || !tag || !ciphertext) throw new Error('Malformed sealed signing key');
    const decipher = createDecipheriv('aes-256-gcm', this.keyEncryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(platformId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const der = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  }

  private seal(platformId: string, der: Buffer): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyEncryptionKey, iv);
    cipher.setAAD(Buffer.from(platformId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(der), cipher.final()]);
    return [SEALED_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }
}
