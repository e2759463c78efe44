import { KycStatus, sandboxOutcome, VerificationStatus } from '@paykit/contracts';

// Only sandbox callers reach these tables (see `decideVerification`); production reviews stay PENDING.

export interface KycOutcome {
  verificationStatus: VerificationStatus;
  /** The status the customer moves to; undefined for RESOLVE_ERRORS (nothing decided yet). */
  status?: KycStatus;
  /** RESOLVE_ERRORS rows: the enhanced due diligence answers must be present to proceed. */
  requiresEdd?: boolean;
}

const APPROVED: KycOutcome = { verificationStatus: 'IN_PROGRESS', status: 'APPROVED' };

/** KYC for individuals, by the last 3 characters of `fullName`. */
export const INDIVIDUAL_KYC_TABLE: Readonly<Record<string, KycOutcome>> = {
  '001': { verificationStatus: 'IN_PROGRESS', status: 'PENDING' },
  '002': { verificationStatus: 'REJECTED', status: 'REJECTED' },
  '003': { verificationStatus: 'RESOLVE_ERRORS', requiresEdd: true },
};

/** KYB, by the last 3 digits of `businessInfo.registrationNumber`. */
export const BUSINESS_KYB_TABLE: Readonly<Record<string, KycOutcome>> = {
  '001': { verificationStatus: 'IN_PROGRESS', status: 'PENDING' },
  '002': { verificationStatus: 'REJECTED', status: 'REJECTED' },
};

export function individualKycOutcome(fullName: string): KycOutcome {
  return sandboxOutcome(INDIVIDUAL_KYC_TABLE, fullName, APPROVED);
}

export function businessKybOutcome(registrationNumber: string): KycOutcome {
  return sandboxOutcome(BUSINESS_KYB_TABLE, registrationNumber.replace(/\D/g, ''), APPROVED);
}

// ---- The HOSTED sandbox profile: the hosted sandbox's current guides (`snippets/sandbox-verification.mdx`,
// `snippets/kyc/kyb-sandbox-suffixes.mdx` in lightsparkdev/grid-api), for platforms that chose it.

/** An individual's kycStatus at creation, by the last 3 characters of `fullName`. */
export const HOSTED_INDIVIDUAL_KYC_AT_CREATION: Readonly<Record<string, KycStatus>> = {
  '001': 'PENDING',
  '002': 'REJECTED',
  '003': 'UNVERIFIED',
};

/** What `POST /verifications` does with a business, by the last 3 characters of its registration number. */
export type HostedKybOutcome = 'REVIEW' | 'REJECTED' | 'APPROVED';
export const HOSTED_BUSINESS_KYB_TABLE: Readonly<Record<string, HostedKybOutcome>> = {
  '001': 'REVIEW',
  '002': 'REJECTED',
  '003': 'REVIEW',
};

/** A new customer's status under HOSTED: individuals by their name's suffix (no name: APPROVED, like any other), businesses UNVERIFIED. */
export function hostedInitialStatus(customerType: 'INDIVIDUAL' | 'BUSINESS', fullName: string | undefined): KycStatus {
  if (customerType === 'BUSINESS') return 'UNVERIFIED';
  return sandboxOutcome(HOSTED_INDIVIDUAL_KYC_AT_CREATION, fullName ?? '', 'APPROVED');
}

export function hostedBusinessKybOutcome(registrationNumber: string): HostedKybOutcome {
  return sandboxOutcome(HOSTED_BUSINESS_KYB_TABLE, registrationNumber, 'APPROVED');
}
