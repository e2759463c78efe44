import { AccountInfo, BeneficiaryVerificationStatus, ExternalAccountStatus } from '@paykit/contracts';
import { sandboxNameVerification } from './external-accounts.sandbox';

/** What review decides for new or changed destination data. */
export type ReviewOutcome = { kind: 'REJECTED' } | { kind: 'DECIDED'; status: ExternalAccountStatus; verification: BeneficiaryVerificationStatus | null; resolveLater: boolean };

/**
 * The account status each verification result leads to. Only a name that does not match needs
 * a human (UNDER_REVIEW); a pending check keeps the account PENDING until it resolves; every
 * other result leaves the account usable (the result stays visible to the platform).
 */
export const STATUS_AFTER_VERIFICATION: Record<BeneficiaryVerificationStatus, ExternalAccountStatus> = {
  MATCHED: 'ACTIVE',
  PARTIAL_MATCH: 'ACTIVE',
  UNSUPPORTED: 'ACTIVE',
  CHECKED_BY_RECEIVING_FI: 'ACTIVE',
  NOT_MATCHED: 'UNDER_REVIEW',
  PENDING: 'PENDING',
};

/**
 * Review of destination data. In the sandbox the suffix table decides; in production no
 * name-verification provider is configured in this build, so the result is UNSUPPORTED.
 * A self-custody LN_WALLET has no beneficiary to verify.
 */
export function reviewDestination(info: AccountInfo, sandbox: boolean): ReviewOutcome {
  const result = sandbox ? sandboxNameVerification(info) : 'UNSUPPORTED';
  if (result === 'INVALID_ACCOUNT') return { kind: 'REJECTED' };
  if (info.accountType === 'LN_WALLET') return { kind: 'DECIDED', status: 'ACTIVE', verification: null, resolveLater: false };
  return { kind: 'DECIDED', status: STATUS_AFTER_VERIFICATION[result], verification: result, resolveLater: result === 'PENDING' };
}
