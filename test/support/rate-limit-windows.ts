import { ApiResponse, Credentials } from './api-client';

/** Low limits, so a test reaches them in a few requests; one window length for both kinds. */
export const WINDOW_SECONDS = 3;
const WINDOW_MS = WINDOW_SECONDS * 1000;
export const REQUESTS = 5;
export const FAILURES_PER_TOKEN = 4;
export const FAILURES_PER_ADDRESS = 6;
export const DELAY_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const windowOf = (at: number) => Math.floor(at / WINDOW_MS);

/** Waits for the next window to begin (the server cuts windows from the same clock, epoch-aligned). */
export async function nextWindow(): Promise<void> {
  await sleep(WINDOW_MS - (Date.now() % WINDOW_MS) + 20);
}

/**
 * Runs `steps` from the start of a fresh window and answers their results, provided they all ran
 * inside that one window; a run that crossed into the next window (a very slow machine) is
 * repeated from a fresh window with fresh keys (`attempt` tells the steps which try this is).
 */
export async function inOneWindow<T>(steps: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await nextWindow();
    const started = Date.now();
    const result = await steps(attempt);
    if (windowOf(Date.now()) === windowOf(started)) return result;
  }
  throw new Error('the machine is too slow to run the steps inside one window');
}

export function expectRateLimited(response: ApiResponse, reason: string): void {
  expect(response.status).toBe(429);
  expect(response.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: expect.any(String), details: { reason } });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(response.body.details.retryAfterSeconds).toBe(retryAfter);
  // Retrying after Retry-After may pass: no x-should-retry: false.
  expect(response.headers.get('x-should-retry')).toBeNull();
}

export const wrong = (credentials: Credentials, n: number): Credentials => ({ tokenId: credentials.tokenId, secret: `wrong-secret-${n}-0123456789abcdef` });

/** A stack's environment with these low limits. */
export const LOW_LIMITS = {
  RATE_LIMIT_REQUESTS: String(REQUESTS),
  RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
  AUTH_FAILURE_LIMIT_PER_TOKEN: String(FAILURES_PER_TOKEN),
  AUTH_FAILURE_LIMIT_PER_ADDRESS: String(FAILURES_PER_ADDRESS),
  AUTH_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
  AUTH_FAILURE_DELAY_MS: String(DELAY_MS),
};
