/**
 * `npm run webhooks:listen`: a webhook receiver for development. It listens on loopback, sets
 * itself as the platform's webhook endpoint, verifies every signature with the platform's public
 * key (exactly as a platform's own receiver would, INTEROP.md), prints each event on one line and,
 * with --forward-to, passes it on unchanged to the application being developed. On exit it puts
 * the previous endpoint back.
 *
 *   npm run webhooks:listen -- --token-id <id> --secret <secret> [--url http://127.0.0.1:8080/2025-10-13]
 *                              [--port 4242] [--forward-to http://127.0.0.1:3000/webhooks]
 *                              [--replay [--replay-type CUSTOMER.KYC_PENDING]... [--replay-resource <id>]
 *                                        [--replay-from <ISO time>] [--replay-to <ISO time>]]
 *
 * --replay has the platform's past webhooks sent again to this listener (POST /sandbox/webhooks/replay),
 * filtered by type, resource and time range, in their original order; each is printed marked as a replay.
 *
 * Credentials default to SANDBOX_TOKEN_ID / SANDBOX_TOKEN_SECRET, the URL to PAYKIT_URL.
 */
import { createVerify } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

export interface ListenerOptions {
  /** `{base_url}`, e.g. `http://127.0.0.1:8080/2025-10-13`. */
  baseUrl: string;
  credentials: { tokenId: string; secret: string };
  /** Loopback port to listen on; 0 picks a free one. */
  port: number;
  /** Where to pass each verified event on (raw body and signature header unchanged). */
  forwardTo?: string;
  /** Once listening, replay the platform's past webhooks that match to this listener. */
  replay?: ReplayFilter;
  print?: (line: string) => void;
}

/** The filter of `POST /sandbox/webhooks/replay` (none: every webhook of the platform). */
export interface ReplayFilter {
  types?: string[];
  resourceId?: string;
  from?: string;
  to?: string;
}

export interface RunningListener {
  /** The endpoint it set: `http://127.0.0.1:<port>/webhooks`. */
  url: string;
  /** The replay started with `replay`, if any. */
  replayId?: string;
  close(): Promise<void>;
}

interface PlatformConfig {
  webhookEndpoint?: string;
  webhookPublicKey: string;
}

const SIGNATURE_HEADER = 'x-service-signature';
const REPLAY_HEADER = 'x-paykit-replay';

export async function startWebhookListener(options: ListenerOptions): Promise<RunningListener> {
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  const authorization = `Basic ${Buffer.from(`${options.credentials.tokenId}:${options.credentials.secret}`).toString('base64')}`;
  const api = async <T = PlatformConfig>(method: 'GET' | 'PATCH' | 'POST', body?: unknown, path = '/config'): Promise<T> => {
    const response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: { authorization, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    }).catch(() => {
      throw new Error(`cannot reach ${options.baseUrl} (is \`npm start\` running? set --url or PAYKIT_URL otherwise)`);
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };

  const before = await api('GET');
  const publicKeyPem = before.webhookPublicKey;

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      print(`${new Date().toISOString()}  error handling a webhook: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const header = request.headers[SIGNATURE_HEADER];
    const replay = request.headers[REPLAY_HEADER];
    const verified = verify(publicKeyPem, rawBody, typeof header === 'string' ? header : undefined);
    let event: { id?: string; type?: string; timestamp?: string; data?: { id?: string } } = {};
    try {
      event = JSON.parse(rawBody.toString('utf8')) as typeof event;
    } catch {
      // Printed as unreadable below.
    }
    const columns = [
      new Date().toISOString(),
      (event.type ?? '(no type)').padEnd(28),
      (event.data?.id ?? '(no resource id)').padEnd(46),
      verified ? '✔ signature verified' : '✘ SIGNATURE INVALID',
      event.id ?? '(no id)',
      ...(typeof replay === 'string' ? [`(replay ${replay})`] : []),
    ];
    if (!verified) {
      print(columns.join('  '));
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid signature' }));
      return;
    }
    if (!options.forwardTo) {
      print(columns.join('  '));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: true }));
      return;
    }
    const forwarded = await fetch(options.forwardTo, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: String(header), ...(typeof replay === 'string' ? { [REPLAY_HEADER]: replay } : {}) },
      body: rawBody,
      signal: AbortSignal.timeout(9000),
    }).then(
      (answer) => ({ status: answer.status, note: `→ ${answer.status}` }),
      (error: unknown) => ({ status: 502, note: `→ forward failed: ${(error as Error).message}` }),
    );
    print([...columns, forwarded.note].join('  '));
    response.writeHead(forwarded.status).end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  try {
    await api('PATCH', { webhookEndpoint: url });
  } catch (error) {
    server.close();
    throw error;
  }
  print(`Listening on ${url}: set as the webhook endpoint${before.webhookEndpoint ? ` (was ${before.webhookEndpoint}; restored on exit)` : ''}.`);
  print(options.forwardTo ? `Forwarding verified events to ${options.forwardTo}.` : 'Verifying every signature with the platform public key. Ctrl-C to stop.');

  let replayId: string | undefined;
  if (options.replay) {
    const started = await api<{ id: string; total: number }>('POST', { ...options.replay, url }, '/sandbox/webhooks/replay');
    replayId = started.id;
    print(`Replaying ${started.total} webhook(s) in their original order (${started.id}).`);
  }

  let closed = false;
  return {
    url,
    replayId,
    async close() {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api('PATCH', { webhookEndpoint: before.webhookEndpoint ?? null });
    },
  };
}

/** INTEROP.md: `{"v":"1","s":"<base64 DER>"}`, ECDSA P-256 with SHA-256 over the raw body. */
function verify(publicKeyPem: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  try {
    const { v, s } = JSON.parse(header) as { v?: unknown; s?: unknown };
    return v === '1' && typeof s === 'string' && createVerify('SHA256').update(rawBody).verify(publicKeyPem, Buffer.from(s, 'base64'));
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      'token-id': { type: 'string' },
      secret: { type: 'string' },
      port: { type: 'string' },
      'forward-to': { type: 'string' },
      replay: { type: 'boolean' },
      'replay-type': { type: 'string', multiple: true },
      'replay-resource': { type: 'string' },
      'replay-from': { type: 'string' },
      'replay-to': { type: 'string' },
    },
  });
  const tokenId = values['token-id'] ?? process.env.SANDBOX_TOKEN_ID;
  const secret = values.secret ?? process.env.SANDBOX_TOKEN_SECRET;
  if (!tokenId || !secret) {
    process.stderr.write(
      'webhooks:listen needs the sandbox API credentials `npm start` printed:\n' +
        '  npm run webhooks:listen -- --token-id <id> --secret <secret>   (or set SANDBOX_TOKEN_ID and SANDBOX_TOKEN_SECRET)\n',
    );
    process.exit(1);
  }
  const port = Number(values.port ?? 4242);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be a port number (got "${values.port}")\n`);
    process.exit(1);
  }
  const listener = await startWebhookListener({
    baseUrl: (values.url ?? process.env.PAYKIT_URL ?? 'http://127.0.0.1:8080/2025-10-13').replace(/\/+$/, ''),
    credentials: { tokenId, secret },
    port,
    forwardTo: values['forward-to'],
    replay: values.replay ? { types: values['replay-type'], resourceId: values['replay-resource'], from: values['replay-from'], to: values['replay-to'] } : undefined,
  });
  const stop = (): void => {
    void listener.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Could not restore the previous endpoint: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`webhooks:listen: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
