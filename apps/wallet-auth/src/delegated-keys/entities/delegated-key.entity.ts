import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DelegatedKeyStatus } from '@paykit/contracts';

/**
 * A signing key the service generated and holds for one card funding source (a card and the
 * embedded wallet account funding it). The private key is kept sealed and is never returned.
 */
@Entity({ name: 'delegated_key' })
export class DelegatedKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ name: 'card_id', type: 'text' })
  cardId!: string;

  @Column({ name: 'funding_source_id', type: 'text' })
  fundingSourceId!: string;

  /** Compressed SEC1 hex, lowercase. */
  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  @Column({ name: 'private_key_sealed', type: 'text' })
  privateKeySealed!: string;

  @Column({ type: 'text' })
  nickname!: string;

  @Column({ type: 'text' })
  status!: DelegatedKeyStatus;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
