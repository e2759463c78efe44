import { CardState, CardStateReason, SANDBOX_INELIGIBLE_FUNDING_SUFFIXES, sandboxOutcome, sandboxSuffix } from '@paykit/contracts';

export interface IssuanceOutcome {
  state: CardState;
  stateReason?: CardStateReason;
  /** Sandbox delay after which a PROCESSING card becomes ACTIVE. */
  activateAfterMs?: number;
}

/** About 30 s (SANDBOX_TIME_SCALE shrinks it). */
export const SANDBOX_ACTIVATION_DELAY_MS = 30_000;

/**
 * Card issuance, last three characters of `platformCardId` (or of `cardholderId` when it is
 * omitted). Any suffix not listed activates instantly.
 */
export const ISSUANCE_OUTCOMES: Readonly<Record<string, IssuanceOutcome>> = {
  '001': { state: 'PROCESSING' },
  '002': { state: 'CLOSED', stateReason: 'ISSUER_REJECTED' },
  '005': { state: 'PROCESSING', activateAfterMs: SANDBOX_ACTIVATION_DELAY_MS },
};
const INSTANT_ACTIVATION: IssuanceOutcome = { state: 'ACTIVE' };

export function sandboxIssuanceOutcome(platformCardId: string | undefined, cardholderId: string): IssuanceOutcome {
  return sandboxOutcome(ISSUANCE_OUTCOMES, platformCardId ?? cardholderId, INSTANT_ACTIVATION);
}

/**
 * last4 deterministic from the suffix: '0' then one digit per UTF-16 unit of the suffix (an ASCII
 * digit stays itself, any other unit its code mod 10). `...001` gives 0001, `...4a2` gives 0472.
 * Units, not characters: the suffix is cut by units (sandboxSuffix), and an emoji or a
 * mathematical digit there must still give exactly four ASCII digits.
 */
export function sandboxLast4(platformCardId: string | undefined, cardholderId: string): string {
  const suffix = sandboxSuffix(platformCardId ?? cardholderId).padStart(3, '0');
  let digits = '0';
  for (let i = 0; i < suffix.length; i++) {
    const unit = suffix.charCodeAt(i);
    digits += unit >= 0x30 && unit <= 0x39 ? suffix[i] : String(unit % 10);
  }
  return digits;
}

/** Funding-source binding, last three characters of the account id: SANDBOX_INELIGIBLE_FUNDING_SUFFIXES are ineligible. */
export function isSandboxIneligibleFundingSource(accountId: string): boolean {
  return SANDBOX_INELIGIBLE_FUNDING_SUFFIXES.has(sandboxSuffix(accountId));
}
