/**
 * A row of one of the spec's sandbox suffix tables, by name: what the console's pickers list
 * (so they show the spec's table, not a copy of it) and what the owning service's outcome table
 * is checked against (its keys are exactly these suffixes).
 */
export interface SandboxSuffixRow {
  suffix: string;
  name: string;
  outcome: string;
}

/** Card authorization family (credit authorization advice included), last three characters of `merchant.descriptor`; any other suffix is approved. */
export const SANDBOX_DESCRIPTOR_SUFFIX_TABLE: readonly SandboxSuffixRow[] = [
  { suffix: '002', name: 'Insufficient funds', outcome: 'declined INSUFFICIENT_FUNDS (the pull on the funding source fails)' },
  { suffix: '003', name: 'Card paused', outcome: 'declined CARD_PAUSED (use against a FROZEN card)' },
  { suffix: '005', name: 'Delayed pull', outcome: 'PENDING, the pull happens about 30 s later, then CONFIRMED' },
  { suffix: '006', name: 'Confirmation fails', outcome: 'the pull succeeds but the confirmation fails: EXCEPTION, high urgency' },
];

/** Card issuance, last three characters of `platformCardId` (or `cardholderId` when it is omitted); any other suffix activates instantly. */
export const SANDBOX_CARD_ISSUANCE_SUFFIX_TABLE: readonly SandboxSuffixRow[] = [
  { suffix: '001', name: 'Stays processing', outcome: 'PROCESSING, and stays there' },
  { suffix: '002', name: 'Issuer rejects', outcome: 'CLOSED with stateReason ISSUER_REJECTED' },
  { suffix: '005', name: 'Delayed activation', outcome: 'PROCESSING, ACTIVE about 30 s later (CARD.STATE_CHANGE fires)' },
];

/** Sandbox: funding-source binding refused for an account id ending in one of these (the spec's table). */
export const SANDBOX_INELIGIBLE_FUNDING_SUFFIXES: ReadonlySet<string> = new Set(['002', '003']);

/** Sandbox: card issuance suffixes with an outcome other than instant activation (the spec's table). */
export const SANDBOX_CARD_ISSUANCE_SUFFIXES: ReadonlySet<string> = new Set(SANDBOX_CARD_ISSUANCE_SUFFIX_TABLE.map((row) => row.suffix));
