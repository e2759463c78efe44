export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
/** The reference's KYC/KYB statuses: the verification flow moves PENDING to APPROVED or REJECTED; regulated platforms may set any. */
export const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
/** PENDING_MANUAL_REVIEW and APPROVED are answered under the HOSTED sandbox profile only (the hosted sandbox's guides). */
export const VERIFICATION_STATUSES = ['IN_PROGRESS', 'REJECTED', 'RESOLVE_ERRORS', 'PENDING_MANUAL_REVIEW', 'APPROVED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/**
 * A platform's sandbox profile (a Paykit extension of `/config`): SPEC follows SPEC.md's suffix
 * tables (customers start PENDING; the default); HOSTED follows the hosted sandbox's current guides
 * (individuals decided at creation by their name's suffix, businesses UNVERIFIED until verified).
 */
export const SANDBOX_PROFILES = ['SPEC', 'HOSTED'] as const;
export type SandboxProfile = (typeof SANDBOX_PROFILES)[number];
export const CONTACT_CHANNELS = ['email', 'phone'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];
export const CONTACT_VERIFICATION_STATUSES = ['PENDING', 'VERIFIED'] as const;
export type ContactVerificationStatus = (typeof CONTACT_VERIFICATION_STATUSES)[number];

export const SOURCE_OF_WEALTH_CATEGORIES = ['SALARY', 'BUSINESS_INCOME', 'INVESTMENTS', 'INHERITANCE', 'PROPERTY_SALE', 'GIFT', 'RETIREMENT', 'SAVINGS', 'OTHER'] as const;
export type SourceOfWealthCategory = (typeof SOURCE_OF_WEALTH_CATEGORIES)[number];
/** Where an individual's funds come from. */
export const INDIVIDUAL_SOURCE_OF_FUNDS_CATEGORIES = [
  'SALARY',
  'SELF_EMPLOYMENT_INCOME',
  'INVESTMENT_INCOME',
  'PENSION',
  'RENTAL_INCOME',
  'GIFT',
  'INHERITANCE',
  'LOAN',
  'SAVINGS',
  'SALE_OF_ASSETS',
  'OTHER',
] as const;
export type IndividualSourceOfFundsCategory = (typeof INDIVIDUAL_SOURCE_OF_FUNDS_CATEGORIES)[number];
/** Where a business's funds come from. */
export const BUSINESS_SOURCE_OF_FUNDS_CATEGORIES = ['OPERATING_REVENUE', 'INVESTMENT_INCOME', 'LOANS', 'VENTURE_CAPITAL', 'PERSONAL_SAVINGS', 'DONATIONS', 'OTHER'] as const;
export type BusinessSourceOfFundsCategory = (typeof BUSINESS_SOURCE_OF_FUNDS_CATEGORIES)[number];
export const PURPOSES_OF_ACCOUNT = [
  'CONTRACTOR_PAYOUTS',
  'CREATOR_PAYOUTS',
  'EMPLOYEE_PAYOUTS',
  'MARKETPLACE_SELLER_PAYOUTS',
  'SUPPLIER_PAYMENTS',
  'CROSS_BORDER_B2B',
  'AR_AUTOMATION',
  'AP_AUTOMATION',
  'EMBEDDED_PAYMENTS',
  'PLATFORM_FEE_COLLECTION',
  'P2P_TRANSFERS',
  'CHARITABLE_DONATIONS',
  'OTHER',
] as const;
export type PurposeOfAccount = (typeof PURPOSES_OF_ACCOUNT)[number];
export const ANNUAL_INCOME_RANGES = ['UNDER_50K', 'RANGE_50K_100K', 'RANGE_100K_250K', 'RANGE_250K_1M', 'OVER_1M'] as const;
export type AnnualIncomeRange = (typeof ANNUAL_INCOME_RANGES)[number];
export const NET_WORTH_RANGES = ['UNDER_100K', 'RANGE_100K_500K', 'RANGE_500K_1M', 'RANGE_1M_5M', 'RANGE_5M_25M', 'OVER_25M'] as const;
export type NetWorthRange = (typeof NET_WORTH_RANGES)[number];
export const PEP_STATUSES = ['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE'] as const;
export type PepStatus = (typeof PEP_STATUSES)[number];
export const EXPECTED_MONTHLY_TRANSACTION_COUNTS = ['COUNT_UNDER_10', 'COUNT_10_TO_100', 'COUNT_100_TO_500', 'COUNT_500_TO_1000', 'COUNT_OVER_1000'] as const;
export type ExpectedMonthlyTransactionCount = (typeof EXPECTED_MONTHLY_TRANSACTION_COUNTS)[number];
export const EXPECTED_MONTHLY_TRANSACTION_VOLUMES = ['VOLUME_UNDER_10K', 'VOLUME_10K_TO_100K', 'VOLUME_100K_TO_1M', 'VOLUME_1M_TO_10M', 'VOLUME_OVER_10M'] as const;
export type ExpectedMonthlyTransactionVolume = (typeof EXPECTED_MONTHLY_TRANSACTION_VOLUMES)[number];
/** Kinds of government identifier a customer or beneficial owner may give. */
export const ID_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] as const;
export type IdType = (typeof ID_TYPES)[number];
export const END_USER_TERMS_ACCEPTANCE_METHODS = ['CHECKBOX', 'CLICK_TO_ACCEPT'] as const;
export type EndUserTermsAcceptanceMethod = (typeof END_USER_TERMS_ACCEPTANCE_METHODS)[number];
export const ENTITY_TYPES = [
  'SOLE_PROPRIETORSHIP',
  'PARTNERSHIP',
  'LLC',
  'CORPORATION',
  'S_CORPORATION',
  'NON_PROFIT',
  'PUBLICLY_LISTED_COMPANY',
  'TRUST',
  'PRIVATE_FOUNDATION',
  'CHARITY',
  'OTHER',
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
/** Industry sectors of a business (the top level of the North American industry classification). */
export const BUSINESS_TYPES = [
  'AGRICULTURE_FORESTRY_FISHING_AND_HUNTING',
  'MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION',
  'UTILITIES',
  'CONSTRUCTION',
  'MANUFACTURING',
  'WHOLESALE_TRADE',
  'RETAIL_TRADE',
  'TRANSPORTATION_AND_WAREHOUSING',
  'INFORMATION',
  'FINANCE_AND_INSURANCE',
  'REAL_ESTATE_AND_RENTAL_AND_LEASING',
  'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES',
  'MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES',
  'ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES',
  'EDUCATIONAL_SERVICES',
  'HEALTH_CARE_AND_SOCIAL_ASSISTANCE',
  'ARTS_ENTERTAINMENT_AND_RECREATION',
  'ACCOMMODATION_AND_FOOD_SERVICES',
  'OTHER_SERVICES',
  'PUBLIC_ADMINISTRATION',
] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];
/** The enhanced due diligence fields; a verification reports a missing one as `edd.<field>`. */
export const EDD_FIELDS = ['sourceOfWealthCategories', 'purposeOfAccount', 'annualIncomeRange'] as const;
export type EddField = (typeof EDD_FIELDS)[number];

export const BENEFICIAL_OWNER_ROLES = ['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER'] as const;
export type BeneficialOwnerRole = (typeof BENEFICIAL_OWNER_ROLES)[number];

export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT',
  'INCUMBENCY_CERTIFICATE',
  'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER',
  'POWER_OF_ATTORNEY',
  'UTILITY_BILL',
  'ELECTRICITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT',
  'SELFIE',
  'OTHER',
] as const;
export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];
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
/**
 * The reference document's own column names for the bulk CSV (its description of
 * `POST /customers/bulk/csv`), accepted beside the dot paths above: each is the create field it
 * fills, or null where a customer has no such field (`platformAccountId`, `description`: read and
 * ignored).
 */
