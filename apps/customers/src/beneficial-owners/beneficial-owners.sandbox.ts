import { KycStatus, sandboxOutcome } from '@paykit/contracts';

/** Beneficial owner KYC in the sandbox, by the last 3 characters of `personalInfo.lastName`. */
export const BENEFICIAL_OWNER_KYC_TABLE: Readonly<Record<string, KycStatus>> = {
  '001': 'PENDING',
  '002': 'REJECTED',
};

export function beneficialOwnerKycStatus(lastName: string): KycStatus {
  return sandboxOutcome(BENEFICIAL_OWNER_KYC_TABLE, lastName, 'APPROVED');
}
