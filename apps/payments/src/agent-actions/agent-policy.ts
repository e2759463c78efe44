import { AgentPolicy, amountToWire } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

export interface PolicyInput {
  /** The internal account the money leaves or enters. */
  internalAccountId: string;
  amount: bigint;
  currency: string;
}

/** What the policy decided before any money moves; the usage limits are checked when reserving. */
export interface PolicyDecision {
  requiresApproval: boolean;
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
 * The checks that need no counter: the account is allowed, the amount is in the policy's
 * currency and within the per-transaction limit (a per-account rule overrides it), and whether
 * the action waits for the platform (approval mode, or above the approval threshold).
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
  if (input.currency !== limits.currency) {
    throw new ServiceError('FORBIDDEN', `The agent's limits are in ${limits.currency}; it cannot move ${input.currency}`, {
      reason: 'POLICY_CURRENCY_MISMATCH',
      policyCurrency: limits.currency,
      currency: input.currency,
    });
  }
  const rule = policy.accountRestrictions?.accountRules?.find((candidate) => candidate.accountId === input.internalAccountId);
  const perTransaction = rule?.perTransactionLimit ?? limits.perTransactionLimit;
  if (input.amount > BigInt(perTransaction)) {
    throw velocity('perTransactionLimit', `The amount is over the agent's per-transaction limit of ${perTransaction} ${limits.currency}`, {
      perTransactionLimit: perTransaction,
      amount: amountToWire(input.amount),
    });
  }
  const mode = rule?.executionMode ?? policy.defaultExecutionMode;
  const threshold = policy.approvalThresholds;
  // A threshold in another currency cannot be compared without a rate: the action waits for the platform.
  const overThreshold =
    threshold?.amount !== undefined && threshold.amount !== null && ((threshold.currency ?? limits.currency) !== input.currency || input.amount > BigInt(threshold.amount));
  return { requiresApproval: mode === 'APPROVAL_REQUIRED' || overThreshold };
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
  if (limits.dailyLimit !== undefined && limits.dailyLimit !== null && next.dailySpend > BigInt(limits.dailyLimit)) {
    throw velocity('dailyLimit', `The agent's daily limit of ${limits.dailyLimit} ${limits.currency} would be exceeded`, { dailyLimit: limits.dailyLimit, ...details });
  }
  if (limits.monthlyLimit !== undefined && limits.monthlyLimit !== null && next.monthlySpend > BigInt(limits.monthlyLimit)) {
    throw velocity('monthlyLimit', `The agent's monthly limit of ${limits.monthlyLimit} ${limits.currency} would be exceeded`, { monthlyLimit: limits.monthlyLimit, ...details });
  }
  return next;
}

/** The UTC day (`YYYY-MM-DD`) and month (`YYYY-MM`) the counters of `now` belong to. */
export function usagePeriod(now: Date): { day: string; month: string } {
  const iso = now.toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7) };
}
