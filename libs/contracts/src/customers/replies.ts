import {
  AnnualIncomeRange,
  BeneficialOwnerRole,
  BulkImportStatus,
  ContactChannel,
  ContactVerificationStatus,
  CustomerType,
  DocumentContentType,
  DocumentRejectionReason,
  DocumentStatus,
  DocumentType,
  EddField,
  KycLinkState,
  KycStatus,
  PurposeOfAccount,
  SourceOfWealthCategory,
  VerificationStatus,
} from './enums';

export interface Address {
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface BusinessInfo {
  legalName: string;
  registrationNumber?: string;
  taxId?: string;
}

export type ContactVerification = Partial<Record<ContactChannel, ContactVerificationStatus>>;

export interface Customer {
  id: string;
  platformCustomerId: string;
  customerType: CustomerType;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  businessInfo?: BusinessInfo;
  umaAddress?: string;
  sourceOfWealthCategories?: SourceOfWealthCategory[];
  purposeOfAccount?: PurposeOfAccount;
  annualIncomeRange?: AnnualIncomeRange;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  /** Present only when the customer's provider requires contact verification; only required channels. */
  contactVerification?: ContactVerification;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerRequirements {
  customerId: string;
  /** The platform's id of the customer (absent from a customers service of an earlier release). */
  platformCustomerId?: string;
  currencyCode: string;
  customerType: CustomerType;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
}

export interface SupportedCurrency {
  currencyCode: string;
  providerRequiredCustomerFields: string[];
}

/** The customers service's part of `GET /config`. */
export interface CustomersPlatformConfig {
  umaDomain: string;
  regulated: boolean;
  supportedCurrencies: SupportedCurrency[];
  /** New customers with an email get an embedded wallet (where USDC is supported); default true. */
  embeddedWalletsEnabled: boolean;
}

export interface VerificationError {
  code: 'MISSING_FIELD';
  field: string;
  message: string;
}

export interface Verification {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  errors?: VerificationError[];
  createdAt: string;
}

export interface ContactCodeSent {
  customerId: string;
  channel: ContactChannel;
  status: ContactVerificationStatus;
  expiresAt: string;
  /** Re-sending before this instant answers 429 with Retry-After. */
  resendAvailableAt: string;
}

/** The service's half of a KYC link; the gateway adds `kycUrl` (it knows its public address). */
export interface KycLinkIssued {
  customerId: string;
  token: string;
  expiresAt: string;
}

/** What the hosted page shows for a link. */
export interface KycLinkView {
  state: KycLinkState;
  customerType: CustomerType;
  displayName: string;
  redirectUri: string;
  expiresAt: string;
  /** EDD answers the page must collect before the verification can pass. */
  missingEddFields: EddField[];
}

export interface KycLinkCompletion {
  redirectUri: string;
  verification: Verification;
}

export interface PersonalInfo {
  firstName: string;
  lastName: string;
  birthDate: string;
  nationality: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  title?: string;
}

export interface BeneficialOwner {
  id: string;
  customerId: string;
  roles: BeneficialOwnerRole[];
  ownershipPercentage?: number;
  personalInfo: PersonalInfo;
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerDocument {
  id: string;
  customerId: string;
  beneficialOwnerId?: string;
  documentType: DocumentType;
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  sha256: string;
  status: DocumentStatus;
  rejectionReason?: DocumentRejectionReason;
  createdAt: string;
  updatedAt: string;
}

export interface DocumentUploadStarted {
  documentId: string;
  maxBytes: number;
  chunkBytes: number;
}

export interface BulkImportRowError {
  row: number;
  field: string;
  message: string;
}

export interface BulkImportProgress {
  processedRows: number;
  successfulRows: number;
  failedRows: number;
}

export interface BulkImportJob {
  id: string;
  status: BulkImportStatus;
  fileName?: string;
  progress: BulkImportProgress;
  /** Per-row problems, first 1000 (`errorCount` has them all). */
  errors: BulkImportRowError[];
  errorCount: number;
  failure?: string;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
}

export interface BulkRowsProcessed extends BulkImportProgress {
  /** The service refused the batch's columns and failed the job: stop sending. */
  jobFailed?: string;
}
