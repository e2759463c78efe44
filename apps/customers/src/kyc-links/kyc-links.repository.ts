import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { KycLinkEntity } from './entities/kyc-link.entity';
import { Clock } from '@paykit/persistence';

/** Links are found by their token's digest, not by platform: the token is the hosted page's only credential. */
@Injectable()
export class KycLinksRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async insert(link: KycLinkEntity): Promise<void> {
    await this.dataSource.manager.insert(KycLinkEntity, link);
  }

  findByTokenHash(tokenHash: string): Promise<KycLinkEntity | null> {
    return this.dataSource.manager.findOne(KycLinkEntity, { where: { tokenHash } });
  }

  /** Locks the link for the rest of the transaction: two submits of one page never both spend it. */
  findByTokenHashForUpdate(manager: EntityManager, tokenHash: string): Promise<KycLinkEntity | null> {
    return manager.findOne(KycLinkEntity, { where: { tokenHash }, lock: { mode: 'pessimistic_write' } });
  }

  async markUsed(manager: EntityManager, id: string): Promise<void> {
    await manager.update(KycLinkEntity, { id }, { usedAt: this.clock.now() });
  }
}
