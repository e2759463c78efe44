import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A minted reveal URL: only the token's SHA-256 is kept; it works once, before `expiresAt`. */
@Entity({ name: 'card_reveal' })
export class CardRevealEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'card_id', type: 'text' })
  cardId!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'redeemed_at', type: 'timestamptz', nullable: true })
  redeemedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
