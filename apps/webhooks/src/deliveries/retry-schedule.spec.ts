import { JITTER, nextRetryAt, nominalRetryDelayMs, RetryPolicy } from './retry-schedule';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const policy: RetryPolicy = { retryWindowMs: 24 * HOUR, firstRetryDelayMs: MINUTE, maxRetryDelayMs: 8 * HOUR, timeScale: 1 };

describe('retry schedule', () => {
  describe(nominalRetryDelayMs.name, () => {
    it.each([
      [1, 1 * MINUTE],
      [2, 2 * MINUTE],
      [3, 4 * MINUTE],
      [4, 8 * MINUTE],
      [5, 16 * MINUTE],
      [6, 32 * MINUTE],
      [7, 64 * MINUTE],
      [8, 128 * MINUTE],
      [9, 256 * MINUTE],
      [10, 8 * HOUR],
      [11, 8 * HOUR],
    ])('after failure %i waits %i ms (doubling from 1 minute, capped at 8 hours)', (failures, delay) => {
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

    it('retries over about 24 hours, the last attempt when the window closes, then gives up', () => {
      let now = start;
      const attempts = [start];
      for (let failures = 1; ; failures += 1) {
        const next = nextRetryAt(policy, failures, start, now, () => 0.5);
        if (!next) break;
        attempts.push(next);
        now = next;
      }
      expect(attempts).toHaveLength(12);
      expect(attempts[attempts.length - 1].getTime() - start.getTime()).toBe(24 * HOUR);
      const gaps = attempts.slice(1).map((at, i) => at.getTime() - attempts[i].getTime());
      expect(gaps.slice(0, 10)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 480].map((m) => m * MINUTE));
    });

    it('shrinks delays and the window with the time scale', () => {
      const scaled = { ...policy, timeScale: 0.001 };
      expect(nextRetryAt(scaled, 1, start, start, () => 0.5)!.getTime() - start.getTime()).toBe(60);
      expect(nextRetryAt(scaled, 30, start, new Date(start.getTime() + 86_400), () => 0.5)).toBeUndefined();
    });
  });
});
