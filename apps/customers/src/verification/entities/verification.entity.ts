import { Column, Entity, PrimaryColumn } from 'typeorm';
import { VerificationError, VerificationStatus } from '@paykit/contracts';

/** One verification attempt of a customer (POST /verifications or the hosted KYC page). */
@Entity({ name: 'verification' })
export class VerificationEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  @Column({ name: 'verification_status', type: 'text' })
  verificationStatus!: VerificationStatus;

  @Column({ type: 'jsonb', nullable: true })
  errors!: VerificationError[] | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
