import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere, LessThan } from 'typeorm';
import { DocumentType, VerificationStatus } from '@paykit/contracts';
import { VerificationEntity } from './entities/verification.entity';

/** Verifications are a record of each run: written once, never changed. Every read is scoped by the platform. */
@Injectable()
export class VerificationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, verification: VerificationEntity): Promise<void> {
    await manager.insert(VerificationEntity, verification);
  }

  /**
   * The evidence a HOSTED verification reads: the customer's own documents that were uploaded and
   * not rejected. Read here rather than through the documents feature, which depends on this one
   * (a document's deletion asks whether a verification used it).
   */
  async evidenceDocuments(manager: EntityManager, platformId: string, customerId: string): Promise<Array<{ id: string; documentType: DocumentType }>> {
    const rows: Array<{ id: string; document_type: DocumentType }> = await manager.query(
      `SELECT id, document_type FROM document WHERE platform_id = $1 AND document_holder = $2 AND status IN ('PENDING', 'APPROVED') ORDER BY id`,
      [platformId, customerId],
    );
    return rows.map((row) => ({ id: row.id, documentType: row.document_type }));
  }

  findById(platformId: string, id: string): Promise<VerificationEntity | null> {
    return this.dataSource.manager.findOne(VerificationEntity, { where: { platformId, id } });
  }

  /** Newest first; `beforeId` is the cursor (ids sort by creation). */
  list(platformId: string, filter: { customerId?: string; verificationStatus?: VerificationStatus; beforeId?: string }, limit: number): Promise<VerificationEntity[]> {
    const where: FindOptionsWhere<VerificationEntity> = { platformId };
    if (filter.customerId) where.customerId = filter.customerId;
    if (filter.verificationStatus) where.verificationStatus = filter.verificationStatus;
    if (filter.beforeId) where.id = LessThan(filter.beforeId);
    return this.dataSource.manager.find(VerificationEntity, { where, order: { id: 'DESC' }, take: limit });
  }

  /** How many verifications match the filter on all pages. */
  count(platformId: string, filter: { customerId?: string; verificationStatus?: VerificationStatus }): Promise<number> {
    const where: FindOptionsWhere<VerificationEntity> = { platformId };
    if (filter.customerId) where.customerId = filter.customerId;
    if (filter.verificationStatus) where.verificationStatus = filter.verificationStatus;
    return this.dataSource.manager.count(VerificationEntity, { where });
  }

  /** Whether the customer was submitted for verification at or after this instant (its documents are then in use). */
  async submittedSince(manager: EntityManager, platformId: string, customerId: string, since: Date): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT 1 FROM verification WHERE platform_id = $1 AND customer_id = $2 AND created_at >= $3 LIMIT 1', [
      platformId,
      customerId,
      since,
    ]);
    return rows.length > 0;
  }
}
