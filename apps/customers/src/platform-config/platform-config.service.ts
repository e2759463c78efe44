import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CustomersPlatformConfig, UpdatePlatformConfigRequest } from '@paykit/contracts';
import { EntityReader } from '@paykit/persistence';
import { PlatformConfigEntity } from './entities/platform-config.entity';
import { DEFAULT_SUPPORTED_CURRENCIES, defaultUmaDomain } from './default-platform-config';

@Injectable()
export class PlatformConfigService {
  /** Read on every customer creation: concurrent reads share a statement. */
  private readonly byPlatform: EntityReader<PlatformConfigEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.byPlatform = new EntityReader(dataSource, PlatformConfigEntity, ['platformId']);
  }

  /** A platform's configuration; the first use stores the defaults. */
  async load(platformId: string, manager?: EntityManager): Promise<PlatformConfigEntity> {
    const existing = manager ? await manager.findOne(PlatformConfigEntity, { where: { platformId } }) : await this.byPlatform.findOneBatched([platformId]);
    if (existing) return existing;
    manager ??= this.dataSource.manager;
    await manager
      .createQueryBuilder()
      .insert()
      .into(PlatformConfigEntity)
      .values({ platformId, regulated: false, umaDomain: defaultUmaDomain(platformId), supportedCurrencies: () => `'${JSON.stringify(DEFAULT_SUPPORTED_CURRENCIES)}'::jsonb` })
      .orIgnore()
      .execute();
    return manager.findOneOrFail(PlatformConfigEntity, { where: { platformId } });
  }

  async get(platformId: string): Promise<CustomersPlatformConfig> {
    return toPlatformConfig(await this.load(platformId));
  }

  /**
   * The compliance regime and the UMA domain (operator settings, no HTTP route), and whether
   * embedded wallets are provisioned (`PATCH /config`).
   */
  async update(platformId: string, request: UpdatePlatformConfigRequest): Promise<CustomersPlatformConfig> {
    await this.load(platformId);
    const changes: Partial<PlatformConfigEntity> = {};
    if (request.regulated !== undefined) changes.regulated = request.regulated;
    if (request.umaDomain !== undefined) changes.umaDomain = request.umaDomain;
    if (request.embeddedWalletsEnabled !== undefined) changes.embeddedWalletsEnabled = request.embeddedWalletsEnabled;
    if (Object.keys(changes).length > 0) {
      await this.dataSource.manager.update(PlatformConfigEntity, { platformId }, { ...changes, updatedAt: new Date() });
    }
    return this.get(platformId);
  }
}

function toPlatformConfig(config: PlatformConfigEntity): CustomersPlatformConfig {
  return { umaDomain: config.umaDomain, regulated: config.regulated, supportedCurrencies: config.supportedCurrencies, embeddedWalletsEnabled: config.embeddedWalletsEnabled };
}
