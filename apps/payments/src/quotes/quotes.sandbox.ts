import { QuoteFailureReason, sandboxOutcome } from '@paykit/contracts';

/** A later step of an executed quote, run on the durable scheduler. */
export interface QuoteStep {
  status: 'PROCESSING' | 'COMPLETED' | 'FAILED';
  /** After the previous step (or the execution); sandbox time, scaled by SANDBOX_TIME_SCALE. */
  delayMs: number;
  failureReason?: QuoteFailureReason;
  /** FAILED only: whether the debited amount goes back to the source (false: the refund failed too). */
  refund?: boolean;
}

export type QuoteOutcome =
  /** Refused when executed: the transaction is created FAILED and no money moves. */
  | { kind: 'FAILS_AT_EXECUTION'; failureReason: QuoteFailureReason }
  /** Debited at execution, then these steps. */
  | { kind: 'ACCEPTED'; steps: QuoteStep[] };

/** How long the sandbox payout rail takes to answer. */
export const SANDBOX_STEP_MS = 1000;
/** The suffix-003 "completes after about 6 minutes" case, counted from the execution. */
export const SANDBOX_SLOW_COMPLETION_MS = 6 * 60 * 1000;
/** How long after completing a suffix-005 payout the receiving bank returns it. */
export const SANDBOX_RETURN_MS = 30_000;

const PROCESSING: QuoteStep = { status: 'PROCESSING', delayMs: SANDBOX_STEP_MS };
const COMPLETED: QuoteStep = { status: 'COMPLETED', delayMs: SANDBOX_STEP_MS };
const SUCCESS: QuoteOutcome = { kind: 'ACCEPTED', steps: [PROCESSING, COMPLETED] };

/**
 * The spec's quote table, keyed by the last 3 digits of the destination external account's
 * primary identifier. One row per magic value; anything else succeeds.
 */
export const SANDBOX_QUOTE_OUTCOMES: Readonly<Record<string, QuoteOutcome>> = {
  /** Execution failed. */
  '002': { kind: 'FAILS_AT_EXECUTION', failureReason: 'QUOTE_EXECUTION_FAILED' },
  /** Completes after about 6 minutes. */
  '003': { kind: 'ACCEPTED', steps: [PROCESSING, { status: 'COMPLETED', delayMs: SANDBOX_SLOW_COMPLETION_MS - SANDBOX_STEP_MS }] },
  /** Delivery to the counterparty failed; refunded. */
  '004': { kind: 'ACCEPTED', steps: [PROCESSING, { status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'ACCOUNT_CANNOT_RECEIVE', refund: true }] },
  /** Completes, then the receiving bank returns it; refunded. */
  '005': { kind: 'ACCEPTED', steps: [PROCESSING, COMPLETED, { status: 'FAILED', delayMs: SANDBOX_RETURN_MS, failureReason: 'PAYOUT_RETURNED', refund: true }] },
  /** The user cancels before the payout; refunded. */
  '006': { kind: 'ACCEPTED', steps: [{ status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'QUOTE_EXECUTION_FAILED', refund: true }] },
  /** The payout fails and so does its refund: the amount stays with the service, unreturned. */
  '007': { kind: 'ACCEPTED', steps: [PROCESSING, { status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'COUNTERPARTY_POST_TX_FAILED', refund: false }] },
};

/**
 * The spec's sandbox UMA receivers that do not simply succeed, by the outcome key their quotes
 * store (receiver-lookup.sandbox.ts). One row per receiver.
 */
export const SANDBOX_UMA_QUOTE_OUTCOMES: Readonly<Record<string, QuoteOutcome>> = {
  /** `$pending.long.usd`: stays PROCESSING for about 6 minutes, then completes. */
  UMA_LONG_PENDING: { kind: 'ACCEPTED', steps: [PROCESSING, { status: 'COMPLETED', delayMs: SANDBOX_SLOW_COMPLETION_MS - SANDBOX_STEP_MS }] },
  /** `$fail.compliance.usd`: the receiving side's compliance check refuses it; refunded. */
  UMA_COMPLIANCE_FAILURE: { kind: 'ACCEPTED', steps: [{ status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'COMPLIANCE_REJECTED', refund: true }] },
};

/** The success path of every payout outside the sandbox tables. */
export const QUOTE_SUCCESS = SUCCESS;

/**
 * Sandbox outcome of a quote: a UMA receiver's key, or the last 3 digits of the destination
 * external account's identifier; without a key (production, internal destinations) it succeeds.
 */
export function quoteOutcome(key: string | null): QuoteOutcome {
  if (key === null) return SUCCESS;
  if (Object.prototype.hasOwnProperty.call(SANDBOX_UMA_QUOTE_OUTCOMES, key)) return SANDBOX_UMA_QUOTE_OUTCOMES[key];
  return sandboxOutcome(SANDBOX_QUOTE_OUTCOMES, key, SUCCESS);
}
