import {
  AnnualIncomeRange,
  BusinessSourceOfFundsCategory,
  BusinessType,
  CustomerInfoFieldName,
  DocumentSide,
  EndUserTermsAcceptanceMethod,
  EntityType,
  ExpectedMonthlyTransactionCount,
  ExpectedMonthlyTransactionVolume,
  FeeType,
  IdType,
  IndividualSourceOfFundsCategory,
  ProvisioningPartStatus,
  ProvisioningStatus,
  NetWorthRange,
  PepStatus,
  EnabledTransactionType,
  VerificationErrorType,
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
  SandboxProfile,
  SourceOfWealthCategory,
  VerificationStatus,
} from './enums';

export interface Address {
  line1: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface BusinessInfo {
  legalName: string;
  doingBusinessAs?: string;
  country?: string;
  registrationNumber?: string;
  incorporatedOn?: string;
  entityType?: EntityType;
  taxId?: string;
  countriesOfOperation?: string[];
  businessType?: BusinessType;
  purposeOfAccount?: PurposeOfAccount;
  sourceOfFunds?: string;
  expectedMonthlyTransactionCount?: ExpectedMonthlyTransactionCount;
  expectedMonthlyTransactionVolume?: ExpectedMonthlyTransactionVolume;
  expectedRecipientJurisdictions?: string[];
  naicsCode?: string;
  sourceOfFundsCategories?: BusinessSourceOfFundsCategory[];
  sourceOfFundsOtherDescription?: string;
  purposeOfAccountOtherDescription?: string;
  expectedCounterpartyCountries?: string[];
  primaryContactFirstName?: string;
  primaryContactLastName?: string;
}

export interface EndUserTermsConsent {
  acceptedAt: string;
  ipAddress: string;
  termsVersion: string;
  acceptanceMethod: EndUserTermsAcceptanceMethod;
}

/** The end user terms currently in force. */
export interface EndUserTerms {
  version: string;
  /** Path of the terms page under the gateway's public address; the gateway answers the absolute URL. */
  url: string;
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
  /** Always present: generated from the platform's UMA domain when the create omitted it. */
  umaAddress: string;
  region?: string;
  currencies?: string[];
  endUserTermsConsent?: EndUserTermsConsent;
  idType?: IdType;
  countryOfIssuance?: string;
  sourceOfFundsCategories?: IndividualSourceOfFundsCategory[];
  sourceOfFundsOtherDescription?: string;
  sourceOfWealthCategories?: SourceOfWealthCategory[];
  sourceOfWealthOtherDescription?: string;
  purposeOfAccount?: PurposeOfAccount;
  purposeOfAccountOtherDescription?: string;
  expectedMonthlyTransactionCount?: ExpectedMonthlyTransactionCount;
  expectedMonthlyTransactionVolume?: ExpectedMonthlyTransactionVolume;
  annualIncomeRange?: AnnualIncomeRange;
  netWorthRange?: NetWorthRange;
  pepStatus?: PepStatus;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  /** True once the customer has been deleted (DELETE /customers/{id}). */
  isDeleted: boolean;
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
  /**
   * The platform's active fee configs (read with the customer, so a quote prices with them
   * without another request); absent from a customers service of an earlier release.
   */
  feeConfigs?: FeeConfig[];
  /** Whether the customer is subject to Strong Customer Authentication (`isScaRegulated`: an address in the EEA); absent from an earlier release. */
  scaRegulated?: boolean;
}

export interface CounterpartyField {
  name: CustomerInfoFieldName;
  mandatory: boolean;
}

export interface SupportedCurrency {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  requiredCounterpartyFields: CounterpartyField[];
  /** The customer information the currency's provider needs before a customer may transact in it (read-only). */
  providerRequiredCustomerFields: CustomerInfoFieldName[];
  enabledTransactionTypes: EnabledTransactionType[];
}

export interface EmbeddedWalletConfig {
  appName?: string;
  otpLength?: number;
  alphanumeric?: boolean;
  expirationSeconds?: number;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  logoUrl?: string;
}

export interface CardTokenization2faConfig {
  displayName?: string;
  logoUrl?: string;
  email?: { fromAddress?: string; fromName?: string; replyToAddress?: string; subject?: string; bodyText?: string };
  sms?: { templateSid?: string; bodyText?: string };
}

export interface FeeConfig {
  feeType: FeeType;
  sourceCurrency: string;
  variableFeeBps: number;
  fixedFee: { amount: number; currency: string };
}

/** The customers service's part of `GET /config`. */
export interface CustomersPlatformConfig {
  umaDomain: string;
  regulated: boolean;
  isRegulatedFinancialInstitution: boolean;
  supportedCurrencies: SupportedCurrency[];
  /** New customers with an email get an embedded wallet (where USDC is supported); default true. */
  embeddedWalletsEnabled: boolean;
  /** Paykit extension: SPEC (SPEC.md's sandbox tables, the default) or HOSTED (the hosted sandbox's current guides). */
  sandboxProfile: SandboxProfile;
  embeddedWalletConfig?: EmbeddedWalletConfig;
  cardTokenization2faConfig?: CardTokenization2faConfig;
  feeConfigs: FeeConfig[];
  createdAt: string;
  updatedAt: string;
}

export interface VerificationError {
  /** The resource the problem is about (the customer, a beneficial owner or a document). */
  resourceId: string;
  type: VerificationErrorType;
  /** Dot path of the field concerned, for field problems. */
  field?: string;
  acceptedDocumentTypes?: DocumentType[];
  reason: string;
}

export interface Verification {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
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
  redirectUri?: string;
  expiresAt: string;
  /** EDD answers the page must collect before the verification can pass. */
  missingEddFields: EddField[];
}

export interface KycLinkCompletion {
  /** Absent when the link was created without one: the page then shows its own completion message. */
  redirectUri?: string;
  verification: Verification;
}

export interface PersonalInfo {
  firstName: string;
  middleName?: string;
  lastName: string;
  birthDate: string;
  nationality: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  title?: string;
  idType?: IdType;
  /** Masked: only the last four characters are shown (the full identifier is never returned). */
  identifier?: string;
  countryOfIssuance?: string;
}

export interface BeneficialOwner {
  id: string;
  customerId: string;
  roles: BeneficialOwnerRole[];
  ownershipPercentage: number;
  personalInfo: PersonalInfo;
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerDocument {
  id: string;
  /** Whom the document is about: the customer's id, or a beneficial owner's. */
  documentHolder: string;
  customerId: string;
  beneficialOwnerId?: string;
  documentType: DocumentType;
  side?: DocumentSide;
  /** Country that issued the document (ISO 3166-1 alpha-2). */
  country: string;
  documentNumber?: string;
  issuingAuthority?: string;
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

/** A row problem as the reference reports it: the error envelope of the row plus the row it came from. */
export interface BulkImportErrorEntry {
  /** Names the row of the file: `row-<number>` (the header is row 1). */
  correlationId: string;
  status: number;
  code: string;
  message: string;
  details: { row: number; field: string };
}

export interface BulkImportJob {
  id: string;
  /** Same as `id`: the name the upload's answer gives it. */
  jobId: string;
  status: BulkImportStatus;
  fileName?: string;
  /** `ready`: the job's customers fully provisioned so far (their accounts and wallet exist); it reaches `successful` after the job completes. */
  progress: { total: number; processed: number; successful: number; failed: number; ready: number };
  /** Per-row problems, first 1000 (`errorCount` has them all). */
  errors: BulkImportErrorEntry[];
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

/** GET /customers/{id}/provisioning: whether what payments and wallet-auth set up for a new customer exists yet. */
export interface CustomerProvisioning {
  customerId: string;
  /** READY once `internalAccounts` is READY and `embeddedWallet` is READY or NOT_REQUIRED. */
  status: ProvisioningStatus;
  /** Its internal account per supported currency (and the embedded wallet account, when it gets one). */
  internalAccounts: Exclude<ProvisioningPartStatus, 'NOT_REQUIRED'>;
  /** The embedded wallet's key and EMAIL_OTP credential; PENDING until the accounts say whether there is one. */
  embeddedWallet: ProvisioningPartStatus;
  /** When it became READY. */
  readyAt?: string;
}
