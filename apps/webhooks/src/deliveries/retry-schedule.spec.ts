import { GUIDE_RETRY_POLICY, isRetried, JITTER, nextRetryAt, nominalRetryDelayMs, RetryPolicy } from './retry-schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const policy: RetryPolicy = { ...GUIDE_RETRY_POLICY, timeScale: 1 };

/** Every attempt of a round whose receiver never answers 2xx, the first at `start`, with a fixed jitter draw. */
function attemptsOfRound(start: Date, random: number, scaled: RetryPolicy = policy): Date[] {
  let now = start;
  const attempts = [start];
  for (let failures = 1; ; failures += 1) {
    const next = nextRetryAt(scaled, failures, start, now, () => random);
    if (!next) return attempts;
    attempts.push(next);
    now = next;
  }
}

describe('retry schedule', () => {
  it("is the guide's: exponential backoff over 7 days, intervals capped at 30 minutes", () => {
    expect(GUIDE_RETRY_POLICY).toEqual({ retryWindowMs: 7 * DAY, firstRetryDelayMs: MINUTE, maxRetryDelayMs: 30 * MINUTE });
  });

  describe(nominalRetryDelayMs.name, () => {
    it.each([
      [1, 1 * MINUTE],
      [2, 2 * MINUTE],
      [3, 4 * MINUTE],
      [4, 8 * MINUTE],
      [5, 16 * MINUTE],
      [6, 30 * MINUTE],
      [7, 30 * MINUTE],
      [50, 30 * MINUTE],
      [400, 30 * MINUTE],
    ])('after failure %i waits %i ms (doubling from 1 minute, capped at 30 minutes)', (failures, delay) => {
      expect(nominalRetryDelayMs(policy, failures)).toBe(delay);
    });
  });

  describe(nextRetryAt.name, () => {
    const start = new Date('2025-10-13T00:00:00.000Z');

    it.each([
      ['the shortest jitter', 0, 1 - JITTER],
      ['no jitter', 0.5, 1],
      ['the longest jitter', 1, 1 + JITTER],
    ])('applies %s', (_, random, factor) => {
      const now = new Date(start.getTime() + 10 * MINUTE);
      expect(nextRetryAt(policy, 3, start, now, () => random)!.getTime()).toBe(now.getTime() + 4 * MINUTE * factor);
    });

    it.each([
      ['the shortest jitter', 0, 30 * MINUTE * (1 - JITTER)],
      ['no jitter', 0.5, 30 * MINUTE],
      ['the longest jitter', 1, 30 * MINUTE],
    ])('never waits more than 30 minutes, whatever the jitter (%s)', (_, random, delay) => {
      const now = new Date(start.getTime() + DAY);
      expect(nextRetryAt(policy, 12, start, now, () => random)!.getTime() - now.getTime()).toBe(delay);
    });

    it('retries over 7 days, the last attempt when the window closes, then gives up', () => {
      const attempts = attemptsOfRound(start, 0.5);
      const gaps = attempts.slice(1).map((at, i) => at.getTime() - attempts[i].getTime());
      expect(gaps.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 30, 30, 30].map((m) => m * MINUTE));
      // 31 minutes of doubling, then every 30 minutes until 7 days after the first attempt.
      expect(attempts).toHaveLength(1 + 5 + Math.floor((7 * DAY - 31 * MINUTE) / (30 * MINUTE)) + 1);
      expect(attempts[attempts.length - 1].getTime() - start.getTime()).toBe(7 * DAY);
      expect(Math.max(...gaps)).toBe(30 * MINUTE);
      expect(nextRetryAt(policy, attempts.length, start, attempts[attempts.length - 1], () => 0.5)).toBeUndefined();
    });

    it.each([0, 0.5, 1])('never spans more than 7 days nor waits more than 30 minutes (jitter draw %d)', (random) => {
      const attempts = attemptsOfRound(start, random);
      const gaps = attempts.slice(1).map((at, i) => at.getTime() - attempts[i].getTime());
      expect(attempts[attempts.length - 1].getTime() - start.getTime()).toBe(7 * DAY);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(30 * MINUTE);
    });

    it('gives up once 7 days have passed, however few attempts there were (a test clock advanced past the window)', () => {
      expect(nextRetryAt(policy, 2, start, new Date(start.getTime() + 7 * DAY), () => 0.5)).toBeUndefined();
      expect(nextRetryAt(policy, 2, start, new Date(start.getTime() + 7 * DAY - MINUTE), () => 0.5)!.getTime()).toBe(start.getTime() + 7 * DAY);
    });

    it('shrinks delays and the window with the time scale', () => {
      const scaled = { ...policy, timeScale: 0.001 };
      expect(nextRetryAt(scaled, 1, start, start, () => 0.5)!.getTime() - start.getTime()).toBe(60);
      expect(nextRetryAt(scaled, 30, start, new Date(start.getTime() + 10 * MINUTE), () => 1)!.getTime() - start.getTime()).toBe(10 * MINUTE + 1800);
      expect(nextRetryAt(scaled, 30, start, new Date(start.getTime() + 7 * 86_400), () => 0.5)).toBeUndefined();
    });
  });

  describe(isRetried.name, () => {
    it.each([
      ['OUTGOING_PAYMENT.COMPLETED', 500, true],
      ['OUTGOING_PAYMENT.COMPLETED', undefined, true],
      ['CUSTOMER.KYC_APPROVED', 404, true],
      ['INCOMING_PAYMENT.COMPLETED', 503, true],
      ['OUTGOING_PAYMENT.COMPLETED', 409, false],
      ['CUSTOMER.KYC_APPROVED', 409, false],
      ['INCOMING_PAYMENT.COMPLETED', 409, false],
      ['INCOMING_PAYMENT.PENDING', 500, false],
      ['INCOMING_PAYMENT.PENDING', undefined, false],
      ['TEST', 500, false],
      ['TEST', undefined, false],
    ])('a failed %s delivery answered %s is retried: %s', (type, statusCode, retried) => {
      expect(isRetried(type, statusCode)).toBe(retried);
    });
  });
});
