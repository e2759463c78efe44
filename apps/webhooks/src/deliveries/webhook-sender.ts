import { WEBHOOK_SIGNATURE_HEADER } from '@paykit/contracts';

/** What one POST to a receiver came to. */
export interface AttemptOutcome {
  attemptedAt: Date;
  latencyMs: number;
  statusCode?: number;
  error?: string;
  succeeded: boolean;
}

export interface SendRequest {
  url: string;
  body: string;
  signature: string;
  timeoutMs: number;
  /** Aborts the attempt early (service shutdown). */
  signal?: AbortSignal;
}

/** Read (and drop) at most this much of a receiver's answer, so a connection can be reused. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs one signed webhook. Any 2xx is success; anything else — another status, a timeout
 * (connect, headers and body together), a refused or reset connection, a TLS failure — is a
 * failed attempt with the reason in `error`. Redirects are not followed (a 3xx is a failure).
 */
export async function sendWebhook(request: SendRequest): Promise<AttemptOutcome> {
  const attemptedAt = new Date();
  const started = performance.now();
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: request.signature, 'user-agent': 'Paykit-Webhooks/1' },
      body: request.body,
      redirect: 'manual',
      signal,
    });
    await drain(response);
    const succeeded = response.status >= 200 && response.status < 300;
    return { attemptedAt, latencyMs: elapsed(), statusCode: response.status, succeeded, ...(succeeded ? {} : { error: `Receiver answered HTTP ${response.status}` }) };
  } catch (error) {
    const reason = timeout.aborted
      ? `Timed out after ${request.timeoutMs} ms`
      : request.signal?.aborted
        ? 'Interrupted: the webhooks service stopped'
        : describeNetworkError(error);
    return { attemptedAt, latencyMs: elapsed(), error: reason, succeeded: false };
  }
}

async function drain(response: Response): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
    if (read > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      return;
    }
  }
}

/** fetch reports "fetch failed" and keeps the reason in `cause` (ECONNREFUSED, ECONNRESET, TLS errors...). */
function describeNetworkError(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: string; cause?: { code?: string; message?: string } };
  if (!cause?.message) return (message ?? String(error)).slice(0, 500);
  const code = cause.code && !cause.message.includes(cause.code) ? ` (${cause.code})` : '';
  return `Connection failed: ${cause.message}${code}`.slice(0, 500);
}
