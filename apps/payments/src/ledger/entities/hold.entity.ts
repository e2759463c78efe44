import { Column, Entity, PrimaryColumn } from 'typeorm';
import { amountColumn } from '@paykit/persistence';
import { HoldStatus } from '@paykit/contracts';

/** A pending debit on a checked ledger account; it resolves exactly once, to CAPTURED or RELEASED. */
@Entity({ name: 'hold' })
export class HoldEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ name: 'currency_code', type: 'text' })
  currencyCode!: string;

  /** The caller's key of the hold; unique per platform. */
  @Column({ name: 'caller_key', type: 'text' })
  callerKey!: string;

  @Column({ type: 'bigint', transformer: amountColumn })
  amount!: bigint;

  @Column({ type: 'text' })
  status!: HoldStatus;

  @Column({ name: 'captured_amount', type: 'bigint', transformer: amountColumn })
  capturedAmount!: bigint;

  @Column({ name: 'refunded_amount', type: 'bigint', transformer: amountColumn })
  refundedAmount!: bigint;

  /** The caller key of the capture or release that resolved the hold. */
  @Column({ name: 'resolution_key', type: 'text', nullable: true })
  resolutionKey!: string | null;

  @Column({ type: 'text', nullable: true })
  reference!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;
}
