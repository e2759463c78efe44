import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One funding source bound to a card at a position; replacing or closing detaches it (kept as history). */
@Entity({ name: 'card_funding_binding' })
export class CardFundingBindingEntity {
  @PrimaryColumn({ type: 'bigint', generated: 'identity', insert: false, update: false })
  id!: string;

  @Column({ name: 'card_id', type: 'text' })
  cardId!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ type: 'integer' })
  position!: number;

  @Column({ name: 'bound_at', type: 'timestamptz' })
  boundAt!: Date;

  @Column({ name: 'detached_at', type: 'timestamptz', nullable: true })
  detachedAt!: Date | null;
}
