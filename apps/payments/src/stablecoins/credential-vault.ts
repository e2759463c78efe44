import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const SEALED_VERSION = 'v1';

/**
 * Seals a provider credential at rest: AES-256-GCM under the payments key-encryption key, bound to
 * the platform id (additional data), so a sealed secret copied to another platform's row does not
 * open. Only the provider adapter opens it, to call the provider.
 */
export class CredentialVault {
  constructor(private readonly keyEncryptionKey: Buffer) {
    if (keyEncryptionKey.length !== 32) throw new Error('The key-encryption key must be 32 bytes');
  }

  seal(platformId: string, secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyEncryptionKey, iv);
    cipher.setAAD(Buffer.from(platformId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [SEALED_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(platformId: string, sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== SEALED_VERSION || !iv || !tag || ciphertext === undefined) throw new Error('Malformed sealed credential');
    const decipher = createDecipheriv('aes-256-gcm', this.keyEncryptionKey, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(platformId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
