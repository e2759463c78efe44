import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DocumentContentType, DocumentRejectionReason, DocumentStatus, DocumentType } from '@paykit/contracts';

/** A KYC/KYB document's metadata; its bytes live in `document_chunk`. UPLOADING ones are not shown. */
@Entity({ name: 'document' })
export class DocumentEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  @Column({ name: 'beneficial_owner_id', type: 'text', nullable: true })
  beneficialOwnerId!: string | null;

  @Column({ name: 'document_type', type: 'text' })
  documentType!: DocumentType;

  @Column({ name: 'file_name', type: 'text' })
  fileName!: string;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: DocumentContentType;

  @Column({ name: 'size_bytes', type: 'bigint' })
  sizeBytes!: string;

  @Column({ type: 'text', nullable: true })
  sha256!: string | null;

  @Column({ type: 'text' })
  status!: DocumentStatus | 'UPLOADING';

  @Column({ name: 'rejection_reason', type: 'text', nullable: true })
  rejectionReason!: DocumentRejectionReason | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
