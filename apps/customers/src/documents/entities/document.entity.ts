import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DocumentContentType, DocumentRejectionReason, DocumentSide, DocumentStatus, DocumentType } from '@paykit/contracts';

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

  /** The customer's id, or the beneficial owner's whose document this is. */
  @Column({ name: 'document_holder', type: 'text' })
  documentHolder!: string;

  @Column({ name: 'document_type', type: 'text' })
  documentType!: DocumentType;

  /** Issuing country, ISO 3166-1 alpha-2 (`ZZ` for uploads made before it was asked). */
  @Column({ type: 'text' })
  country!: string;

  @Column({ type: 'text', nullable: true })
  side!: DocumentSide | null;

  @Column({ name: 'document_number', type: 'text', nullable: true })
  documentNumber!: string | null;

  @Column({ name: 'issuing_authority', type: 'text', nullable: true })
  issuingAuthority!: string | null;

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

  /** On an upload in progress for `PUT /documents/{id}`: the document its bytes and metadata replace once complete. */
  @Column({ name: 'replaces_document_id', type: 'text', nullable: true })
  replacesDocumentId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
