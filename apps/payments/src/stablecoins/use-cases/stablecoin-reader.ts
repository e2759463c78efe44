import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  CallerContext,
  ListStablecoinOperationsMessage,
  ListStablecoinProviderAccountsQuery,
  ListStablecoinsQuery,
  Stablecoin,
  StablecoinOperation,
  StablecoinPage,
  StablecoinProviderAccount,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { decodeCursor, idCursor, pageLimit, toPage } from '@paykit/persistence';
import { ProviderAccountRow, StablecoinRow, StablecoinsRepository } from '../stablecoins.repository';
import { environmentOf, toOperation, toProviderAccount, toStablecoin } from './stablecoin-resources';

const PROVIDER_ACCOUNT_CURSOR = idCursor('StablecoinProviderAccount');
const STABLECOIN_CURSOR = idCursor('Stablecoin');
const OPERATION_CURSOR = idCursor('StablecoinOperation');

/** The reads of provider account links, coins and operations (GET and list of each), and the checks the commands share. */
@Injectable()
export class StablecoinReader {
  constructor(private readonly stablecoins: StablecoinsRepository) {}

  async getProviderAccount(ctx: CallerContext, id: string): Promise<StablecoinProviderAccount> {
    return toProviderAccount(await this.requireProviderAccount(ctx.platformId, id));
  }

  async listProviderAccounts(ctx: CallerContext, query: ListStablecoinProviderAccountsQuery): Promise<StablecoinPage<StablecoinProviderAccount>> {
    const limit = pageLimit(query.limit);
    const { rows, totalCount } = await this.stablecoins.listProviderAccounts(
      ctx.platformId,
      { provider: query.provider, status: query.status },
      { beforeId: decodeCursor(query.cursor, PROVIDER_ACCOUNT_CURSOR), limit: limit + 1 },
    );
    return { ...toPage(rows, limit, toProviderAccount, PROVIDER_ACCOUNT_CURSOR), totalCount };
  }

  async requireProviderAccount(platformId: string, id: string): Promise<ProviderAccountRow> {
    const row = await this.stablecoins.findProviderAccount(platformId, id);
    if (!row) throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', `Stablecoin provider account ${id} not found`, { stablecoinProviderAccountId: id });
    return row;
  }

  /** A link operations may use: ACTIVE, else the reference's error for its status. */
  usable(link: ProviderAccountRow): ProviderAccountRow {
    if (link.status === 'INVALID') {
      throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_INVALID', `Stablecoin provider account ${link.id} is not usable: the provider refused its credentials`, {
        stablecoinProviderAccountId: link.id,
      });
    }
    if (link.status === 'REVOKED') {
      throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_REVOKED', `Stablecoin provider account ${link.id} has been revoked`, { stablecoinProviderAccountId: link.id });
    }
    return link;
  }

  /** The link a registration uses: the one named, or the platform's only ACTIVE one. */
  async selectLink(ctx: CallerContext, named: string | undefined): Promise<ProviderAccountRow> {
    if (named !== undefined) return this.usable(await this.requireProviderAccount(ctx.platformId, named));
    const links = await this.stablecoins.providerAccountsFor(ctx.platformId, 'BRALE', environmentOf(ctx));
    const active = links.filter((link) => link.status === 'ACTIVE');
    if (active.length > 1) {
      throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED', 'More than one ACTIVE provider account link: give stablecoinProviderAccountId', {
        stablecoinProviderAccountIds: active.map((link) => link.id),
      });
    }
    if (active.length === 1) return active[0];
    if (links.length > 0) return this.usable(links[0]);
    throw new ServiceError('STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND', 'No stablecoin provider account is linked: link one with POST /stablecoin-provider-accounts first');
  }

  async get(ctx: CallerContext, id: string): Promise<Stablecoin> {
    return toStablecoin(await this.requireStablecoin(ctx.platformId, id));
  }

  async list(ctx: CallerContext, query: ListStablecoinsQuery): Promise<StablecoinPage<Stablecoin>> {
    const limit = pageLimit(query.limit);
    const { rows, totalCount } = await this.stablecoins.listStablecoins(
      ctx.platformId,
      { issuance_status: query.issuanceStatus, service_operations_status: query.serviceOperationsStatus, provider: query.provider },
      { beforeId: decodeCursor(query.cursor, STABLECOIN_CURSOR), limit: limit + 1 },
    );
    return { ...toPage(rows, limit, toStablecoin, STABLECOIN_CURSOR), totalCount };
  }

  async requireStablecoin(platformId: string, id: string, manager?: EntityManager): Promise<StablecoinRow> {
    const row = await this.stablecoins.findStablecoin(platformId, id, manager);
    if (!row) throw new ServiceError('REFERENCE_NOT_FOUND', `Stablecoin ${id} not found`, { stablecoinId: id });
    return row;
  }

  /** A coin mints and burns once enabled, through a usable link. */
  async operable(ctx: CallerContext, stablecoinId: string): Promise<StablecoinRow> {
    const coin = await this.requireStablecoin(ctx.platformId, stablecoinId);
    if (coin.serviceOperationsStatus !== 'ENABLED' || !coin.currency) {
      throw new ServiceError('CONFLICT', `Stablecoin ${coin.id} is ${coin.issuanceStatus} and ${coin.serviceOperationsStatus}: it mints and burns once ENABLED`, {
        reason: 'STABLECOIN_NOT_ENABLED',
        issuanceStatus: coin.issuanceStatus,
        serviceOperationsStatus: coin.serviceOperationsStatus,
      });
    }
    this.usable(await this.requireProviderAccount(ctx.platformId, coin.providerAccountId));
    return coin;
  }

  async getOperation(ctx: CallerContext, id: string): Promise<StablecoinOperation> {
    const row = await this.stablecoins.findOperation(ctx.platformId, id);
    if (!row) throw new ServiceError('REFERENCE_NOT_FOUND', `Stablecoin operation ${id} not found`, { stablecoinOperationId: id });
    return toOperation(row, await this.requireStablecoin(ctx.platformId, row.stablecoinId));
  }

  async listOperations(ctx: CallerContext, query: ListStablecoinOperationsMessage): Promise<StablecoinPage<StablecoinOperation>> {
    const coin = await this.requireStablecoin(ctx.platformId, query.stablecoinId);
    const limit = pageLimit(query.limit);
    const { rows, totalCount } = await this.stablecoins.listOperations(ctx.platformId, coin.id, query.operationType, {
      beforeId: decodeCursor(query.cursor, OPERATION_CURSOR),
      limit: limit + 1,
    });
    return { ...toPage(rows, limit, (row) => toOperation(row, coin), OPERATION_CURSOR), totalCount };
  }
}
