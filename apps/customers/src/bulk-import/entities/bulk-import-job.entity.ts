import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BulkImportStatus } from '@paykit/contracts';

/** A CSV import; its per-row errors are in `bulk_import_error`. */
@Entity({ name: 'bulk_import_job' })
export class BulkImportJobEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'file_name', type: 'text', nullable: true })
  fileName!: string | null;

  @Column({ type: 'text' })
  status!: BulkImportStatus;

  @Column({ name: 'processed_rows', type: 'integer', default: 0 })
  processedRows!: number;

  @Column({ name: 'successful_rows', type: 'integer', default: 0 })
  successfulRows!: number;

  @Column({ name: 'failed_rows', type: 'integer', default: 0 })
  failedRows!: number;

  @Column({ name: 'error_count', type: 'integer', default: 0 })
  errorCount!: number;

  @Column({ type: 'text', nullable: true })
  failure!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
