import { Column, Entity, PrimaryColumn } from 'typeorm';
import {
  AccountInfo,
  AccountType,
  BeneficiaryVerificationStatus,
  ExternalAccountOwnerType,
  ExternalAccountStatus,
  ExternalAccountWarning,
  OwnershipType,
  OwnershipVerificationMethod,
} from '@paykit/contracts';

/** The in-flight ownership challenge of a wallet account (a new challenge replaces it). */
export interface StoredOwnershipChallenge {
  id: string;
  method: OwnershipVerificationMethod;
  messageToSign?: string;
  verificationLink?: string;
  expiresAt: string;
}

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

  @Column({ name: 'platform_account_id', type: 'text', nullable: true })
  platformAccountId!: string | null;

  @Column({ name: 'ownership_type', type: 'text', nullable: true })
  ownershipType!: OwnershipType | null;

  @Column({ name: 'default_uma_deposit_account', type: 'boolean', nullable: true })
  defaultUmaDepositAccount!: boolean | null;

  /** Checks stricter than the reference API that the data fails (reported, not refused). */
  @Column({ type: 'jsonb', nullable: true })
  warnings!: ExternalAccountWarning[] | null;

  @Column({ name: 'ownership_challenge', type: 'jsonb', nullable: true })
  ownershipChallenge!: StoredOwnershipChallenge | null;

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
