import { sandboxOutcome, TransactionStatus } from '@paykit/contracts';

/** Why a transfer FAILED (wire values of `failureReason`: frozen). */
export const TRANSFER_FAILURE_REASONS = ['INSUFFICIENT_FUNDS', 'ACCOUNT_CLOSED_OR_INVALID', 'REJECTED_BY_BANK', 'TIMED_OUT', 'CANCELLED'] as const;
export type TransferFailureReason = (typeof TRANSFER_FAILURE_REASONS)[number];

/** A later status change of an accepted transfer, run on the durable scheduler. */
export interface TransferStep {
  status: Exclude<TransactionStatus, 'PENDING'>;
  /** After the previous step (or acceptance); sandbox time, scaled by SANDBOX_TIME_SCALE. */
  delayMs: number;
  failureReason?: TransferFailureReason;
}

export type TransferOutcome =
  /** Refused by the rail at once: the transaction is created FAILED and no money moves. */
  | { kind: 'FAILS_IMMEDIATELY'; failureReason: TransferFailureReason }
  /** Accepted PENDING, then these steps. */
  | { kind: 'ACCEPTED'; steps: TransferStep[] };

/** How long the sandbox rail takes to answer an accepted transfer. */
export const SANDBOX_SETTLE_DELAY_MS = 1000;
/** The suffix-005 "pending about 30 s" case. */
export const SANDBOX_LONG_PENDING_MS = 30_000;

const SUCCESS: TransferOutcome = { kind: 'ACCEPTED', steps: [{ status: 'COMPLETED', delayMs: SANDBOX_SETTLE_DELAY_MS }] };

/**
 * The spec's transfer-in / transfer-out table, keyed by the last 3 digits of the external
 * account's primary identifier. One row per magic value; anything else succeeds.
 */
export const SANDBOX_TRANSFER_OUTCOMES: Readonly<Record<string, TransferOutcome>> = {
  '002': { kind: 'FAILS_IMMEDIATELY', failureReason: 'INSUFFICIENT_FUNDS' },
  '003': { kind: 'FAILS_IMMEDIATELY', failureReason: 'ACCOUNT_CLOSED_OR_INVALID' },
  '004': { kind: 'ACCEPTED', steps: [{ status: 'FAILED', delayMs: SANDBOX_SETTLE_DELAY_MS, failureReason: 'REJECTED_BY_BANK' }] },
  '005': {
    kind: 'ACCEPTED',
    steps: [
      { status: 'PROCESSING', delayMs: SANDBOX_SETTLE_DELAY_MS },
      { status: 'FAILED', delayMs: SANDBOX_LONG_PENDING_MS - SANDBOX_SETTLE_DELAY_MS, failureReason: 'TIMED_OUT' },
    ],
  },
};

/** Sandbox outcome of a transfer; outside the sandbox every accepted transfer follows the success path. */
export function transferOutcome(sandbox: boolean, primaryIdentifierLast3: string): TransferOutcome {
  return sandbox ? sandboxOutcome(SANDBOX_TRANSFER_OUTCOMES, primaryIdentifierLast3, SUCCESS) : SUCCESS;
}
