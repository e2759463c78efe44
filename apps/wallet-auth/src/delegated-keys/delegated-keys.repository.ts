import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, FindOptionsWhere } from 'typeorm';
import { returningRows } from '@paykit/persistence';
import { DelegatedKeyEntity } from './entities/delegated-key.entity';

/** Every query takes the platform first: another platform's key does not exist here. */
@Injectable()
export class DelegatedKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, key: DelegatedKeyEntity): Promise<void> {
    await manager.insert(DelegatedKeyEntity, key);
  }

  findById(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<DelegatedKeyEntity | null> {
    return manager.findOne(DelegatedKeyEntity, { where: { platformId, id } });
  }

  /** Filtered by account, funding source or both (at least one is given). */
  list(platformId: string, filter: { accountId?: string; fundingSourceId?: string }): Promise<DelegatedKeyEntity[]> {
    const where: FindOptionsWhere<DelegatedKeyEntity> = { platformId };
    if (filter.accountId !== undefined) where.accountId = filter.accountId;
    if (filter.fundingSourceId !== undefined) where.fundingSourceId = filter.fundingSourceId;
    return this.dataSource.manager.find(DelegatedKeyEntity, { where, order: { id: 'ASC' } });
  }

  findActiveForFundingSource(platformId: string, fundingSourceId: string, manager: EntityManager = this.dataSource.manager): Promise<DelegatedKeyEntity | null> {
    return manager.findOne(DelegatedKeyEntity, { where: { platformId, fundingSourceId, status: 'ACTIVE' } });
  }

  /** PENDING to ACTIVE, once; the row as it now is, or undefined when it was not PENDING. */
  async activate(manager: EntityManager, platformId: string, id: string): Promise<Date | undefined> {
    const rows = await returningRows<{ updatedAt: Date }>(
      manager,
      `UPDATE delegated_key SET status = 'ACTIVE', updated_at = now() WHERE platform_id = $1 AND id = $2 AND status = 'PENDING' RETURNING updated_at AS "updatedAt"`,
      [platformId, id],
    );
    return rows[0]?.updatedAt;
  }

  /** ACTIVE to REVOKED, once; false when it was not ACTIVE. */
  async revoke(manager: EntityManager, platformId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE delegated_key SET status = 'REVOKED', revoked_at = now(), updated_at = now() WHERE platform_id = $1 AND id = $2 AND status = 'ACTIVE' RETURNING id`,
      [platformId, id],
    );
    return rows.length === 1;
  }
}
