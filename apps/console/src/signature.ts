/**
 * Checks a webhook's `X-Service-Signature` (`{"v":"1","s":"<base64 DER ECDSA P-256/SHA-256>"}`)
 * over its exact body with the platform's public key (PEM SPKI, `GET /config` webhookPublicKey),
 * in the browser with WebCrypto: the same check a receiver makes.
 */
export type SignatureCheck = 'valid' | 'invalid' | 'unavailable';

function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** DER `SEQUENCE { INTEGER r, INTEGER s }` to the 64-byte `r || s` WebCrypto verifies. */
function derToRaw(der: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  if (der[0] !== 0x30) return undefined;
  let offset = der[1] & 0x80 ? 2 + (der[1] & 0x7f) : 2;
  const raw = new Uint8Array(64);
  for (let part = 0; part < 2; part += 1) {
    if (der[offset] !== 0x02) return undefined;
    const length = der[offset + 1];
    let integer = der.subarray(offset + 2, offset + 2 + length);
    while (integer.length > 32 && integer[0] === 0) integer = integer.subarray(1);
    if (integer.length > 32) return undefined;
    raw.set(integer, part * 32 + (32 - integer.length));
    offset += 2 + length;
  }
  return raw;
}

export async function checkSignature(publicKeyPem: string, body: string, header: string): Promise<SignatureCheck> {
  // WebCrypto exists only in a secure context (https, or http on localhost / 127.0.0.1).
  if (!globalThis.crypto?.subtle) return 'unavailable';
  try {
    const { v, s } = JSON.parse(header) as { v?: string; s?: string };
    const raw = v === '1' && typeof s === 'string' ? derToRaw(base64Bytes(s)) : undefined;
    if (!raw) return 'invalid';
    const spki = base64Bytes(publicKeyPem.replace(/-----(BEGIN|END) PUBLIC KEY-----|\s/g, ''));
    const key = await crypto.subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    const valid = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw, new TextEncoder().encode(body));
    return valid ? 'valid' : 'invalid';
  } catch {
    return 'invalid';
  }
}
