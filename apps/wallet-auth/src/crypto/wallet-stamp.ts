import { p256 } from '@noble/curves/nist';
import { isHexString, isSameP256PublicKey, isValidP256PublicKeyHex, verifyP256Sha256 } from './p256';

/** Scheme string written by @turnkey/api-key-stamper into every stamp. */
export const WALLET_STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

// A genuine stamp is about 300 characters; the bound keeps hostile headers from costing a large decode.
const MAX_STAMP_HEADER_LENGTH = 2048;
// The stamper writes unpadded base64url; padding is tolerated because some HTTP clients add it.
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+={0,2}$/;

export type WalletStampErrorKind = 'MALFORMED';

export class WalletStampError extends Error {
  constructor(
    readonly kind: WalletStampErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'WalletStampError';
  }
}

export interface WalletStamp {
  /** Public key the stamp claims to be signed by, lowercase hex as sent (compressed per the stamper). */
  publicKeyHex: string;
  /** DER ECDSA signature, lowercase hex. */
  signatureHex: string;
}

function malformed(message: string): WalletStampError {
  return new WalletStampError('MALFORMED', message);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDerEcdsaSignature(signatureHex: string): boolean {
  try {
    p256.Signature.fromBytes(Buffer.from(signatureHex, 'hex'), 'der');
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a `Service-Wallet-Signature` header: base64url of the JSON
 * `{publicKey, scheme, signature}` written by ApiKeyStamper.stamp(). Throws WalletStampError(MALFORMED)
 * on anything that is not such a stamp; it does not check the signature.
 */
export function parseWalletStamp(headerValue: unknown): WalletStamp {
  if (typeof headerValue !== 'string') throw malformed('wallet signature header must be a string');
  const encoded = headerValue.trim();
  if (encoded.length === 0) throw malformed('wallet signature header is empty');
  if (encoded.length > MAX_STAMP_HEADER_LENGTH) throw malformed('wallet signature header is too long');
  if (!BASE64URL_PATTERN.test(encoded)) throw malformed('wallet signature header is not base64url');

  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw malformed('wallet signature header does not decode to JSON');
  }
  if (!isPlainObject(decoded)) throw malformed('wallet signature stamp must be a JSON object');

  const { publicKey, scheme, signature } = decoded;
  if (scheme !== WALLET_STAMP_SCHEME) throw malformed(`wallet signature scheme must be ${WALLET_STAMP_SCHEME}`);
  if (!isValidP256PublicKeyHex(publicKey)) throw malformed('wallet signature publicKey is not a P-256 public key in hex');
  if (!isHexString(signature) || !isDerEcdsaSignature(signature)) {
    throw malformed('wallet signature signature is not a DER ECDSA signature in hex');
  }
  return { publicKeyHex: publicKey.toLowerCase(), signatureHex: signature.toLowerCase() };
}

/**
 * Checks the stamp's signature over the exact payloadToSign string (UTF-8, byte for byte).
 * When sessionPublicKeyHex is given, the stamp must also name that key: a stamp is only
 * trusted for the session key the service stored, never merely for the key it claims.
 */
export function verifyWalletStamp(stamp: WalletStamp, payloadToSign: string, sessionPublicKeyHex?: string): boolean {
  if (typeof payloadToSign !== 'string') return false;
  if (sessionPublicKeyHex !== undefined && !isSameP256PublicKey(stamp.publicKeyHex, sessionPublicKeyHex)) return false;
  return verifyP256Sha256(stamp.publicKeyHex, payloadToSign, stamp.signatureHex);
}
