import type { KeyObject } from 'node:crypto';
import { hpkeOpenBase } from './hpke';
import {
  P256KeyError,
  createP256PrivateKeyObject,
  decodeP256PrivateKeyHex,
  generateP256KeyPair,
  isHexString,
  isValidP256PublicKeyHex,
  p256PublicKeyFromPrivateKeyHex,
  signP256Sha256LowSWithKeyObject,
  uncompressP256PublicKeyHex,
} from './p256';

/** Version string the client library expects in a signed target bundle. */
export const OTP_ENCRYPTION_TARGET_BUNDLE_VERSION = 'v1.0.0';

/**
 * HPKE `info` used by @turnkey/crypto's hpkeEncrypt/hpkeDecrypt. The library hard-codes the key
 * schedule context, whose info_hash is LabeledExtract("", "info_hash", "turnkey_hpke"). Both
 * directions use base mode with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM (./hpke).
 */
export const TURNKEY_HPKE_INFO = Buffer.from('turnkey_hpke', 'utf8');

/**
 * @turnkey/crypto authenticates both public keys with the ciphertext: the AES-GCM additional data is
 * the uncompressed encapsulated key followed by the uncompressed receiver key (65 + 65 bytes).
 */
export function turnkeyHpkeAdditionalData(encappedKeyUncompressed: Uint8Array, receiverPublicKeyUncompressed: Uint8Array): Uint8Array {
  return Buffer.concat([encappedKeyUncompressed, receiverPublicKeyUncompressed]);
}

const UNCOMPRESSED_POINT_BYTES = 65;
const AES_GCM_TAG_BYTES = 16;
// A genuine bundle is a few hundred characters; the bound keeps hostile input cheap to refuse.
const MAX_ENCRYPTED_OTP_BUNDLE_LENGTH = 8192;
const MAX_OTP_CODE_LENGTH = 64;

export type OtpBundleErrorKind = 'MALFORMED' | 'DECRYPTION_FAILED' | 'INVALID_PLAINTEXT' | 'INVALID_TARGET_KEY';

export class OtpBundleError extends Error {
  constructor(
    readonly kind: OtpBundleErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'OtpBundleError';
  }
}

/** The deployment's enclave signing key: signs target bundles so clients can pin where the OTP goes. */
export class EnclaveSigner {
  readonly publicKeyUncompressedHex: string;
  private readonly privateKey: KeyObject;

  constructor(privateKeyHex: string) {
    this.privateKey = createP256PrivateKeyObject(privateKeyHex);
    this.publicKeyUncompressedHex = p256PublicKeyFromPrivateKeyHex(privateKeyHex).publicKeyUncompressedHex;
  }

  static generate(): EnclaveSigner {
    return new EnclaveSigner(generateP256KeyPair().privateKeyHex);
  }

  /** DER hex, low S: the client library verifies with @noble/curves. */
  signLowS(message: Uint8Array | string): string {
    return signP256Sha256LowSWithKeyObject(this.privateKey, message);
  }
}

export interface OtpEncryptionTarget {
  otpEncryptionTargetBundle: string;
  /** Keep server side with the challenge; it opens the client's encryptedOtpBundle. */
  targetPrivateKeyHex: string;
}

export function createOtpEncryptionTarget(signer: EnclaveSigner): OtpEncryptionTarget {
  const targetKeyPair = generateP256KeyPair();
  const signedDataBytes = Buffer.from(JSON.stringify({ targetPublic: targetKeyPair.publicKeyUncompressedHex }), 'utf8');
  const otpEncryptionTargetBundle = JSON.stringify({
    version: OTP_ENCRYPTION_TARGET_BUNDLE_VERSION,
    data: signedDataBytes.toString('hex'),
    // The client hex-decodes `data` and checks the signature over those bytes.
    dataSignature: signer.signLowS(signedDataBytes),
    enclaveQuorumPublic: signer.publicKeyUncompressedHex,
  });
  return { otpEncryptionTargetBundle, targetPrivateKeyHex: targetKeyPair.privateKeyHex };
}

export interface DecryptedOtpBundle {
  otpCode: string;
  /** The client's session public key exactly as it put it in the plaintext. */
  clientPublicKeyHex: string;
}

interface EncryptedOtpBundleParts {
  encappedKeyUncompressed: Uint8Array;
  ciphertext: Uint8Array;
}

