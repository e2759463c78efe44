/** Purposes of ledger accounts. HOLDING accounts back internal accounts; the rest are the platform's contra accounts. */
export const LEDGER_PURPOSES = [
  'HOLDING',
  'SANDBOX_FUNDING',
  'EXTERNAL_CLEARING',
  'CARD_SETTLEMENT',
  'FX_CONVERSION',
  'FEES',
  /** One per stablecoin: minting debits it, burning credits it; minus its balance is the supply outstanding. */
  'STABLECOIN_SUPPLY',
  /** One per base currency: the fiat backing the platform's stablecoin supply. */
  'STABLECOIN_RESERVE',
] as const;
export type LedgerPurpose = (typeof LEDGER_PURPOSES)[number];
export type SystemPurpose = Exclude<LedgerPurpose, 'HOLDING'>;

export const ENTRY_KINDS = [
  'SANDBOX_FUNDING',
  'HOLD_CAPTURE',
  'HOLD_REFUND',
  'TRANSFER_OUT',
  'TRANSFER_IN',
  'CARD_CREDIT',
  /** A quote's source leg: the source pays the sending amount into FX_CONVERSION, fees into FEES. */
  'QUOTE_EXECUTION',
  /** A quote's destination leg: FX_CONVERSION pays the receiving amount out. */
  'QUOTE_PAYOUT',
  /** The source leg reversed (a failed payment's refund). */
  'QUOTE_REFUND',
  /** The destination leg reversed (a payout the receiving bank returned). */
  'QUOTE_RETURN',
  /** An incoming UMA payment the platform approved: external clearing pays the receiving account. */
  'UMA_RECEIVE',
  /** A mint: the fiat paid in goes to the reserve (base currency), new coins from the supply account to their holder (coin). */
  'STABLECOIN_MINT',
  /** A burn: the coins go back to the supply account (coin), the reserve pays the fiat out (base currency). */
  'STABLECOIN_BURN',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/**
 * A ledger account as the posting code needs it. `checked` accounts keep a running total
 * that may never go below zero; unchecked (contra) accounts have no bound and no running
 * total — their balance is the sum of their postings — so they never become a hot row.
 */
export interface LedgerAccountRef {
  id: string;
  currency: string;
  checked: boolean;
}

/** One line of an entry: positive credits the account, negative debits it (minor units). */
export interface PostingLine {
  account: LedgerAccountRef;
  amount: bigint;
}

export interface JournalEntryInput {
  platformId: string;
  kind: EntryKind;
  referenceId: string;
  currency: string;
  lines: PostingLine[];
}

/** Thrown when code tries to write an entry that does not balance: a bug, never a user error. */
export class UnbalancedEntryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnbalancedEntryError';
  }
}

/** Every entry has two or more non-zero postings in its one currency, summing to zero. */
export function assertBalanced(entry: JournalEntryInput): void {
  if (entry.lines.length < 2) throw new UnbalancedEntryError(`${entry.kind}: an entry needs at least two postings`);
  let sum = 0n;
  for (const line of entry.lines) {
    if (line.amount === 0n) throw new UnbalancedEntryError(`${entry.kind}: zero posting on ${line.account.id}`);
    if (line.account.currency !== entry.currency) {
      throw new UnbalancedEntryError(`${entry.kind}: posting in ${line.account.currency} on an entry in ${entry.currency}`);
    }
    sum += line.amount;
  }
  if (sum !== 0n) throw new UnbalancedEntryError(`${entry.kind}: postings sum to ${sum}, not 0`);
}
