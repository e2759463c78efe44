import { Column, Entity, PrimaryColumn } from 'typeorm';
import { amountColumn } from '@paykit/persistence';
import { CardBrand, CardForm, CardState, CardStateReason } from '@paykit/contracts';

@Entity({ name: 'card' })
export class CardEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'cardholder_id', type: 'text' })
  cardholderId!: string;

  /** The cardholder's platform-side id when the card was issued (carried onto its transactions). */
  @Column({ name: 'platform_customer_id', type: 'text', nullable: true })
  platformCustomerId!: string | null;

  @Column({ name: 'platform_card_id', type: 'text', nullable: true })
  platformCardId!: string | null;

  @Column({ type: 'text' })
  form!: CardForm;

  @Column({ type: 'text' })
  state!: CardState;

  @Column({ name: 'state_reason', type: 'text', nullable: true })
  stateReason!: CardStateReason | null;

  /** Ordered; the first is the one authorizations hold on. Empty once CLOSED. */
  @Column({ name: 'funding_sources', type: 'text', array: true })
  fundingSources!: string[];

  /** Largest amount one authorization may take (card currency's smallest unit); null: no limit. */
  @Column({ name: 'max_spend_per_transaction', type: 'bigint', nullable: true, transformer: amountColumn })
  maxSpendPerTransaction!: bigint | null;

  /** The issuer's salted scrypt hash of the static 3-D Secure password; the password itself is never kept. */
  @Column({ name: 'three_ds_password_hash', type: 'text', nullable: true })
  threeDsPasswordHash!: string | null;

  /** The issuer's secret the card number and security code derive from (shown only on the reveal page). */
  @Column({ name: 'details_seed', type: 'text', nullable: true })
  detailsSeed!: string | null;

  @Column({ name: 'currency_code', type: 'text' })
  currencyCode!: string;

  @Column({ type: 'text' })
  last4!: string;

  @Column({ type: 'text' })
  brand!: CardBrand;

  @Column({ name: 'exp_month', type: 'integer' })
  expMonth!: number;

  @Column({ name: 'exp_year', type: 'integer' })
  expYear!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;
}
