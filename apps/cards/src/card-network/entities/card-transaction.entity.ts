import { Column, Entity, PrimaryColumn } from 'typeorm';
import { amountColumn } from '@paykit/persistence';
import {
  CardDeclineReason,
  CardExpiryReason,
  CardMerchant,
  CardTransactionDirection,
  CardTransactionException,
  CardTransactionStatus,
  CardTransactionType,
  Currency,
} from '@paykit/contracts';

/** Amounts are bigint minor units (see `amountColumn`: never through a float). */
@Entity({ name: 'card_transaction' })
export class CardTransactionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'card_id', type: 'text' })
  cardId!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  /** The cardholder's platform-side id, copied from the card. */
  @Column({ name: 'platform_customer_id', type: 'text', nullable: true })
  platformCustomerId!: string | null;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ name: 'issuer_transaction_token', type: 'text' })
  issuerTransactionToken!: string;

  @Column({ type: 'text' })
  type!: CardTransactionType;

  @Column({ type: 'text' })
  direction!: CardTransactionDirection;

  @Column({ type: 'text' })
  status!: CardTransactionStatus;

  @Column({ type: 'jsonb' })
  merchant!: CardMerchant;

  @Column({ type: 'jsonb' })
  currency!: Currency;

  @Column({ name: 'authorized_amount', type: 'bigint', transformer: amountColumn })
  authorizedAmount!: bigint;

  @Column({ name: 'settled_amount', type: 'bigint', transformer: amountColumn })
  settledAmount!: bigint;

  @Column({ name: 'refunded_amount', type: 'bigint', transformer: amountColumn })
  refundedAmount!: bigint;

  /** Returns reserved so far; numbers the ledger caller key of each return. */
  @Column({ name: 'return_count', type: 'integer' })
  returnCount!: number;

  /** Re-sizings and return reversals so far; numbers the ledger caller key of each. */
  @Column({ name: 'adjustment_count', type: 'integer' })
  adjustmentCount!: number;

  @Column({ name: 'hold_id', type: 'text', nullable: true })
  holdId!: string | null;

  @Column({ name: 'decline_reason', type: 'text', nullable: true })
  declineReason!: CardDeclineReason | null;

  @Column({ name: 'expiry_reason', type: 'text', nullable: true })
  expiryReason!: CardExpiryReason | null;

  @Column({ type: 'jsonb', nullable: true })
  exception!: CardTransactionException | null;

  @Column({ name: 'force_posted', type: 'boolean' })
  forcePosted!: boolean;

  /**
   * Set by the one step that puts a credit's money on the funding account. The ledger has no
   * keyed credit, so this claim makes a credit happen at most once across redeliveries.
   */
  @Column({ name: 'credit_claimed_at', type: 'timestamptz', nullable: true })
  creditClaimedAt!: Date | null;

  @Column({ name: 'authorized_at', type: 'timestamptz' })
  authorizedAt!: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
