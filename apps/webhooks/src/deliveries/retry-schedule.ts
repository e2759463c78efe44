/** How failed deliveries are retried: exponential backoff with jitter, within a fixed window. */
export interface RetryPolicy {
  retryWindowMs: number;
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** Multiplies every delay and the window (SANDBOX_TIME_SCALE in a sandbox deployment). */
  timeScale: number;
}

/** Each delay is the nominal one times a factor in [1 - JITTER, 1 + JITTER], so receivers that failed together do not retry together. */
export const JITTER = 0.2;

/** The nominal delay after the `failures`-th consecutive failure: 1 min, 2 min, 4 min, ... capped. */
export function nominalRetryDelayMs(policy: RetryPolicy, failures: number): number {
  return Math.min(policy.maxRetryDelayMs, policy.firstRetryDelayMs * 2 ** Math.max(0, failures - 1));
}

/**
 * When to try again after the `failures`-th consecutive failure of a round that started at
 * `roundStartedAt`, or undefined to give up: the last attempt happens when the window closes
 * (about 24 h after the first, scaled), so a receiver that comes back within the window gets everything.
 */
export function nextRetryAt(policy: RetryPolicy, failures: number, roundStartedAt: Date, now: Date, random: () => number = Math.random): Date | undefined {
  const windowEnd = roundStartedAt.getTime() + policy.retryWindowMs * policy.timeScale;
  if (now.getTime() >= windowEnd) return undefined;
  const factor = 1 - JITTER + 2 * JITTER * random();
  const delay = nominalRetryDelayMs(policy, failures) * factor * policy.timeScale;
  return new Date(Math.min(now.getTime() + delay, windowEnd));
}
