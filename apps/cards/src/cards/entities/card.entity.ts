import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CardBrand, CardForm, CardState, CardStateReason } from '@paykit/contracts';

@Entity({ name: 'card' })
export class CardEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'cardholder_id', type: 'text' })
  cardholderId!: string;

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
