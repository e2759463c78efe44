import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AccountInfo, AccountType, BeneficiaryVerificationStatus, ExternalAccountOwnerType, ExternalAccountStatus } from '@paykit/contracts';

@Entity({ name: 'external_account' })
export class ExternalAccountEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'owner_type', type: 'text' })
  ownerType!: ExternalAccountOwnerType;

  /** A customer of the customers service (plain id, no foreign key across services). */
  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId!: string | null;

  @Column({ type: 'text' })
  status!: ExternalAccountStatus;

  @Column({ type: 'text' })
  currency!: string;

  @Column({ name: 'platform_account_id', type: 'text' })
  platformAccountId!: string;

  @Column({ name: 'account_type', type: 'text' })
  accountType!: AccountType;

  @Column({ name: 'account_info', type: 'jsonb' })
  accountInfo!: AccountInfo;

  @Column({ name: 'beneficiary_verification_status', type: 'text', nullable: true })
  beneficiaryVerificationStatus!: BeneficiaryVerificationStatus | null;

  /** SHA-256 of the destination's identifying fields: duplicate detection without the numbers in an index. */
  @Column({ type: 'text' })
  fingerprint!: string;

  /** Bumped whenever review re-runs, so a late verification job for older data is ignored. */
  @Column({ name: 'review_version', type: 'integer' })
  reviewVersion!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt!: Date | null;
}
