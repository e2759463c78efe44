import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DiscoveryEntry } from '@paykit/contracts';
import { DiscoveryBankEntity } from './entities/discovery-bank.entity';

/** Reference data is the same for every platform: no platform filter here, by design. */
@Injectable()
export class DiscoveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(filter: { country?: string; currency?: string }): Promise<DiscoveryEntry[]> {
    const rows = await this.dataSource.manager.find(DiscoveryBankEntity, {
      where: { ...(filter.country ? { country: filter.country } : {}), ...(filter.currency ? { currency: filter.currency } : {}) },
      order: { country: 'ASC', currency: 'ASC', displayName: 'ASC' },
    });
    return rows.map((row) => ({ bankName: row.bankName, displayName: row.displayName, country: row.country, currency: row.currency }));
  }

  /**
   * Replaces every entry with `entries` (an operator's own lists), in one transaction. Replicas
   * starting together take turns (the lock conflicts with itself, not with readers): each one's
   * DELETE then sees the rows the one before it inserted.
   */
  async replaceAll(manager: EntityManager, entries: DiscoveryEntry[]): Promise<void> {
    await manager.query('LOCK TABLE discovery_bank IN SHARE ROW EXCLUSIVE MODE');
    await manager.createQueryBuilder().delete().from(DiscoveryBankEntity).execute();
    if (entries.length > 0) await manager.insert(DiscoveryBankEntity, entries);
  }
}