function malformed(message: string): OtpBundleError {
  return new OtpBundleError('MALFORMED', message);
}

function parseEncryptedOtpBundle(encryptedOtpBundle: unknown): EncryptedOtpBundleParts {
  if (typeof encryptedOtpBundle !== 'string' || encryptedOtpBundle.length === 0) throw malformed('encryptedOtpBundle must be a string');
  if (encryptedOtpBundle.length > MAX_ENCRYPTED_OTP_BUNDLE_LENGTH) throw malformed('encryptedOtpBundle is too long');
  let parsed: unknown;
  try {
    parsed = JSON.parse(encryptedOtpBundle);
  } catch {
    throw malformed('encryptedOtpBundle is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw malformed('encryptedOtpBundle must be a JSON object');
  const { encappedPublic, ciphertext } = parsed as Record<string, unknown>;
  if (!isValidP256PublicKeyHex(encappedPublic)) throw malformed('encappedPublic is not a P-256 public key in hex');
  if (!isHexString(ciphertext) || ciphertext.length / 2 <= AES_GCM_TAG_BYTES) throw malformed('ciphertext is not hex of an AEAD ciphertext');
  // The client library sends the uncompressed point; the KEM context is defined over that form.
  const encappedKeyUncompressed = Buffer.from(uncompressP256PublicKeyHex(encappedPublic), 'hex');
  if (encappedKeyUncompressed.length !== UNCOMPRESSED_POINT_BYTES) throw malformed('encappedPublic has the wrong length');
  return { encappedKeyUncompressed, ciphertext: Buffer.from(ciphertext, 'hex') };
}

function parseOtpPlaintext(plaintext: Uint8Array): DecryptedOtpBundle {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw new OtpBundleError('INVALID_PLAINTEXT', 'decrypted OTP bundle is not UTF-8 JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new OtpBundleError('INVALID_PLAINTEXT', 'decrypted OTP bundle is not a JSON object');
  }
  const { otp_code: otpCode, public_key: clientPublicKeyHex } = parsed as Record<string, unknown>;
  if (typeof otpCode !== 'string' || otpCode.length === 0 || otpCode.length > MAX_OTP_CODE_LENGTH) {
    throw new OtpBundleError('INVALID_PLAINTEXT', 'decrypted OTP bundle has no otp_code string');
  }
  if (!isValidP256PublicKeyHex(clientPublicKeyHex)) {
    throw new OtpBundleError('INVALID_PLAINTEXT', 'decrypted OTP bundle public_key is not a P-256 public key');
  }
  return { otpCode, clientPublicKeyHex };
}

function decodeTargetPrivateKey(targetPrivateKeyHex: string): Uint8Array {
  try {
    return decodeP256PrivateKeyHex(targetPrivateKeyHex);
  } catch (error) {
    const detail = error instanceof P256KeyError ? error.message : 'target private key could not be imported';
    throw new OtpBundleError('INVALID_TARGET_KEY', detail);
  }
}

/**
 * Opens the `encryptedOtpBundle` that @turnkey/crypto's encryptOtpCodeToBundle produced for the
 * target bundle whose private key is given. Wrong key or tampering: DECRYPTION_FAILED.
 */
export function decryptOtpBundle(encryptedOtpBundle: string, targetPrivateKeyHex: string): DecryptedOtpBundle {
  const { encappedKeyUncompressed, ciphertext } = parseEncryptedOtpBundle(encryptedOtpBundle);
  const targetPrivateKey = decodeTargetPrivateKey(targetPrivateKeyHex);
  const targetPublicKeyUncompressed = Buffer.from(p256PublicKeyFromPrivateKeyHex(targetPrivateKeyHex).publicKeyUncompressedHex, 'hex');
  let plaintext: Uint8Array;
  try {
    plaintext = hpkeOpenBase(
      targetPrivateKey,
      encappedKeyUncompressed,
      TURNKEY_HPKE_INFO,
      turnkeyHpkeAdditionalData(encappedKeyUncompressed, targetPublicKeyUncompressed),
      ciphertext,
    );
  } catch {
    throw new OtpBundleError('DECRYPTION_FAILED', 'encryptedOtpBundle could not be decrypted with this challenge key');
  }
  return parseOtpPlaintext(plaintext);
}
