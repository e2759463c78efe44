import { AccountInfo, BeneficiaryVerificationStatus, ExternalAccountStatus } from '@paykit/contracts';
import { identifierLast3, primaryIdentifier } from './account-identity';

/** What review decides for new or changed destination data. */
export type ReviewOutcome =
  | { kind: 'REJECTED' }
  | { kind: 'DECIDED'; status: ExternalAccountStatus; verification: BeneficiaryVerificationStatus | null; resolveLater: boolean };

/**
 * The sandbox name-verification table (1xx range), keyed by the last 3 digits of the primary
 * identifier. One row per magic value; anything else is MATCHED.
 */
export const SANDBOX_NAME_VERIFICATION: Record<string, 'INVALID_ACCOUNT' | BeneficiaryVerificationStatus> = {
  '102': 'NOT_MATCHED',
  '103': 'PARTIAL_MATCH',
  '104': 'PENDING',
  '105': 'INVALID_ACCOUNT',
  '106': 'UNSUPPORTED',
  '107': 'CHECKED_BY_RECEIVING_FI',
};

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

export function sandboxNameVerification(info: AccountInfo): 'INVALID_ACCOUNT' | BeneficiaryVerificationStatus {
  const last3 = identifierLast3(primaryIdentifier(info));
  return (/^\d{3}$/.test(last3) ? SANDBOX_NAME_VERIFICATION[last3] : undefined) ?? 'MATCHED';
}

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
