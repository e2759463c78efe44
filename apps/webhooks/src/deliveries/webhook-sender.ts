import { ClientRequest, Agent as HttpAgent, request as httpRequest, RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { WEBHOOK_SIGNATURE_HEADER } from '@paykit/contracts';
import { processMetrics } from '@paykit/runtime';
import { inSpan, SpanKind, tracingEnabled } from '@paykit/transport';
import { Clock } from '@paykit/persistence';

/** What one POST to a receiver came to. */
export interface AttemptOutcome {
  attemptedAt: Date;
  latencyMs: number;
  statusCode?: number;
  error?: string;
  succeeded: boolean;
  /** What the receiver answered, as text (first 64 KiB), when the request asked to keep it. */
  responseBody?: string;
}

export interface SendRequest {
  url: string;
  body: string;
  signature: string;
  timeoutMs: number;
  /** Aborts the attempt early (service shutdown). */
  signal?: AbortSignal;
  /** Keep the receiver's answer (the test webhook reports it); deliveries drop it. */
  keepResponseBody?: boolean;
  /** Headers beyond the signed webhook's own (a replay's mark). */
  extraHeaders?: Record<string, string>;
}

/** Read (and drop) at most this much of a receiver's answer, so a connection can be reused. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Connections are kept alive and reused per receiver (host and port): a delivery then costs one
 * request on an open socket, not a TCP (and TLS) handshake. Idle sockets close after the
 * receiver's Keep-Alive hint (or 5 s), before a receiver would close them under a request.
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 5000, scheduling: 'lifo' } as const;
const httpAgent = new HttpAgent(AGENT_OPTIONS);
const httpsAgent = new HttpsAgent(AGENT_OPTIONS);

/**
 * POSTs one signed webhook. Any 2xx is success; anything else — another status, a timeout
 * (connect, headers and body together), a refused or reset connection, a TLS failure — is a
 * failed attempt with the reason in `error`. Redirects are not followed (a 3xx is a failure).
 */
export function sendWebhook(request: SendRequest): Promise<AttemptOutcome> {
  return (tracingEnabled() ? tracedPost(request) : post(request)).then((outcome) => {
    const result = outcome.succeeded ? 'delivered' : outcome.statusCode !== undefined ? 'rejected' : 'unreachable';
    processMetrics.increment('paykit_webhook_deliveries_total', { outcome: result });
    return outcome;
  });
}

function tracedPost(request: SendRequest): Promise<AttemptOutcome> {
  // The delivery as a span of the trace of the event it announces (the inbox's consumer span, for a first attempt).
  return inSpan('webhook delivery', { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'POST', 'server.address': hostOf(request.url) } }, async () => {
    const outcome = await post(request);
    if (!outcome.succeeded) throw Object.assign(new Error(outcome.error ?? `HTTP ${outcome.statusCode}`), { outcome });
    return outcome;
  }).catch((error: { outcome?: AttemptOutcome }) => {
    // A failed attempt marks its span failed; the caller still gets the outcome, not an error.
    if (error.outcome) return error.outcome;
    throw error;
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function post(request: SendRequest): Promise<AttemptOutcome> {
  const attemptedAt = Clock.real();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'attemptedAt' | 'latencyMs'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve({ attemptedAt, latencyMs: elapsed(), ...outcome });
    };
    // A timeout or shutdown ends the attempt at once; the socket is dropped.
    const fail = (reason: string): void => {
      finish({ error: reason, succeeded: false });
      outgoing.destroy();
    };
    let outgoing: ClientRequest;
    try {
      const url = new URL(request.url);
      const body = Buffer.from(request.body, 'utf8');
      const options: RequestOptions = {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          [WEBHOOK_SIGNATURE_HEADER]: request.signature,
          'user-agent': 'Paykit-Webhooks/1',
          ...request.extraHeaders,
        },
      };
      outgoing = url.protocol === 'https:' ? httpsRequest(url, { ...options, agent: httpsAgent }) : httpRequest(url, { ...options, agent: httpAgent });
      outgoing.end(body);
    } catch (error) {
      resolve({ attemptedAt, latencyMs: elapsed(), error: describeNetworkError(error), succeeded: false });
      return;
    }
    const timer = setTimeout(() => fail(`Timed out after ${request.timeoutMs} ms`), request.timeoutMs);
    const onAbort = (): void => fail('Interrupted: the webhooks service stopped');
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error) => finish({ error: describeNetworkError(error), succeeded: false }));
    outgoing.on('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      const succeeded = statusCode >= 200 && statusCode < 300;
      const kept: Buffer[] = [];
      const answered = (): void =>
        finish({
          statusCode,
          succeeded,
          ...(succeeded ? {} : { error: `Receiver answered HTTP ${statusCode}` }),
          ...(request.keepResponseBody ? { responseBody: Buffer.concat(kept).subarray(0, MAX_RESPONSE_BYTES).toString('utf8') } : {}),
        });
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        if (request.keepResponseBody && read < MAX_RESPONSE_BYTES) kept.push(chunk);
        read += chunk.length;
        // A receiver that keeps talking is not waited for: its answer is known; the socket is dropped.
        if (read > MAX_RESPONSE_BYTES) {
          answered();
          response.destroy();
        }
      });
      response.on('end', answered);
      // Closed before the whole answer arrived.
      response.on('close', () => (response.complete ? answered() : finish({ error: 'Connection failed: other side closed (ECONNRESET)', succeeded: false })));
    });
  });
}

/**
 * The reason a connection failed, from the socket's error: its message and code
 * (ECONNREFUSED, ECONNRESET, TLS errors...). A socket closed before any answer is named as such.
 */
function describeNetworkError(error: unknown): string {
  const { message, code } = (error ?? {}) as { message?: string; code?: string };
  const text = message === 'socket hang up' ? 'other side closed' : (message ?? String(error));
  const suffix = code && !text.includes(code) ? ` (${code})` : '';
  return `Connection failed: ${text}${suffix}`.slice(0, 500);
}
