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
