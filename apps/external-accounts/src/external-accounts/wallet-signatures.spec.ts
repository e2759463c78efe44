import { ed25519 } from '@noble/curves/ed25519';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { base58Encode, evmAddress, isWalletSignature, tronAddress } from './wallet-signatures';

const message = 'I verify that I control the wallet. Nonce: 1';

/** A personal-message signature as a wallet makes it: 65 bytes r, s, v (27 or 28), hex. */
function personalSign(prefix: string, privateKey: Uint8Array, text: string): string {
  const body = new TextEncoder().encode(text);
  const digest = keccak_256(new Uint8Array([...new TextEncoder().encode(`\x19${prefix} Signed Message:\n${body.length}`), ...body]));
  const signature = secp256k1.sign(digest, privateKey);
  return `0x${signature.toCompactHex()}${(27 + signature.recovery).toString(16)}`;
}

describe(isWalletSignature.name, () => {
  const key = secp256k1.utils.randomPrivateKey();
  const account = keccak_256(secp256k1.getPublicKey(key, false).slice(1)).slice(-20);

  it.each(['ETHEREUM', 'BASE', 'POLYGON', 'PLASMA'] as const)('%s: an EIP-191 signature by the address (any letter case)', (network) => {
    const address = evmAddress(account).toUpperCase().replace('0X', '0x');
    expect(isWalletSignature(network, address, message, personalSign('Ethereum', key, message))).toBe(true);
    expect(isWalletSignature(network, address, `${message}!`, personalSign('Ethereum', key, message))).toBe(false);
    expect(isWalletSignature(network, evmAddress(new Uint8Array(20)), message, personalSign('Ethereum', key, message))).toBe(false);
  });

  it('TRON: a TIP-191 signature by the address', () => {
    const address = tronAddress(account);
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(isWalletSignature('TRON', address, message, personalSign('TRON', key, message))).toBe(true);
    expect(isWalletSignature('TRON', address, message, personalSign('Ethereum', key, message))).toBe(false);
  });

  it('SOLANA: an Ed25519 signature (base58) by the address (the public key)', () => {
    const secret = ed25519.utils.randomPrivateKey();
    const address = base58Encode(ed25519.getPublicKey(secret));
    const signature = base58Encode(ed25519.sign(new TextEncoder().encode(message), secret));
    expect(isWalletSignature('SOLANA', address, message, signature)).toBe(true);
    expect(isWalletSignature('SOLANA', address, `${message}!`, signature)).toBe(false);
    expect(isWalletSignature('SOLANA', address, message, 'not-base58-0OIl')).toBe(false);
  });

  it('refuses malformed signatures without throwing', () => {
    expect(isWalletSignature('ETHEREUM', evmAddress(account), message, '0x1234')).toBe(false);
    expect(isWalletSignature('LIGHTNING', 'x', message, 'y')).toBe(false);
  });
});
