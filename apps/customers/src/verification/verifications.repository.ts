import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere, LessThan } from 'typeorm';
import { VerificationStatus } from '@paykit/contracts';
import { VerificationEntity } from './entities/verification.entity';

/** Verifications are a record of each run: written once, never changed. Every read is scoped by the platform. */
@Injectable()
export class VerificationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, verification: VerificationEntity): Promise<void> {
    await manager.insert(VerificationEntity, verification);
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
