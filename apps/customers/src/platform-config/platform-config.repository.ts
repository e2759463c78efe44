import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SupportedCurrency } from '@paykit/contracts';
import { EntityReader } from '@paykit/persistence';
import { PlatformConfigEntity } from './entities/platform-config.entity';

/** What an operator or `PATCH /config` may change. */
export type PlatformConfigChanges = Partial<Pick<PlatformConfigEntity, 'regulated' | 'umaDomain' | 'embeddedWalletsEnabled'>>;

/** One row per platform, keyed by it. */
@Injectable()
export class PlatformConfigRepository {
  /** Read on every customer creation: concurrent reads share a statement. */
  private readonly byPlatform: EntityReader<PlatformConfigEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.byPlatform = new EntityReader(dataSource, PlatformConfigEntity, ['platformId']);
  }

  /** Inside a transaction through its manager, otherwise batched with concurrent reads. */
  find(platformId: string, manager?: EntityManager): Promise<PlatformConfigEntity | null> {
    return manager ? manager.findOne(PlatformConfigEntity, { where: { platformId } }) : this.byPlatform.findOneBatched([platformId]);
  }

  /** Stores a platform's first configuration unless another caller just did, and reads the row that won. */
  async insertIfAbsent(
    first: { platformId: string; umaDomain: string; supportedCurrencies: SupportedCurrency[] },
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PlatformConfigEntity> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(PlatformConfigEntity)
      .values({ platformId: first.platformId, regulated: false, umaDomain: first.umaDomain, supportedCurrencies: () => `'${JSON.stringify(first.supportedCurrencies)}'::jsonb` })
      .orIgnore()
      .execute();
    return manager.findOneOrFail(PlatformConfigEntity, { where: { platformId: first.platformId } });
  }

  async update(platformId: string, changes: PlatformConfigChanges): Promise<void> {
    await this.dataSource.manager.update(PlatformConfigEntity, { platformId }, { ...changes, updatedAt: new Date() });
  }
}
