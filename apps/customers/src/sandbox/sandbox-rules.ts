import { ContactChannel, DocumentRejectionReason, DocumentStatus, KycStatus, VerificationStatus } from '@paykit/contracts';

/**
 * The sandbox's magic values for onboarding: one data table per spec table, one lookup each.
 * Only sandbox callers reach them (see `isSandbox`); production reviews stay PENDING.
 */

export interface KycOutcome {
  verificationStatus: VerificationStatus;
  /** The status the customer moves to; undefined for RESOLVE_ERRORS (nothing decided yet). */
  status?: KycStatus;
  /** RESOLVE_ERRORS rows: the enhanced due diligence answers must be present to proceed. */
  requiresEdd?: boolean;
}

const APPROVED: KycOutcome = { verificationStatus: 'IN_PROGRESS', status: 'APPROVED' };

/** KYC for individuals, by the last 3 characters of `fullName`. */
export const INDIVIDUAL_KYC_TABLE: Record<string, KycOutcome> = {
  '001': { verificationStatus: 'IN_PROGRESS', status: 'PENDING' },
  '002': { verificationStatus: 'REJECTED', status: 'REJECTED' },
  '003': { verificationStatus: 'RESOLVE_ERRORS', requiresEdd: true },
};

/** KYB, by the last 3 digits of `businessInfo.registrationNumber`. */
export const BUSINESS_KYB_TABLE: Record<string, KycOutcome> = {
  '001': { verificationStatus: 'IN_PROGRESS', status: 'PENDING' },
  '002': { verificationStatus: 'REJECTED', status: 'REJECTED' },
};

/** Beneficial owner KYC, by the last 3 characters of `personalInfo.lastName`. */
export const BENEFICIAL_OWNER_KYC_TABLE: Record<string, KycStatus> = {
  '001': 'PENDING',
  '002': 'REJECTED',
};

export function individualKycOutcome(fullName: string): KycOutcome {
  return INDIVIDUAL_KYC_TABLE[fullName.slice(-3)] ?? APPROVED;
}

export function businessKybOutcome(registrationNumber: string): KycOutcome {
  const digits = registrationNumber.replace(/\D/g, '');
  return BUSINESS_KYB_TABLE[digits.slice(-3)] ?? APPROVED;
}

export function beneficialOwnerKycStatus(lastName: string): KycStatus {
  return BENEFICIAL_OWNER_KYC_TABLE[lastName.slice(-3)] ?? 'APPROVED';
}

/**
 * Which customers the sandbox provider asks to verify a contact channel (our rule; the spec
 * leaves it open): an email whose local part ends in `+verify`, a phone number ending in `0000`.
 */
export const CONTACT_VERIFICATION_RULES: Record<ContactChannel, (value: string) => boolean> = {
  email: (email) => /\+verify@/i.test(email),
  phone: (phone) => phone.endsWith('0000'),
};

/** The one-time code every sandbox contact verification accepts (like the spec's OTP `000000`). */
export const SANDBOX_CONTACT_CODE = '000000';

export interface DocumentReview {
  status: DocumentStatus;
  rejectionReason?: DocumentRejectionReason;
}

/** Document review, by the last 3 characters of the file name without its extension. */
export const DOCUMENT_REVIEW_TABLE: Record<string, DocumentReview> = {
  '001': { status: 'PENDING' },
  '002': { status: 'REJECTED', rejectionReason: 'LOW_QUALITY' },
  '003': { status: 'REJECTED', rejectionReason: 'DATA_MISMATCH' },
  '004': { status: 'REJECTED', rejectionReason: 'EXPIRED' },
  '005': { status: 'REJECTED', rejectionReason: 'SUSPECTED_FRAUD' },
  '006': { status: 'REJECTED', rejectionReason: 'UNSUITABLE_DOCUMENT' },
  '007': { status: 'REJECTED', rejectionReason: 'INCOMPLETE' },
};

export function documentReview(fileName: string): DocumentReview {
  const stem = fileName.replace(/\.[^.]*$/, '');
  return DOCUMENT_REVIEW_TABLE[stem.slice(-3)] ?? { status: 'APPROVED' };
}
