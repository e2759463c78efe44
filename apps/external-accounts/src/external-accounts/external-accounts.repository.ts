import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AccountInfo, ExternalAccountOwnerType, ExternalAccountStatus } from '@paykit/contracts';
import { EntityReader } from '@paykit/persistence';
import { ExternalAccountEntity } from './entities/external-account.entity';

export interface ExternalAccountFilter {
  ownerType: ExternalAccountOwnerType;
  customerId?: string;
  status?: ExternalAccountStatus;
  currency?: string;
}

/** Every query takes the platform first: another platform's account does not exist here. */
@Injectable()
export class ExternalAccountsRepository {
  /** The read behind every GET and every payment's look-up of its counterparty: the hottest query here. */
  private readonly byId: EntityReader<ExternalAccountEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.byId = new EntityReader(dataSource, ExternalAccountEntity, ['platformId', 'id']);
  }

  /** Outside a transaction: concurrent reads share a statement (see EntityReader.findOneBatched). */
  async findByIdBatched(platformId: string, id: string, ownerType?: ExternalAccountOwnerType): Promise<ExternalAccountEntity | null> {
    const entity = await this.byId.findOneBatched([platformId, id]);
    return entity && (ownerType === undefined || entity.ownerType === ownerType) ? entity : null;
  }

  findById(
    platformId: string,
    id: string,
    ownerType?: ExternalAccountOwnerType,
    manager: EntityManager = this.dataSource.manager,
    lock = false,
  ): Promise<ExternalAccountEntity | null> {
    return manager.findOne(ExternalAccountEntity, {
      where: { platformId, id, ...(ownerType ? { ownerType } : {}) },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * Inserts unless the owner already has a live registration of the same destination; answers
   * whether it inserted. ON CONFLICT, not a caught error: a failed statement would be logged
   * with its parameters, and those carry account numbers.
   */
  async insertUnlessDuplicate(manager: EntityManager, account: ExternalAccountEntity): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `INSERT INTO external_account (id, platform_id, owner_type, customer_id, status, currency, platform_account_id, account_type,
         account_info, beneficiary_verification_status, fingerprint, review_version, created_at, updated_at, removed_at,
         ownership_type, default_uma_deposit_account, warnings, ownership_challenge)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL, $15, $16, $17, NULL)
       ON CONFLICT (platform_id, owner_type, (coalesce(customer_id, '')), fingerprint) WHERE status <> 'INACTIVE' DO NOTHING
       RETURNING id`,
      [
        account.id,
        account.platformId,
        account.ownerType,
        account.customerId,
        account.status,
        account.currency,
        account.platformAccountId,
        account.accountType,
        JSON.stringify(account.accountInfo),
        account.beneficiaryVerificationStatus,
        account.fingerprint,
        account.reviewVersion,
        account.createdAt,
        account.updatedAt,
        account.ownershipType,
        account.defaultUmaDepositAccount,
        account.warnings ? JSON.stringify(account.warnings) : null,
      ],
    );
    return rows.length === 1;
  }

  /** The owner's live (not INACTIVE) registration of a destination, other than `exceptId`. */
  async findLiveByFingerprint(
    platformId: string,
    owner: { ownerType: ExternalAccountOwnerType; customerId: string | null },
    fingerprint: string,
    manager: EntityManager = this.dataSource.manager,
    exceptId?: string,
  ): Promise<ExternalAccountEntity | null> {
    const query = manager
      .createQueryBuilder(ExternalAccountEntity, 'a')
      .where('a.platform_id = :platformId', { platformId })
      .andWhere('a.owner_type = :ownerType', { ownerType: owner.ownerType })
      .andWhere(`coalesce(a.customer_id, '') = :customerId`, { customerId: owner.customerId ?? '' })
      .andWhere('a.fingerprint = :fingerprint', { fingerprint })
      .andWhere(`a.status <> 'INACTIVE'`);
    if (exceptId) query.andWhere('a.id <> :exceptId', { exceptId });
    return query.getOne();
  }

  async save(manager: EntityManager, account: ExternalAccountEntity): Promise<void> {
    await manager.update(
      ExternalAccountEntity,
      { platformId: account.platformId, id: account.id },
      {
        status: account.status,
        platformAccountId: account.platformAccountId,
        accountType: account.accountType,
        accountInfo: account.accountInfo as QueryDeepPartialEntity<AccountInfo>,
        beneficiaryVerificationStatus: account.beneficiaryVerificationStatus,
        fingerprint: account.fingerprint,
        reviewVersion: account.reviewVersion,
        updatedAt: account.updatedAt,
        removedAt: account.removedAt,
        warnings: account.warnings,
        ownershipChallenge: account.ownershipChallenge,
      },
    );
  }

  /** Newest first; `beforeId` is the cursor (ids are UUIDv7, so they sort by creation). */
  async list(platformId: string, filter: ExternalAccountFilter, page: { limit: number; beforeId?: string }): Promise<{ rows: ExternalAccountEntity[]; totalCount: number }> {
    const base = this.dataSource.manager
      .createQueryBuilder(ExternalAccountEntity, 'a')
      .where('a.platform_id = :platformId', { platformId })
      .andWhere('a.owner_type = :ownerType', { ownerType: filter.ownerType });
    if (filter.customerId) base.andWhere('a.customer_id = :customerId', { customerId: filter.customerId });
    if (filter.status) base.andWhere('a.status = :status', { status: filter.status });
    if (filter.currency) base.andWhere('a.currency = :currency', { currency: filter.currency });
    const totalCount = await base.clone().getCount();
    const pageQuery = base.clone().orderBy('a.id', 'DESC').take(page.limit);
    if (page.beforeId) pageQuery.andWhere('a.id < :beforeId', { beforeId: page.beforeId });
    return { rows: await pageQuery.getMany(), totalCount };
  }
}
