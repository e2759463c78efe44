import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An embedded wallet internal account as payments announced it, plus its wallet key (sealed at rest). */
@Entity({ name: 'wallet_account' })
export class WalletAccountEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId!: string | null;

  @Column({ name: 'wallet_email', type: 'text', nullable: true })
  walletEmail!: string | null;

  @Column({ name: 'wallet_key_sealed', type: 'text' })
  walletKeySealed!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
