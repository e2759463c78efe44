import { QuoteFailureReason, RefundReason, sandboxOutcome } from '@paykit/contracts';

/**
 * What a step does: the payment's status (PROCESSING, COMPLETED, FAILED), its refund's
 * (REFUND_PENDING, REFUND_COMPLETED, REFUND_FAILED), or CANCELLATION_RESOLVED: a payment cancelled
 * while processing, its refund settled, ends COMPLETED with nothing paid out (the guide's manual
 * cancellation).
 */
export const QUOTE_STEP_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED', 'REFUND_PENDING', 'REFUND_COMPLETED', 'REFUND_FAILED', 'CANCELLATION_RESOLVED'] as const;
export type QuoteStepStatus = (typeof QUOTE_STEP_STATUSES)[number];

/** A later step of an executed quote, run on the durable scheduler. */
export interface QuoteStep {
  status: QuoteStepStatus;
  /** After the previous step (or the execution); sandbox time, scaled by SANDBOX_TIME_SCALE. */
  delayMs: number;
  failureReason?: QuoteFailureReason;
  /** REFUND_PENDING: why the refund is made. */
  refundReason?: RefundReason;
  /**
   * Steps scheduled before refunds were steps of their own only: a FAILED step whose debited
   * amount goes back to the source at once. Tables no longer write it.
   */
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

/** A refund initiated as soon as its payment failed (REFUND_PENDING), settled by the rail a step later (the source credited once). */
function refunded(reason: RefundReason): QuoteStep[] {
  return [
    { status: 'REFUND_PENDING', delayMs: 0, refundReason: reason },
    { status: 'REFUND_COMPLETED', delayMs: SANDBOX_STEP_MS },
  ];
}

/** The steps of a payment cancelled while processing (`POST /transactions/{id}/cancel`): the refund settles, then the cancellation resolves. */
export const CANCELLATION_STEPS: QuoteStep[] = [
  { status: 'REFUND_COMPLETED', delayMs: SANDBOX_STEP_MS },
  { status: 'CANCELLATION_RESOLVED', delayMs: SANDBOX_STEP_MS },
];

/**
 * The spec's quote table, keyed by the last 3 digits of the destination external account's
 * primary identifier. One row per magic value; anything else succeeds.
 */
export const SANDBOX_QUOTE_OUTCOMES: Readonly<Record<string, QuoteOutcome>> = {
  /** Execution failed. */
  '002': { kind: 'FAILS_AT_EXECUTION', failureReason: 'QUOTE_EXECUTION_FAILED' },
  /** Completes after about 6 minutes. */
  '003': { kind: 'ACCEPTED', steps: [PROCESSING, { status: 'COMPLETED', delayMs: SANDBOX_SLOW_COMPLETION_MS - SANDBOX_STEP_MS }] },
  /** Delivery to the counterparty failed; refunded (the guide's failure with refund). */
  '004': {
    kind: 'ACCEPTED',
    steps: [PROCESSING, { status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'ACCOUNT_CANNOT_RECEIVE' }, ...refunded('TRANSACTION_FAILED')],
  },
  /** Completes, then the receiving bank returns it; refunded (the guide's bank return). */
  '005': {
    kind: 'ACCEPTED',
    steps: [PROCESSING, COMPLETED, { status: 'FAILED', delayMs: SANDBOX_RETURN_MS, failureReason: 'PAYOUT_RETURNED' }, ...refunded('TRANSACTION_FAILED')],
  },
  /** The user cancels before the payout; refunded with reason USER_CANCELLATION. */
  '006': { kind: 'ACCEPTED', steps: [{ status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'QUOTE_EXECUTION_FAILED' }, ...refunded('USER_CANCELLATION')] },
  /** The payout fails and so does its refund (the guide's failure with failed refund): the amount stays with the service, unreturned. */
  '007': {
    kind: 'ACCEPTED',
    steps: [
      PROCESSING,
      { status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'COUNTERPARTY_POST_TX_FAILED' },
      { status: 'REFUND_PENDING', delayMs: 0, refundReason: 'TRANSACTION_FAILED' },
      { status: 'REFUND_FAILED', delayMs: SANDBOX_STEP_MS },
    ],
  },
};

/**
 * The spec's sandbox UMA receivers that do not simply succeed, by the outcome key their quotes
 * store (receiver-lookup.sandbox.ts). One row per receiver.
 */
export const SANDBOX_UMA_QUOTE_OUTCOMES: Readonly<Record<string, QuoteOutcome>> = {
  /** `$pending.long.usd`: stays PROCESSING for about 6 minutes, then completes. */
  UMA_LONG_PENDING: { kind: 'ACCEPTED', steps: [PROCESSING, { status: 'COMPLETED', delayMs: SANDBOX_SLOW_COMPLETION_MS - SANDBOX_STEP_MS }] },
  /** `$fail.compliance.usd`: the receiving side's compliance check refuses it; refunded. */
  UMA_COMPLIANCE_FAILURE: {
    kind: 'ACCEPTED',
    steps: [{ status: 'FAILED', delayMs: SANDBOX_STEP_MS, failureReason: 'COMPLIANCE_REJECTED' }, ...refunded('TRANSACTION_FAILED')],
  },
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
