import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Address, AnnualIncomeRange, BusinessInfo, ContactVerification, CustomerType, KycStatus, PurposeOfAccount, SourceOfWealthCategory } from '@paykit/contracts';

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

  /** Lowercase; unique per platform. */
  @Column({ name: 'uma_address', type: 'text', nullable: true })
  umaAddress!: string | null;

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

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
