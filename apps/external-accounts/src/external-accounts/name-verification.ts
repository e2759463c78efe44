import { AccountInfo, BeneficiaryVerificationStatus, CORRIDORS, CRYPTO_WALLET_TYPES, ExternalAccountStatus, OwnershipType } from '@paykit/contracts';
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
 * A first-party wallet on a blockchain with no VASP named is self-custody: its owner proves
 * control of it (challenge, verify) before it can receive payments.
 */
export function needsOwnershipProof(info: AccountInfo, ownershipType: OwnershipType | null | undefined): boolean {
  return ownershipType === 'FIRST_PARTY' && CRYPTO_WALLET_TYPES.includes(info.accountType) && typeof info.vaspName !== 'string';
}

/**
 * Review of destination data. In the sandbox the suffix table decides; in production no
 * name-verification provider is configured in this build, so the result is UNSUPPORTED.
 * Wallets have no beneficiary name to verify; a first-party self-custody wallet waits for its
 * ownership proof.
 */
export function reviewDestination(info: AccountInfo, sandbox: boolean, ownershipType?: OwnershipType | null): ReviewOutcome {
  const result = sandbox ? sandboxNameVerification(info) : 'UNSUPPORTED';
  if (result === 'INVALID_ACCOUNT') return { kind: 'REJECTED' };
  if (CORRIDORS[info.accountType].beneficiary !== 'bank') {
    const status = needsOwnershipProof(info, ownershipType) ? 'PENDING_OWNERSHIP_VERIFICATION' : 'ACTIVE';
    return { kind: 'DECIDED', status, verification: null, resolveLater: false };
  }
  return { kind: 'DECIDED', status: STATUS_AFTER_VERIFICATION[result], verification: result, resolveLater: result === 'PENDING' };
}
