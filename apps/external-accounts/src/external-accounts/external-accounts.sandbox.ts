import { AccountInfo, BeneficiaryVerificationStatus, sandboxOutcome } from '@paykit/contracts';
import { identifierLast3, primaryIdentifier } from './account-identity';

/**
 * The sandbox name-verification table (1xx range), keyed by the last 3 digits of the primary
 * identifier. One row per magic value; anything else is MATCHED.
 */
export const SANDBOX_NAME_VERIFICATION: Readonly<Record<string, 'INVALID_ACCOUNT' | BeneficiaryVerificationStatus>> = {
  '102': 'NOT_MATCHED',
  '103': 'PARTIAL_MATCH',
  '104': 'PENDING',
  '105': 'INVALID_ACCOUNT',
  '106': 'UNSUPPORTED',
  '107': 'CHECKED_BY_RECEIVING_FI',
};

/** The sandbox's verification result for new or changed destination data. */
export function sandboxNameVerification(info: AccountInfo): 'INVALID_ACCOUNT' | BeneficiaryVerificationStatus {
  return sandboxOutcome(SANDBOX_NAME_VERIFICATION, identifierLast3(primaryIdentifier(info)), 'MATCHED');
}

/**
 * The sandbox's hosted liveness check of a wallet's owner, keyed by the last 3 characters of the
 * wallet address: it completes about 30 s after the challenge, passing unless the table says so.
 */
export const SANDBOX_LIVENESS: Readonly<Record<string, 'FAILED'>> = {
  '002': 'FAILED',
};

export function sandboxLivenessOutcome(info: AccountInfo): 'PASSED' | 'FAILED' {
  return sandboxOutcome(SANDBOX_LIVENESS, identifierLast3(primaryIdentifier(info)), 'PASSED');
}