export const BULK_CSV_COLUMN_ALIASES: Readonly<Record<string, (typeof BULK_CSV_COLUMNS)[number] | null>> = {
  addressLine1: 'address.line1',
  addressLine2: 'address.line2',
  city: 'address.city',
  state: 'address.state',
  postalCode: 'address.postalCode',
  country: 'address.country',
  businessLegalName: 'businessInfo.legalName',
  businessRegistrationNumber: 'businessInfo.registrationNumber',
  businessTaxId: 'businessInfo.taxId',
  platformAccountId: null,
  description: null,
};
/** Rows per message from the gateway's CSV stream to the customers service. */
export const BULK_ROWS_PER_BATCH = 500;

export const KYC_LINK_STATES = ['ACTIVE', 'USED', 'EXPIRED'] as const;
export type KycLinkState = (typeof KYC_LINK_STATES)[number];

/** The reference's names of the customer information a currency's provider requires. */
export const CUSTOMER_INFO_FIELD_NAMES = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'REGISTRATION_NUMBER',
  'USER_TYPE',
  'COUNTRY_OF_RESIDENCE',
  'ACCOUNT_IDENTIFIER',
  'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS',
  'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY',
  'IDENTIFIER',
  'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME',
  'ID_TYPE',
  'ID_NUMBER',
] as const;
export type CustomerInfoFieldName = (typeof CUSTOMER_INFO_FIELD_NAMES)[number];
/** Directions of payment a platform enables per currency (`enabledTransactionTypes`). */
export const ENABLED_TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const;
export type EnabledTransactionType = (typeof ENABLED_TRANSACTION_TYPES)[number];
export const FEE_TYPES = ['CROSS_CURRENCY_TRANSACTION'] as const;
export type FeeType = (typeof FEE_TYPES)[number];
export const VERIFICATION_ERROR_TYPES = [
  'MISSING_FIELD',
  'INVALID_FIELD',
  'MISSING_LEGAL_PRESENCE_DOCUMENT',
  'MISSING_CONTROL_STRUCTURE_DOCUMENT',
  'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
  'MISSING_IDENTITY_DOCUMENT',
  'INVALID_DOCUMENT',
  'EXPIRED_DOCUMENT',
  'POOR_QUALITY_DOCUMENT',
  'SUSPECTED_FRAUD_DOCUMENT',
  'WRONG_DOCUMENT_TYPE',
  'INCOMPLETE_DOCUMENT',
  'UNREADABLE_DOCUMENT',
  'DOCUMENT_VERIFICATION_FAILED',
  'APPLICANT_SANCTIONED',
  'APPLICANT_FRAUD',
  'APPLICANT_CRIMINAL_RECORD',
  'APPLICANT_REJECTED',
  'MISSING_BENEFICIAL_OWNER',
  'MISSING_CONTROL_PERSON',
  'MISSING_GOOD_STANDING_DOCUMENT',
] as const;
export type VerificationErrorType = (typeof VERIFICATION_ERROR_TYPES)[number];
/** Who runs the hosted verification flow: here, the service's own hosted page (no third-party provider is named). */
export const KYC_PROVIDERS = ['HOSTED'] as const;
export type KycProvider = (typeof KYC_PROVIDERS)[number];
/** Currencies this deployment's providers offer; a platform's supportedCurrencies is a choice among them. */
export const PLATFORM_CURRENCY_CODES = ['USD', 'USDC', 'EUR', 'GBP', 'MXN', 'BRL', 'PHP', 'BTC'] as const;
export type PlatformCurrencyCode = (typeof PLATFORM_CURRENCY_CODES)[number];

/** Whether a customer's internal accounts and embedded wallet exist yet (GET /customers/{id}/provisioning). */
export const PROVISIONING_STATUSES = ['PENDING', 'READY'] as const;
export type ProvisioningStatus = (typeof PROVISIONING_STATUSES)[number];
/** A part of provisioning: NOT_REQUIRED when the customer gets no embedded wallet (no email, wallets off, no USDC). */
export const PROVISIONING_PART_STATUSES = ['PENDING', 'READY', 'NOT_REQUIRED'] as const;
export type ProvisioningPartStatus = (typeof PROVISIONING_PART_STATUSES)[number];
