import { afterFailedAttempt, bindingDigest, isLocked, LockState } from './sca.rules';

describe('sca.rules', () => {
  describe(afterFailedAttempt.name, () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const minutes = (state: LockState) => (state.lockedUntil ? (state.lockedUntil.getTime() - now.getTime()) / 60_000 : null);

    it.each([
      [5, 15, false],
      [10, 30, false],
      [15, 60, false],
      [20, 24 * 60, false],
      [25, null, true],
    ])('after %i failed attempts the lock is %s minutes (suspended %s)', (attempts, lockMinutes, suspended) => {
      let state: LockState = { failedAttempts: 0, lockLevel: 0, lockedUntil: null, suspended: false };
      for (let i = 0; i < attempts; i++) state = afterFailedAttempt(state, now);
      expect(minutes(state)).toBe(lockMinutes);
      expect(state.suspended).toBe(suspended);
      expect(isLocked(state, now)).toBe(true);
    });

    it('does not lock before the fifth attempt', () => {
      let state: LockState = { failedAttempts: 0, lockLevel: 0, lockedUntil: null, suspended: false };
      for (let i = 0; i < 4; i++) state = afterFailedAttempt(state, now);
      expect(isLocked(state, now)).toBe(false);
      expect(state.failedAttempts).toBe(4);
    });
  });

  describe(bindingDigest.name, () => {
    it('changes with the amount, the currency and the payee', () => {
      const base = { amount: '1000', currency: 'USD', payee: 'ExternalAccount:a' };
      const digests = new Set([base, { ...base, amount: '1001' }, { ...base, currency: 'EUR' }, { ...base, payee: 'ExternalAccount:b' }].map(bindingDigest));
      expect(digests.size).toBe(4);
      expect(bindingDigest({ ...base })).toBe(bindingDigest(base));
    });
  });
});
