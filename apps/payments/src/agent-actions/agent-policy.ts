import { AgentPolicy, amountFromWire, amountToWire } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

export interface PolicyInput {
  /** The internal account the money leaves or enters. */
  internalAccountId: string;
  amount: bigint;
  currency: string;
  /**
   * The amount in the currency of a limit or threshold (ExchangeRatesService.convertRoundingUp,
   * computed beforehand by `amountsIn`); undefined where the rate table has none.
   */
  amountIn: (currency: string) => bigint | undefined;
}

/** What the policy decided before any money moves; the usage limits are checked when reserving. */
export interface PolicyDecision {
  requiresApproval: boolean;
  /** The amount in the limits' currency: what the usage counters count (and give back). */
  limitAmount: bigint;
}

/** The amounts a policy check needs: `amount` of `currency` in each currency the policy's limits and threshold are kept in. */
export async function amountsIn(
  policy: AgentPolicy,
  amount: bigint,
  currency: string,
  convert: (amount: bigint, source: string, target: string) => Promise<bigint | undefined>,
): Promise<(target: string) => bigint | undefined> {
  const converted = new Map<string, bigint | undefined>();
  for (const target of [policy.spendingLimits.currency, policy.approvalThresholds?.currency]) {
    if (target && target !== currency && !converted.has(target)) converted.set(target, await convert(amount, currency, target));
  }
  return (target) => (target === currency ? amount : converted.get(target));
}

/** The usage counters of an agent as of the day and month of the reservation. */
export interface UsageCounters {
  dailyCount: number;
  dailySpend: bigint;
  monthlySpend: bigint;
}

function velocity(limit: string, message: string, details: Record<string, unknown>): ServiceError {
  return new ServiceError('VELOCITY_LIMIT_EXCEEDED', message, { limit, ...details });
}

/**
 * The checks that need no counter: the account is allowed, the amount (converted to the limits'
 * currency when it is another) is within the per-transaction limit (a per-account rule overrides
 * it), and whether the action waits for the platform (approval mode, or above the approval
 * threshold, compared in the threshold's currency).
 */
export function evaluatePolicy(policy: AgentPolicy, input: PolicyInput): PolicyDecision {
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  if (allowed && !allowed.includes(input.internalAccountId)) {
    throw new ServiceError('FORBIDDEN', `The agent's policy does not allow account ${input.internalAccountId}`, {
      reason: 'ACCOUNT_NOT_ALLOWED',
      accountId: input.internalAccountId,
    });
  }
  const limits = policy.spendingLimits;
  // Another currency than the limits' counts at the payments rate table's rate, rounded up.
  const limitAmount = input.amountIn(limits.currency);
  if (limitAmount === undefined) {
    throw new ServiceError(
      'FORBIDDEN',
      `The agent's limits are in ${limits.currency} and there is no exchange rate from ${input.currency} to check ${input.currency} against them`,
      {
        reason: 'POLICY_CURRENCY_MISMATCH',
        policyCurrency: limits.currency,
        currency: input.currency,
      },
    );
  }
  const converted = input.currency === limits.currency ? {} : { convertedAmount: amountToWire(limitAmount), policyCurrency: limits.currency };
  const rule = policy.accountRestrictions?.accountRules?.find((candidate) => candidate.accountId === input.internalAccountId);
  const perTransaction = rule?.perTransactionLimit ?? limits.perTransactionLimit;
  if (limitAmount > amountFromWire(perTransaction)) {
    throw velocity('perTransactionLimit', `The amount is over the agent's per-transaction limit of ${perTransaction} ${limits.currency}`, {
      perTransactionLimit: perTransaction,
      amount: amountToWire(input.amount),
      currency: input.currency,
      ...converted,
    });
  }
  const mode = rule?.executionMode ?? policy.defaultExecutionMode;
  const threshold = policy.approvalThresholds;
  let overThreshold = false;
  if (threshold?.amount !== undefined && threshold.amount !== null) {
    const thresholdAmount = input.amountIn(threshold.currency ?? limits.currency);
    // No rate to compare with: the platform decides.
    overThreshold = thresholdAmount === undefined || thresholdAmount > amountFromWire(threshold.amount);
  }
  return { requiresApproval: mode === 'APPROVAL_REQUIRED' || overThreshold, limitAmount };
}

/** The counters after one more action of `amount`, or VELOCITY_LIMIT_EXCEEDED naming the limit it would cross. */
export function reserveUsage(policy: AgentPolicy, usage: UsageCounters, amount: bigint): UsageCounters {
  const limits = policy.spendingLimits;
  const next = { dailyCount: usage.dailyCount + 1, dailySpend: usage.dailySpend + amount, monthlySpend: usage.monthlySpend + amount };
  const details = { dailyTransactionCount: usage.dailyCount, dailySpend: amountToWire(usage.dailySpend), monthlySpend: amountToWire(usage.monthlySpend) };
  if (limits.dailyTransactionLimit !== undefined && limits.dailyTransactionLimit !== null && next.dailyCount > limits.dailyTransactionLimit) {
    throw velocity('dailyTransactionLimit', `The agent already made its ${limits.dailyTransactionLimit} transactions today`, {
      dailyTransactionLimit: limits.dailyTransactionLimit,
      ...details,
    });
  }
  if (limits.dailyLimit !== undefined && limits.dailyLimit !== null && next.dailySpend > amountFromWire(limits.dailyLimit)) {
    throw velocity('dailyLimit', `The agent's daily limit of ${limits.dailyLimit} ${limits.currency} would be exceeded`, { dailyLimit: limits.dailyLimit, ...details });
  }
  if (limits.monthlyLimit !== undefined && limits.monthlyLimit !== null && next.monthlySpend > amountFromWire(limits.monthlyLimit)) {
    throw velocity('monthlyLimit', `The agent's monthly limit of ${limits.monthlyLimit} ${limits.currency} would be exceeded`, { monthlyLimit: limits.monthlyLimit, ...details });
  }
  return next;
}

/** The UTC day (`YYYY-MM-DD`) and month (`YYYY-MM`) the counters of `now` belong to. */
export function usagePeriod(now: Date): { day: string; month: string } {
  const iso = now.toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7) };
}
