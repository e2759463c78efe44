import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A session: a P-256 public key allowed to sign for an account until expiry or revocation. */
@Entity({ name: 'auth_session' })
export class AuthSessionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ name: 'credential_id', type: 'text' })
  credentialId!: string;

  /** Compressed SEC1 hex, lowercase: the form stamps carry, so lookups need no decoding. */
  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
