import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Environment } from '@paykit/contracts';
import type { Permission } from '../permissions';

/**
 * A platform's API credential. The secret is 256 random bits, so a SHA-256 digest is
 * enough at rest (a slow password hash would cost milliseconds on every request).
 */
@Entity({ name: 'api_token' })
export class ApiTokenEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ type: 'text' })
  environment!: Environment;

  /** The public id (`Token:<uuid>`); `id` is the BasicAuth client id. */
  @Column({ name: 'public_id', type: 'text' })
  publicId!: string;

  @Column({ type: 'text' })
  label!: string;

  @Column({ type: 'text', array: true })
  permissions!: Permission[];

  @Column({ name: 'secret_sha256', type: 'text' })
  secretSha256!: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', insert: false })
  updatedAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
