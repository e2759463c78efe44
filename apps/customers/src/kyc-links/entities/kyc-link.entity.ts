import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Environment } from '@paykit/contracts';

/** A single-use hosted verification link. Only the token's SHA-256 is stored. */
@Entity({ name: 'kyc_link' })
export class KycLinkEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  /** The environment of the token that issued the link: the hosted page verifies in it. */
  @Column({ type: 'text' })
  environment!: Environment;

  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'redirect_uri', type: 'text', nullable: true })
  redirectUri!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
