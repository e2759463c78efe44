import { Column, Entity, PrimaryColumn } from 'typeorm';
import { amountColumn } from '@paykit/persistence';
import { TransactionStatus, TransactionType } from '@paykit/contracts';

/** A transfer between an internal and an external account, with its status lifecycle. */
@Entity({ name: 'payment_transaction' })
export class PaymentTransactionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ type: 'text' })
  type!: TransactionType;

  @Column({ type: 'text' })
  status!: TransactionStatus;

  @Column({ name: 'customer_id', type: 'text', nullable: true })
  customerId!: string | null;

  @Column({ name: 'internal_account_id', type: 'text' })
  internalAccountId!: string;

  @Column({ name: 'external_account_id', type: 'text' })
  externalAccountId!: string;

  @Column({ name: 'currency_code', type: 'text' })
  currencyCode!: string;

  @Column({ type: 'bigint', transformer: amountColumn })
  amount!: bigint;

  /** OUTGOING: the hold on the internal account until the transfer settles. */
  @Column({ name: 'hold_id', type: 'text', nullable: true })
  holdId!: string | null;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  /** Transfers to a wallet: the network the address lives on, and the on-chain transfer's hash. */
  @Column({ name: 'crypto_network', type: 'text', nullable: true })
  cryptoNetwork!: string | null;

  @Column({ name: 'onchain_transaction_hash', type: 'text', nullable: true })
  onChainTransactionHash!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt!: Date | null;
}
