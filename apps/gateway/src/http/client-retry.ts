import { ClientRetry } from '@paykit/contracts';

/**
 * The header the published client libraries put on every request: 0 on the first try, 1, 2, ...
 * on their automatic retries (after a time-out, a 409, a 429 or a 5xx).
 */
export const CLIENT_RETRY_HEADER = 'x-stainless-retry-count';

/** What a money route's description says of a client's automatic retry without an Idempotency-Key. */
export const CLIENT_RETRIES =
  'Without an Idempotency-Key, an automatic retry of the published client libraries (header `X-Stainless-Retry-Count` 1 or more) answers the most recent ' +
  'identical request (same route, same body) of the last 24 hours instead of moving the money again; a first try (no header, or 0) always runs, so two ' +
  'identical payments both go through.';

/**
 * The message field of a client's automatic retry: `retryOf` when the header is a count of 1 or
 * more. Anything else (absent, 0, not a number) is a first try: the header is the client's, never
 * a reason to refuse the request.
 */
export function clientRetry(header: string | undefined): { retryOf?: ClientRetry } {
  const attempt = header !== undefined && /^\s*\d{1,9}\s*$/.test(header) ? Number(header) : 0;
  return attempt >= 1 ? { retryOf: { attempt } } : {};
}
