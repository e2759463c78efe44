import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { BeneficialOwnerEntity } from './entities/beneficial-owner.entity';

/** Every query takes the platform first: another platform's beneficial owner does not exist here. */
@Injectable()
export class BeneficialOwnersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(manager: EntityManager, owner: BeneficialOwnerEntity): Promise<void> {
    await manager.insert(BeneficialOwnerEntity, owner);
  }

  /** With `customerId`, only when the owner belongs to that customer. */
  findById(platformId: string, id: string, customerId?: string): Promise<BeneficialOwnerEntity | null> {
    return this.dataSource.manager.findOne(BeneficialOwnerEntity, { where: { platformId, id, ...(customerId ? { customerId } : {}) } });
  }

  /** Locks the owner for the rest of the transaction: concurrent updates never interleave. */
  findByIdForUpdate(manager: EntityManager, platformId: string, id: string): Promise<BeneficialOwnerEntity | null> {
    return manager.findOne(BeneficialOwnerEntity, { where: { platformId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** A business's owners, locked for the rest of the transaction (a verification resolves them with the business). */
  forCustomerForUpdate(manager: EntityManager, platformId: string, customerId: string): Promise<BeneficialOwnerEntity[]> {
    return manager.find(BeneficialOwnerEntity, { where: { platformId, customerId }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
  }

  async save(manager: EntityManager, owner: BeneficialOwnerEntity): Promise<void> {
    await manager.save(BeneficialOwnerEntity, owner);
  }

  /** Newest first; `beforeId` is the cursor (ids sort by creation). */
  list(platformId: string, filter: { customerId?: string; beforeId?: string }, limit: number): Promise<BeneficialOwnerEntity[]> {
    return this.dataSource.manager.find(BeneficialOwnerEntity, {
      where: { platformId, ...(filter.customerId ? { customerId: filter.customerId } : {}), ...(filter.beforeId ? { id: LessThan(filter.beforeId) } : {}) },
      order: { id: 'DESC' },
      take: limit,
    });
  }

  /** How many beneficial owners match the filter on all pages. */
  count(platformId: string, filter: { customerId?: string }): Promise<number> {
    return this.dataSource.manager.count(BeneficialOwnerEntity, { where: { platformId, ...(filter.customerId ? { customerId: filter.customerId } : {}) } });
  }
}
