import { ServiceError } from '@paykit/errors';

/**
 * Why the ledger refused a movement, in `details.reason` of its error. The error codes are the
 * API's (`INVALID_AMOUNT`, `CONFLICT`); callers that decide on the cause (the card network
 * declines rather than fails) read the reason. Wire values: frozen.
 */
export const LEDGER_REFUSAL_REASONS = {
  /** 400 INVALID_AMOUNT: the account's available balance does not cover the amount. */
  insufficientFunds: 'INSUFFICIENT_FUNDS',
  /** 409 CONFLICT: the account is FROZEN or CLOSED. */
  accountNotActive: 'ACCOUNT_NOT_ACTIVE',
  /** 400 INVALID_AMOUNT: the credit would take the balance past the largest amount the API carries (MAX_WIRE_AMOUNT). */
  balanceLimit: 'BALANCE_LIMIT',
} as const;
export type LedgerRefusalReason = (typeof LEDGER_REFUSAL_REASONS)[keyof typeof LEDGER_REFUSAL_REASONS];

/** The ledger refusal reason an error carries, if it is one. */
export function ledgerRefusalReason(error: unknown): LedgerRefusalReason | undefined {
  if (!(error instanceof ServiceError)) return undefined;
  const reason = error.details?.reason;
  return Object.values(LEDGER_REFUSAL_REASONS).find((known) => known === reason);
}
