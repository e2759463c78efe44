/**
 * PENDING_OWNERSHIP_VERIFICATION: a first-party self-custody wallet whose ownership is still to be
 * proven (challenge and verify); UNVERIFIED: the last ownership proof failed (start a new challenge).
 */
export const EXTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'PENDING_OWNERSHIP_VERIFICATION', 'UNVERIFIED', 'UNDER_REVIEW', 'INACTIVE'] as const;
export type ExternalAccountStatus = (typeof EXTERNAL_ACCOUNT_STATUSES)[number];

export const BENEFICIARY_VERIFICATION_STATUSES = ['MATCHED', 'NOT_MATCHED', 'PARTIAL_MATCH', 'PENDING', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI'] as const;
export type BeneficiaryVerificationStatus = (typeof BENEFICIARY_VERIFICATION_STATUSES)[number];

export const EXTERNAL_ACCOUNT_OWNER_TYPES = ['CUSTOMER', 'PLATFORM'] as const;
export type ExternalAccountOwnerType = (typeof EXTERNAL_ACCOUNT_OWNER_TYPES)[number];

/** Whether the account belongs to the customer (or platform) itself, or to someone else. */
export const OWNERSHIP_TYPES = ['FIRST_PARTY', 'THIRD_PARTY'] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];

export const OWNERSHIP_VERIFICATION_METHODS = ['WALLET_SIGNATURE', 'LIVENESS'] as const;
export type OwnershipVerificationMethod = (typeof OWNERSHIP_VERIFICATION_METHODS)[number];

/** Bitcoin message-signing formats a verify request may name (ignored on other networks). */
export const SIGNATURE_SCHEMES = ['bip137', 'electrum'] as const;

export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type BeneficiaryType = (typeof BENEFICIARY_TYPES)[number];
