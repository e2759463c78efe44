import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A platform's webhook endpoint and signing key pair (the private half sealed, see KeyVault). */
@Entity({ name: 'webhook_platform' })
export class WebhookPlatformEntity {
  @PrimaryColumn({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'endpoint_url', type: 'text', nullable: true })
  endpointUrl!: string | null;

  @Column({ name: 'public_key_pem', type: 'text' })
  publicKeyPem!: string;

  @Column({ name: 'sealed_private_key', type: 'text' })
  sealedPrivateKey!: string;

  @Column({ name: 'key_encryption_key_id', type: 'text' })
  keyEncryptionKeyId!: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
