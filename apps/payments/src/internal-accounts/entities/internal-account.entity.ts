import { Column, Entity, PrimaryColumn } from 'typeorm';
import { InternalAccountStatus, InternalAccountType } from '@paykit/contracts';

/** An internal account; its money lives on the ledger account with the same id. */
@Entity({ name: 'internal_account' })
export class InternalAccountEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  /** Null for the platform's own accounts. */
  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId!: string | null;

  @Column({ type: 'text' })
  type!: InternalAccountType;

  @Column({ type: 'text' })
  status!: InternalAccountStatus;

  @Column({ name: 'currency_code', type: 'text' })
  currencyCode!: string;

  @Column({ name: 'wallet_email', type: 'text', nullable: true })
  walletEmail!: string | null;

  @Column({ name: 'private_enabled', type: 'boolean' })
  privateEnabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** An internal account read together with its running total. */
export interface InternalAccountWithBalance extends InternalAccountEntity {
  posted: bigint;
  held: bigint;
}
