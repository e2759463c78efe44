import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { SupportedCurrency } from '@paykit/contracts';
import { EntityReader, Clock } from '@paykit/persistence';
import { PlatformConfigEntity } from './entities/platform-config.entity';

/** What an operator or `PATCH /config` may change. */
export type PlatformConfigChanges = Partial<
  Pick<
    PlatformConfigEntity,
    'regulated' | 'umaDomain' | 'embeddedWalletsEnabled' | 'sandboxProfile' | 'supportedCurrencies' | 'embeddedWalletConfig' | 'cardTokenization2faConfig' | 'feeConfigs'
  >
>;

/** One row per platform, keyed by it. */
@Injectable()
export class PlatformConfigRepository {
  /** Read on every customer creation: concurrent reads share a statement. */
  private readonly byPlatform: EntityReader<PlatformConfigEntity>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.byPlatform = new EntityReader(dataSource, PlatformConfigEntity, ['platformId']);
  }

  /** Inside a transaction through its manager, otherwise batched with concurrent reads. */
  find(platformId: string, manager?: EntityManager, forUpdate = false): Promise<PlatformConfigEntity | null> {
    if (!manager) return this.byPlatform.findOneBatched([platformId]);
    // Locked by a change that merges into what it read (fee configs), so concurrent changes do not lose each other's.
    return manager.findOne(PlatformConfigEntity, { where: { platformId }, ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
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

  async update(manager: EntityManager, platformId: string, changes: PlatformConfigChanges): Promise<void> {
    const { supportedCurrencies, embeddedWalletConfig, cardTokenization2faConfig, feeConfigs, ...plain } = changes;
    // JSON columns are written as JSON text: TypeORM would not serialise them in an UPDATE of partial values.
    const json = { supportedCurrencies, embeddedWalletConfig, cardTokenization2faConfig, feeConfigs };
    const set: Record<string, unknown> = { ...plain, updatedAt: this.clock.now() };
    const parameters: Record<string, string> = {};
    for (const [key, value] of Object.entries(json)) {
      if (value === undefined) continue;
      set[key] = () => `CAST(:${key} AS jsonb)`;
      parameters[key] = JSON.stringify(value);
    }
    await manager.createQueryBuilder().update(PlatformConfigEntity).set(set).where('platform_id = :platformId', { platformId }).setParameters(parameters).execute();
  }

  /**
   * A new UMA domain moves every customer's UMA address to it (usernames unchanged), in the
   * caller's transaction; answers the moved customers as they now are.
   */
  async moveUmaAddresses(manager: EntityManager, platformId: string, oldDomain: string, newDomain: string): Promise<CustomerEntity[]> {
    const moved: Array<{ id: string }> = await manager.query(`SELECT id FROM customer WHERE platform_id = $1 AND split_part(uma_address, '@', 2) = $2 ORDER BY id FOR UPDATE`, [
      platformId,
      oldDomain,
    ]);
    if (moved.length === 0) return [];
    await manager.query(
      `UPDATE customer SET uma_address = split_part(uma_address, '@', 1) || '@' || $3, updated_at = now()
       WHERE platform_id = $1 AND split_part(uma_address, '@', 2) = $2`,
      [platformId, oldDomain, newDomain],
    );
    return manager.find(CustomerEntity, { where: { platformId, id: In(moved.map((row) => row.id)) }, order: { id: 'ASC' } });
  }
}
