import { LEDGER_REFUSAL_REASONS, LedgerRefusalReason } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { balanceLimit, insufficientFunds } from '../internal-accounts/internal-accounts.errors';
import { refusedStatement } from '../refused-statement';
import { HoldEntity } from './entities/hold.entity';
import { EntryKind, SystemPurpose } from './ledger-entry';

/** What the ledger's statements answer: running totals, hold changes and outcomes, and the refusals of a checked account. */

/** A checked account's running totals. */
export interface Balance {
  posted: bigint;
  held: bigint;
}

export interface PostedEntry {
  entryId: string;
  /** Running totals of the checked accounts after the entry, by account id. */
  balances: Map<string, Balance>;
}

/** A hold as a ledger statement left it, with its account's running totals right after. */
export interface HoldChange {
  hold: HoldEntity;
  balance: Balance;
}

export interface HoldCapture {
  platformId: string;
  holdId: string;
  amount: bigint;
  /** The caller key of the capture, kept on the hold. */
  resolutionKey: string;
  /** The platform's contra account the captured amount goes to. */
  counterparty: SystemPurpose;
  kind: EntryKind;
}

/**
 * What a (batched) hold or capture statement did with one of its requests. Nothing changed
 * for a request that is not DONE.
 */
export type LedgerOutcome =
  | { status: 'DONE'; change: HoldChange }
  /** Its account's total over the batch was not available (alone: this request's amount is not). */
  | { status: 'SHORT' }
  /** Not applicable as asked: the hold key is taken, the account or hold is not in the required state, the contra account is missing. */
  | { status: 'SKIPPED' };

/** Why a checked account refuses a posting of `amount`: a debit finds too little, a credit too much. */
export function refusalReason(amount: bigint): LedgerRefusalReason {
  return amount > 0n ? LEDGER_REFUSAL_REASONS.balanceLimit : LEDGER_REFUSAL_REASONS.insufficientFunds;
}

/** The answer to a posting a checked account refused. */
export function ledgerRefusal(reason: LedgerRefusalReason): ServiceError {
  return reason === LEDGER_REFUSAL_REASONS.balanceLimit ? balanceLimit() : insufficientFunds();
}

/** A statement refused (refuse_statement) with a ledger refusal reason, as the answer it gets; undefined for any other error. */
export function ledgerRefusalOf(error: unknown): ServiceError | undefined {
  const refused = refusedStatement(error);
  const reasons: string[] = Object.values(LEDGER_REFUSAL_REASONS);
  return refused && reasons.includes(refused.code) ? ledgerRefusal(refused.code as LedgerRefusalReason) : undefined;
}

export function refusal(amount: bigint): ServiceError {
  return ledgerRefusal(refusalReason(amount));
}

/** Available balance of a running total. */
export function available(balance: Balance): bigint {
  return balance.posted - balance.held;
}
