import { Agent, request as httpRequest } from 'node:http';
import type { Credentials } from './api-client';

export interface RawResponse {
  status: number;
  contentType: string | undefined;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

export interface RawRequest {
  method: string;
  /** The path and query exactly as they go on the wire (already percent-encoded, or deliberately not). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  auth?: Credentials;
  /** A keep-alive agent, to send requests one after another on one connection. */
  agent?: Agent;
  /** Sends the body in 1 KiB chunks (chunked transfer encoding, no content-length), as a streaming client does. */
  chunked?: boolean;
  /** The client address to send from (any of 127.0.0.0/8 here): a second caller, as the gateway sees it. */
  localAddress?: string;
}

export function basicAuth(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.tokenId}:${credentials.secret}`).toString('base64')}`;
}

/**
 * One HTTP request through node:http, byte for byte as given: hostile-input specs send what fetch
 * would refuse to build (a NUL in a header, a URL that is not UTF-8, headers of any size), and what
 * no operation documents (431), so they go around the response-conformance check on fetch.
 */
export function rawRequest(origin: string, { method, path, headers = {}, body, auth, agent, chunked, localAddress }: RawRequest): Promise<RawResponse> {
  const url = new URL(origin);
  const sent: Record<string, string> = { ...headers };
  if (auth) sent.authorization ??= basicAuth(auth);
  if (body !== undefined && !chunked) sent['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: sent, insecureHTTPParser: false, ...(agent ? { agent } : {}), ...(localAddress ? { localAddress } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], text, json });
        });
        res.on('error', reject);
      },
    );
    // The server may answer and close before the whole body is sent (a 413, a 431): the answer counts.
    req.on('error', reject);
    if (chunked && body !== undefined) {
      const bytes = Buffer.from(body);
      for (let offset = 0; offset < bytes.length; offset += 1024) req.write(bytes.subarray(offset, offset + 1024));
      req.end();
    } else req.end(body);
  });
}

/** True when `response` is an error in the spec's envelope: `{status, code, message, details?}`, status repeated. */
export function isErrorEnvelope(response: RawResponse): boolean {
  const body = response.json;
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    body.status === response.status &&
    typeof body.code === 'string' &&
    /^[A-Z][A-Z0-9_]*$/.test(body.code) &&
    typeof body.message === 'string' &&
    (body.details === undefined || (typeof body.details === 'object' && body.details !== null && !Array.isArray(body.details))) &&
    Object.keys(body).every((key) => ['status', 'code', 'message', 'details'].includes(key))
  );
}
