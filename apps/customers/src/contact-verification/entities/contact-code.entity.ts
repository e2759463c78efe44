import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ContactChannel } from '@paykit/contracts';

/** The outstanding one-time code of a customer's contact channel (hashed, never stored in clear). */
@Entity({ name: 'contact_code' })
export class ContactCodeEntity {
  @PrimaryColumn({ name: 'customer_id', type: 'text' })
  customerId!: string;

  @PrimaryColumn({ type: 'text' })
  channel!: ContactChannel;

  /** The email or phone number the code went to. */
  @Column({ type: 'text' })
  destination!: string;

  @Column({ name: 'code_hash', type: 'text' })
  codeHash!: string;

  @Column({ name: 'sent_at', type: 'timestamptz' })
  sentAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'failed_attempts', type: 'integer', default: 0 })
  failedAttempts!: number;
}
