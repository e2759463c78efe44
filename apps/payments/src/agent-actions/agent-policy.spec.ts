import { AgentPolicy } from '@paykit/contracts';
import { amountsIn, evaluatePolicy, reserveUsage, usagePeriod } from './agent-policy';

const ACCOUNT = 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-000000000001';
const base: AgentPolicy = {
  permissions: ['CREATE_TRANSFERS'],
  defaultExecutionMode: 'AUTO',
  spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 2_000, dailyTransactionLimit: 3, monthlyLimit: 5_000 },
};
const zero = { dailyCount: 0, dailySpend: 0n, monthlySpend: 0n };

/** Rates as the payments table gives them (EUR to USD 1.087, USD to EUR 0.92), rounded up; no rate for GBP here. */
const RATES: Record<string, number> = { 'EUR>USD': 1.087, 'USD>EUR': 0.92 };
const amountIn =
  (amount: bigint, currency: string) =>
  (target: string): bigint | undefined => {
    if (target === currency) return amount;
    const rate = RATES[`${currency}>${target}`];
    return rate === undefined ? undefined : BigInt(Math.ceil(Number(amount) * rate - 1e-9));
  };

describe(evaluatePolicy.name, () => {
  it.each([
    ['within every rule, AUTO', base, 1_000n, 'USD', { requiresApproval: false, limitAmount: 1_000n }],
    ['APPROVAL_REQUIRED mode', { ...base, defaultExecutionMode: 'APPROVAL_REQUIRED' }, 10n, 'USD', { requiresApproval: true, limitAmount: 10n }],
    ['above the threshold', { ...base, approvalThresholds: { currency: 'USD', amount: 500 } }, 501n, 'USD', { requiresApproval: true, limitAmount: 501n }],
    ['at the threshold', { ...base, approvalThresholds: { currency: 'USD', amount: 500 } }, 500n, 'USD', { requiresApproval: false, limitAmount: 500n }],
    [
      'under a threshold in another currency, converted',
      { ...base, approvalThresholds: { currency: 'EUR', amount: 460 } },
      500n,
      'USD',
      { requiresApproval: false, limitAmount: 500n },
    ],
    [
      'over a threshold in another currency, converted',
      { ...base, approvalThresholds: { currency: 'EUR', amount: 460 } },
      501n,
      'USD',
      { requiresApproval: true, limitAmount: 501n },
    ],
    ['a threshold in a currency without a rate', { ...base, approvalThresholds: { currency: 'GBP', amount: 500 } }, 10n, 'USD', { requiresApproval: true, limitAmount: 10n }],
    [
      'an account rule requiring approval',
      { ...base, accountRestrictions: { accountRules: [{ accountId: ACCOUNT, executionMode: 'APPROVAL_REQUIRED' }] } },
      10n,
      'USD',
      { requiresApproval: true, limitAmount: 10n },
    ],
    ['over the per-transaction limit', base, 1_001n, 'USD', 'VELOCITY_LIMIT_EXCEEDED'],
    ['over an account rule limit', { ...base, accountRestrictions: { accountRules: [{ accountId: ACCOUNT, perTransactionLimit: 100 }] } }, 101n, 'USD', 'VELOCITY_LIMIT_EXCEEDED'],
    ['an account not allowed', { ...base, accountRestrictions: { allowedAccountIds: ['InternalAccount:other'] } }, 10n, 'USD', 'FORBIDDEN'],
    ['every account allowed (null)', { ...base, accountRestrictions: { allowedAccountIds: null } }, 10n, 'USD', { requiresApproval: false, limitAmount: 10n }],
    // 919 EUR = 998.953 USD, counted as 999; 920 EUR = 1000.04 USD, counted as 1001: over 1000.
    ['another currency than the limits, converted and rounded up', base, 919n, 'EUR', { requiresApproval: false, limitAmount: 999n }],
    ['another currency over the limit once converted (rounded up)', base, 920n, 'EUR', 'VELOCITY_LIMIT_EXCEEDED'],
    ['another currency without a rate to the limits', base, 10n, 'GBP', 'FORBIDDEN'],
  ] as const)('%s', (_, policy, amount, currency, expected) => {
    const run = () => evaluatePolicy(policy as AgentPolicy, { internalAccountId: ACCOUNT, amount, currency, amountIn: amountIn(amount, currency) });
    if (typeof expected === 'string') expect(run).toThrow(expect.objectContaining({ code: expected }));
    else expect(run()).toEqual(expected);
  });

  it('names the missing rate', () => {
    const run = () => evaluatePolicy(base, { internalAccountId: ACCOUNT, amount: 10n, currency: 'GBP', amountIn: amountIn(10n, 'GBP') });
    expect(run).toThrow(expect.objectContaining({ details: { reason: 'POLICY_CURRENCY_MISMATCH', policyCurrency: 'USD', currency: 'GBP' } }));
  });
});

describe(amountsIn.name, () => {
  it('converts once into each currency of the limits and threshold, and not the action’s own', async () => {
    const convert = jest.fn(async (amount: bigint, source: string, target: string) => (source === 'EUR' && target === 'USD' ? amount * 2n : undefined));
    const policy: AgentPolicy = { ...base, approvalThresholds: { currency: 'USD', amount: 1 } };
    const into = await amountsIn(policy, 10n, 'EUR', convert);
    expect(into('USD')).toBe(20n);
    expect(into('EUR')).toBe(10n);
    expect(into('GBP')).toBeUndefined();
    expect(convert).toHaveBeenCalledTimes(1);
    expect(await amountsIn(base, 10n, 'USD', convert).then((same) => same('USD'))).toBe(10n);
    expect(convert).toHaveBeenCalledTimes(1);
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
