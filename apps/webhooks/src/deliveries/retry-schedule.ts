/**
 * How failed deliveries are retried, per the webhooks guide's retry policy: exponential backoff
 * (with jitter) for up to 7 days, no interval longer than 30 minutes; no retry after a 409
 * (the receiver already has that webhook), and never for a TEST webhook or an incoming payment's
 * PENDING one (its answer is the platform's decision, in the flow of the payment).
 */
export interface RetryPolicy {
  retryWindowMs: number;
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** Multiplies every delay and the window (SANDBOX_TIME_SCALE in a sandbox deployment). */
  timeScale: number;
}

/** The guide's schedule: doubling from 1 minute, capped at 30 minutes, for 7 days after the first attempt. */
export const GUIDE_RETRY_POLICY: Omit<RetryPolicy, 'timeScale'> = {
  retryWindowMs: 7 * 24 * 3600 * 1000,
  firstRetryDelayMs: 60 * 1000,
  maxRetryDelayMs: 30 * 60 * 1000,
};

/** Each delay is the nominal one times a factor in [1 - JITTER, 1 + JITTER] (never past the cap), so receivers that failed together do not retry together. */
export const JITTER = 0.2;

/** Webhook types whose failed delivery is never retried (the guide's "No retries"). */
export const NEVER_RETRIED_TYPES: ReadonlySet<string> = new Set(['TEST', 'INCOMING_PAYMENT.PENDING']);
/** A receiver's answer that ends the delivery without retry: it already has this webhook (a duplicate). */
export const NOT_RETRIED_STATUS = 409;

/** Whether a failed attempt of a `type` delivery that the receiver answered `statusCode` (none: no answer) is retried. */
export function isRetried(type: string, statusCode: number | undefined): boolean {
  return !NEVER_RETRIED_TYPES.has(type) && statusCode !== NOT_RETRIED_STATUS;
}

/** The nominal delay after the `failures`-th consecutive failure: 1 min, 2 min, 4 min, ... capped. */
export function nominalRetryDelayMs(policy: RetryPolicy, failures: number): number {
  return Math.min(policy.maxRetryDelayMs, policy.firstRetryDelayMs * 2 ** Math.min(Math.max(0, failures - 1), 52));
}

/**
 * When to try again after the `failures`-th consecutive failure of a round that started at
 * `roundStartedAt`, or undefined to give up: the last attempt happens when the window closes
 * (7 days after the first, scaled), so a receiver that comes back within the window gets everything.
 */
export function nextRetryAt(policy: RetryPolicy, failures: number, roundStartedAt: Date, now: Date, random: () => number = Math.random): Date | undefined {
  const windowEnd = roundStartedAt.getTime() + policy.retryWindowMs * policy.timeScale;
  if (now.getTime() >= windowEnd) return undefined;
  const factor = 1 - JITTER + 2 * JITTER * random();
  const delay = Math.min(policy.maxRetryDelayMs, nominalRetryDelayMs(policy, failures) * factor) * policy.timeScale;
  return new Date(Math.min(now.getTime() + delay, windowEnd));
}
