export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export const KYC_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export const VERIFICATION_STATUSES = ['IN_PROGRESS', 'REJECTED', 'RESOLVE_ERRORS'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const CONTACT_CHANNELS = ['email', 'phone'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];
export const CONTACT_VERIFICATION_STATUSES = ['PENDING', 'VERIFIED'] as const;
export type ContactVerificationStatus = (typeof CONTACT_VERIFICATION_STATUSES)[number];

export const SOURCE_OF_WEALTH_CATEGORIES = ['SALARY', 'BUSINESS_INCOME', 'INVESTMENTS', 'SAVINGS', 'INHERITANCE', 'PENSION', 'GIFT', 'SALE_OF_PROPERTY', 'OTHER'] as const;
export type SourceOfWealthCategory = (typeof SOURCE_OF_WEALTH_CATEGORIES)[number];
export const PURPOSES_OF_ACCOUNT = [
  'P2P_TRANSFERS',
  'REMITTANCES',
  'PAYROLL',
  'BILL_PAYMENTS',
  'ONLINE_PURCHASES',
  'INVESTMENTS',
  'SAVINGS',
  'BUSINESS_PAYMENTS',
  'OTHER',
] as const;
export type PurposeOfAccount = (typeof PURPOSES_OF_ACCOUNT)[number];
export const ANNUAL_INCOME_RANGES = ['RANGE_0_25K', 'RANGE_25K_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'RANGE_OVER_1M'] as const;
export type AnnualIncomeRange = (typeof ANNUAL_INCOME_RANGES)[number];
/** The enhanced due diligence fields; a verification reports a missing one as `edd.<field>`. */
export const EDD_FIELDS = ['sourceOfWealthCategories', 'purposeOfAccount', 'annualIncomeRange'] as const;
export type EddField = (typeof EDD_FIELDS)[number];

export const BENEFICIAL_OWNER_ROLES = ['BENEFICIAL_OWNER', 'DIRECTOR', 'OFFICER'] as const;
export type BeneficialOwnerRole = (typeof BENEFICIAL_OWNER_ROLES)[number];

export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'SHAREHOLDER_REGISTER',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];
/** Largest document accepted, in bytes. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
/** A document travels to the service in chunks of at most this many bytes (NATS messages stay small). */
export const DOCUMENT_CHUNK_BYTES = 256 * 1024;
export const DOCUMENT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** The spec's document rejection reasons (each also a 400 error code). */
export const DOCUMENT_REJECTION_REASONS = ['LOW_QUALITY', 'DATA_MISMATCH', 'EXPIRED', 'SUSPECTED_FRAUD', 'UNSUITABLE_DOCUMENT', 'INCOMPLETE'] as const;
export type DocumentRejectionReason = (typeof DOCUMENT_REJECTION_REASONS)[number];

export const BULK_IMPORT_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type BulkImportStatus = (typeof BULK_IMPORT_STATUSES)[number];
/** Bulk CSV uploads must be smaller than this (spec: under 100 MB). */
export const BULK_CSV_MAX_BYTES = 100 * 1024 * 1024;
/** Columns a bulk CSV may have (header row, any order); nested fields by dot path; `sourceOfWealthCategories` separated by `;`. */
export const BULK_CSV_COLUMNS = [
  'customerType',
  'platformCustomerId',
  'fullName',
  'birthDate',
  'nationality',
  'email',
  'phoneNumber',
  'address.line1',
  'address.line2',
  'address.city',
  'address.state',
  'address.postalCode',
  'address.country',
  'businessInfo.legalName',
  'businessInfo.registrationNumber',
  'businessInfo.taxId',
  'umaAddress',
  'sourceOfWealthCategories',
  'purposeOfAccount',
  'annualIncomeRange',
] as const;
/** Rows per message from the gateway's CSV stream to the customers service. */
export const BULK_ROWS_PER_BATCH = 500;

export const KYC_LINK_STATES = ['ACTIVE', 'USED', 'EXPIRED'] as const;
export type KycLinkState = (typeof KYC_LINK_STATES)[number];
