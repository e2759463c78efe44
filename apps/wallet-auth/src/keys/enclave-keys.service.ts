import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { WALLET_AUTH_CONFIG, WalletAuthConfig } from '../config/wallet-auth-config';
import { EnclaveSigner } from '../crypto/otp-bundle';
import { generateP256KeyPair } from '../crypto/p256';
import { EnclaveKeysRepository } from './enclave-keys.repository';

const AT_REST_INFO = 'paykit wallet-auth secrets at rest v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The deployment's enclave key. It signs every otpEncryptionTargetBundle (clients pin its public
 * key) and derives the key that seals secrets the service must keep for a while (OTP target keys,
 * wallet keys), so none of them sits in the database in clear. Every replica uses the same key:
 * the configured one, or the one the first replica generated and stored.
 */
@Injectable()
export class EnclaveKeysService implements OnModuleInit {
  private enclaveSigner?: EnclaveSigner;
  private atRestKey?: Buffer;

  constructor(
    private readonly stored: EnclaveKeysRepository,
    @Inject(WALLET_AUTH_CONFIG) private readonly config: WalletAuthConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const privateKeyHex = this.config.enclavePrivateKeyHex ?? (await this.stored.storedOrInsert(generateP256KeyPair().privateKeyHex));
    this.enclaveSigner = new EnclaveSigner(privateKeyHex);
    this.atRestKey = Buffer.from(hkdfSync('sha256', Buffer.from(privateKeyHex, 'hex'), Buffer.alloc(0), AT_REST_INFO, 32));
  }

  get signer(): EnclaveSigner {
    if (!this.enclaveSigner) throw new Error('Enclave key not loaded yet');
    return this.enclaveSigner;
  }

  get publicKeyUncompressedHex(): string {
    return this.signer.publicKeyUncompressedHex;
  }

  /** AES-256-GCM under the at-rest key: base64url(iv || tag || ciphertext). */
  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key(), iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
  }

  open(sealed: string): string {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key(), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** Keyed digest (HMAC-SHA256, hex) for short secrets such as OTP codes: a database dump cannot be brute-forced offline. */
  mac(text: string): string {
    return createHmac('sha256', this.key()).update(text, 'utf8').digest('hex');
  }

  macMatches(text: string, expectedHex: string): boolean {
    const actual = Buffer.from(this.mac(text), 'hex');
    const expected = Buffer.from(expectedHex, 'hex');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  private key(): Buffer {
    if (!this.atRestKey) throw new Error('Enclave key not loaded yet');
    return this.atRestKey;
  }
}
