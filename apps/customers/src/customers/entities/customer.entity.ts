import { Column, Entity, PrimaryColumn } from 'typeorm';
import {
  Address,
  AnnualIncomeRange,
  BusinessInfo,
  ContactVerification,
  CustomerType,
  EndUserTermsConsent,
  ExpectedMonthlyTransactionCount,
  ExpectedMonthlyTransactionVolume,
  IdType,
  IndividualSourceOfFundsCategory,
  KycStatus,
  NetWorthRange,
  PepStatus,
  PurposeOfAccount,
  SourceOfWealthCategory,
} from '@paykit/contracts';

@Entity({ name: 'customer' })
export class CustomerEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'platform_customer_id', type: 'text' })
  platformCustomerId!: string;

  @Column({ name: 'customer_type', type: 'text' })
  customerType!: CustomerType;

  @Column({ name: 'full_name', type: 'text', nullable: true })
  fullName!: string | null;

  /** Kept as the `YYYY-MM-DD` text PostgreSQL returns for `date`, never through a Date. */
  @Column({ name: 'birth_date', type: 'date', nullable: true })
  birthDate!: string | null;

  @Column({ type: 'text', nullable: true })
  nationality!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  address!: Address | null;

  @Column({ name: 'business_info', type: 'jsonb', nullable: true })
  businessInfo!: BusinessInfo | null;

  /** Lowercase; unique per platform; generated from the platform's UMA domain when the create omits it. */
  @Column({ name: 'uma_address', type: 'text' })
  umaAddress!: string;

  @Column({ type: 'text', nullable: true })
  region!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  currencies!: string[] | null;

  @Column({ name: 'end_user_terms_consent', type: 'jsonb', nullable: true })
  endUserTermsConsent!: EndUserTermsConsent | null;

  @Column({ name: 'id_type', type: 'text', nullable: true })
  idType!: IdType | null;

  /** Write-only: kept for verification, never part of the Customer resource. */
  @Column({ type: 'text', nullable: true })
  identifier!: string | null;

  @Column({ name: 'country_of_issuance', type: 'text', nullable: true })
  countryOfIssuance!: string | null;

  @Column({ name: 'source_of_funds_categories', type: 'jsonb', nullable: true })
  sourceOfFundsCategories!: IndividualSourceOfFundsCategory[] | null;

  @Column({ name: 'source_of_funds_other_description', type: 'text', nullable: true })
  sourceOfFundsOtherDescription!: string | null;

  @Column({ name: 'source_of_wealth_other_description', type: 'text', nullable: true })
  sourceOfWealthOtherDescription!: string | null;

  @Column({ name: 'purpose_of_account_other_description', type: 'text', nullable: true })
  purposeOfAccountOtherDescription!: string | null;

  @Column({ name: 'expected_monthly_transaction_count', type: 'text', nullable: true })
  expectedMonthlyTransactionCount!: ExpectedMonthlyTransactionCount | null;

  @Column({ name: 'expected_monthly_transaction_volume', type: 'text', nullable: true })
  expectedMonthlyTransactionVolume!: ExpectedMonthlyTransactionVolume | null;

  @Column({ name: 'net_worth_range', type: 'text', nullable: true })
  netWorthRange!: NetWorthRange | null;

  @Column({ name: 'pep_status', type: 'text', nullable: true })
  pepStatus!: PepStatus | null;

  /** Set by DELETE /customers/{id}: the customer is kept (its history stays), flagged deleted. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'source_of_wealth_categories', type: 'jsonb', nullable: true })
  sourceOfWealthCategories!: SourceOfWealthCategory[] | null;

  @Column({ name: 'purpose_of_account', type: 'text', nullable: true })
  purposeOfAccount!: PurposeOfAccount | null;

  @Column({ name: 'annual_income_range', type: 'text', nullable: true })
  annualIncomeRange!: AnnualIncomeRange | null;

  /** Only the channels the customer's provider requires; null when it requires none. */
  @Column({ name: 'contact_verification', type: 'jsonb', nullable: true })
  contactVerification!: ContactVerification | null;

  @Column({ name: 'kyc_status', type: 'text', nullable: true })
  kycStatus!: KycStatus | null;

  @Column({ name: 'kyb_status', type: 'text', nullable: true })
  kybStatus!: KycStatus | null;

  /** The bulk import that created it (its job counts its ready customers); null for POST /customers. */
  @Column({ name: 'bulk_import_job_id', type: 'text', nullable: true })
  bulkImportJobId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
