import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuthMethodType, PasskeyTransport } from '@paykit/contracts';

export type CredentialStatus = 'ACTIVE' | 'REVOKED';

@Entity({ name: 'auth_credential' })
export class AuthCredentialEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'account_id', type: 'text' })
  accountId!: string;

  @Column({ type: 'text' })
  type!: AuthMethodType;

  @Column({ type: 'text' })
  nickname!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true })
  phoneNumber!: string | null;

  /** EMAIL_OTP bound to the customer's email: changing that email is a signed action and syncs here. */
  @Column({ name: 'tied_customer_id', type: 'text', nullable: true })
  tiedCustomerId!: string | null;

  @Column({ name: 'passkey_credential_id', type: 'text', nullable: true })
  passkeyCredentialId!: string | null;

  @Column({ name: 'passkey_public_key', type: 'bytea', nullable: true })
  passkeyPublicKey!: Buffer | null;

  /** bigint as string (pg); the WebAuthn counter is a uint32. */
  @Column({ name: 'passkey_counter', type: 'bigint', nullable: true })
  passkeyCounter!: string | null;

  @Column({ name: 'passkey_transports', type: 'jsonb', nullable: true })
  passkeyTransports!: PasskeyTransport[] | null;

  @Column({ name: 'oidc_issuer', type: 'text', nullable: true })
  oidcIssuer!: string | null;

  @Column({ name: 'oidc_audience', type: 'text', nullable: true })
  oidcAudience!: string | null;

  @Column({ name: 'oidc_subject', type: 'text', nullable: true })
  oidcSubject!: string | null;

  @Column({ type: 'text' })
  status!: CredentialStatus;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
