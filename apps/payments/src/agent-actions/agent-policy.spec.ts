import { AgentPolicy } from '@paykit/contracts';
import { evaluatePolicy, reserveUsage, usagePeriod } from './agent-policy';

const ACCOUNT = 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-000000000001';
const base: AgentPolicy = {
  permissions: ['CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 2_000, dailyTransactionLimit: 3, monthlyLimit: 5_000 },
};
const zero = { dailyCount: 0, dailySpend: 0n, monthlySpend: 0n };

describe(evaluatePolicy.name, () => {
  it.each([
    ['within every rule, AUTO', base, 1_000n, 'USD', { requiresApproval: false }],
    ['APPROVAL_REQUIRED mode', { ...base, defaultExecutionMode: 'APPROVAL_REQUIRED' }, 10n, 'USD', { requiresApproval: true }],
    ['above the threshold', { ...base, approvalThresholds: { currency: 'USD', amount: 500 } }, 501n, 'USD', { requiresApproval: true }],
    ['at the threshold', { ...base, approvalThresholds: { currency: 'USD', amount: 500 } }, 500n, 'USD', { requiresApproval: false }],
    ['a threshold in another currency', { ...base, approvalThresholds: { currency: 'EUR', amount: 500 } }, 10n, 'USD', { requiresApproval: true }],
    [
      'an account rule requiring approval',
      { ...base, accountRestrictions: { accountRules: [{ accountId: ACCOUNT, executionMode: 'APPROVAL_REQUIRED' }] } },
      10n,
      'USD',
      { requiresApproval: true },
    ],
    ['over the per-transaction limit', base, 1_001n, 'USD', 'VELOCITY_LIMIT_EXCEEDED'],
    ['over an account rule limit', { ...base, accountRestrictions: { accountRules: [{ accountId: ACCOUNT, perTransactionLimit: 100 }] } }, 101n, 'USD', 'VELOCITY_LIMIT_EXCEEDED'],
    ['an account not allowed', { ...base, accountRestrictions: { allowedAccountIds: ['InternalAccount:other'] } }, 10n, 'USD', 'FORBIDDEN'],
    ['every account allowed (null)', { ...base, accountRestrictions: { allowedAccountIds: null } }, 10n, 'USD', { requiresApproval: false }],
    ['another currency than the limits', base, 10n, 'EUR', 'FORBIDDEN'],
  ] as const)('%s', (_, policy, amount, currency, expected) => {
    const run = () => evaluatePolicy(policy as AgentPolicy, { internalAccountId: ACCOUNT, amount, currency });
    if (typeof expected === 'string') expect(run).toThrow(expect.objectContaining({ code: expected }));
    else expect(run()).toEqual(expected);
  });
});

describe(reserveUsage.name, () => {
  it.each([
    ['the first action', zero, 500n, undefined],
    ['the daily count reached', { ...zero, dailyCount: 3 }, 1n, 'dailyTransactionLimit'],
    ['the daily amount crossed', { ...zero, dailySpend: 1_600n, monthlySpend: 1_600n }, 500n, 'dailyLimit'],
    ['the daily amount reached exactly', { ...zero, dailySpend: 1_500n, monthlySpend: 1_500n }, 500n, undefined],
    ['the monthly amount crossed', { dailyCount: 0, dailySpend: 0n, monthlySpend: 4_600n }, 500n, 'monthlyLimit'],
  ] as const)('%s', (_, usage, amount, limit) => {
    if (limit === undefined) {
      expect(reserveUsage(base, usage, amount)).toEqual({ dailyCount: usage.dailyCount + 1, dailySpend: usage.dailySpend + amount, monthlySpend: usage.monthlySpend + amount });
    } else {
      expect(() => reserveUsage(base, usage, amount)).toThrow(expect.objectContaining({ code: 'VELOCITY_LIMIT_EXCEEDED', details: expect.objectContaining({ limit }) }));
    }
  });

  it('counts nothing against a limit that is absent or null', () => {
    const open: AgentPolicy = { ...base, spendingLimits: { currency: 'USD', perTransactionLimit: 10, dailyLimit: null, monthlyLimit: null } };
    expect(reserveUsage(open, { dailyCount: 1_000, dailySpend: 10n ** 12n, monthlySpend: 10n ** 12n }, 5n).dailyCount).toBe(1_001);
  });
});

describe(usagePeriod.name, () => {
  it('is the UTC day and month', () => {
    expect(usagePeriod(new Date('2025-12-31T23:59:59.999Z'))).toEqual({ day: '2025-12-31', month: '2025-12' });
    expect(usagePeriod(new Date('2026-01-01T00:00:00Z'))).toEqual({ day: '2026-01-01', month: '2026-01' });
  });
});
