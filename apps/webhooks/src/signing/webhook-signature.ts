import { createSign, KeyObject } from 'node:crypto';
import { WEBHOOK_SIGNATURE_VERSION } from '@paykit/contracts';

/** `X-Service-Signature` value: `{"v":"1","s":"<base64 DER ECDSA P-256/SHA-256 over the raw body>"}` (INTEROP.md). */
export function signatureHeader(privateKey: KeyObject, rawBody: string | Buffer): string {
  const signature = createSign('SHA256').update(rawBody).sign(privateKey);
  return JSON.stringify({ v: WEBHOOK_SIGNATURE_VERSION, s: signature.toString('base64') });
}
