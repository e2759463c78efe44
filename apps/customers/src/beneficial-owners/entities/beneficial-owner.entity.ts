import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BeneficialOwnerRole, KycStatus, PersonalInfo } from '@paykit/contracts';

/** A beneficial owner, director or officer of a BUSINESS customer. */
@Entity({ name: 'beneficial_owner' })
export class BeneficialOwnerEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  @Column({ type: 'jsonb' })
  roles!: BeneficialOwnerRole[];

  @Column({ name: 'ownership_percentage', type: 'integer' })
  ownershipPercentage!: number;

  @Column({ name: 'personal_info', type: 'jsonb' })
  personalInfo!: PersonalInfo;

  @Column({ name: 'kyc_status', type: 'text' })
  kycStatus!: KycStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
