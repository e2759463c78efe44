import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { WalletNetwork } from '@paykit/contracts';

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58Decode(text: string): Uint8Array | null {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

export function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = value * 256n + BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)] + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = '1' + text;
  }
  return text;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The digest a wallet signs for a personal message: EIP-191 on EVM networks, its TRON counterpart (TIP-191) on Tron. */
function personalMessageDigest(prefix: string, message: string): Uint8Array {
  const body = utf8(message);
  return keccak_256(new Uint8Array([...utf8(`\x19${prefix} Signed Message:\n${body.length}`), ...body]));
}

/** The uncompressed public key that produced a 65-byte (r, s, v) signature over `digest`, or null. */
function recoverPublicKey(signatureHex: string, digest: Uint8Array): Uint8Array | null {
  const hex = signatureHex.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) return null;
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  const v = bytes[64] >= 27 ? bytes[64] - 27 : bytes[64];
  if (v !== 0 && v !== 1) return null;
  try {
    const point = secp256k1.Signature.fromCompact(bytes.slice(0, 64)).addRecoveryBit(v).recoverPublicKey(digest);
    return point.toRawBytes(false);
  } catch {
    return null;
  }
}

/** The 20-byte account of a secp256k1 public key: the last 20 bytes of keccak-256 of its coordinates. */
function accountBytes(publicKey: Uint8Array): Uint8Array {
  return keccak_256(publicKey.slice(1)).slice(-20);
}

/** A Tron address: base58check of 0x41 and the account bytes. */
export function tronAddress(account: Uint8Array): string {
  const payload = new Uint8Array([0x41, ...account]);
  const checksum = sha256(sha256(payload)).slice(0, 4);
  return base58Encode(new Uint8Array([...payload, ...checksum]));
}

export function evmAddress(account: Uint8Array): string {
  return `0x${Buffer.from(account).toString('hex')}`;
}

/**
 * Whether `signature` is the wallet at `address` signing `message` exactly, on the wallet's
 * network: EIP-191 personal messages on EVM networks (hex r, s, v), TIP-191 on Tron, Ed25519 over
 * the UTF-8 message on Solana (base58 signature, the address is the public key).
 */
export function isWalletSignature(network: WalletNetwork, address: string, message: string, signature: string): boolean {
  switch (network) {
    case 'ETHEREUM':
    case 'BASE':
    case 'POLYGON':
    case 'PLASMA': {
      const publicKey = recoverPublicKey(signature, personalMessageDigest('Ethereum', message));
      return publicKey !== null && evmAddress(accountBytes(publicKey)) === address.toLowerCase();
    }
    case 'TRON': {
      const publicKey = recoverPublicKey(signature, personalMessageDigest('TRON', message));
      return publicKey !== null && tronAddress(accountBytes(publicKey)) === address;
    }
    case 'SOLANA': {
      const publicKey = base58Decode(address);
      const bytes = base58Decode(signature);
      if (!publicKey || publicKey.length !== 32 || !bytes || bytes.length !== 64) return false;
      try {
        return ed25519.verify(bytes, utf8(message), publicKey);
      } catch {
        return false;
      }
    }
    case 'LIGHTNING':
      return false;
  }
}
