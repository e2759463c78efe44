import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, LessThanOrEqual, MoreThanOrEqual, Raw, And, FindOptionsWhere, FindOperator } from 'typeorm';
import { ApiTokenEntity } from './entities/api-token.entity';
import { AgentPolicy, Environment } from '@paykit/contracts';
import { Clock, preparedStatement } from '@paykit/persistence';
import { PlatformEntity } from './entities/platform.entity';

/** What an AgentAuth bearer token resolves to: its agent as it is now. */
export interface AgentTokenHolder {
  agentId: string;
  platformId: string;
  environment: Environment;
  customerId: string;
  name: string;
  policy: AgentPolicy;
  isPaused: boolean;
  /** When the access token itself expires. */
  expiresAt: Date;
}

interface AgentTokenRow {
  id: string;
  platform_id: string;
  environment: Environment;
  customer_id: string;
  name: string;
  policy: AgentPolicy | string;
  is_paused: boolean;
  expires_at: Date | string;
}

export interface TokenFilter {
  name?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
}

/** A page of tokens: the filter, the page size and the cursor (the public id to list below). */
export interface TokenPageQuery extends TokenFilter {
  limit: number;
  beforePublicId?: string;
}

/** A page of tokens (`limit + 1` rows: see toPage) and how many live tokens match the filter on all pages. */
export interface TokenPage {
  rows: ApiTokenEntity[];
  totalCount: number;
}

/** Platforms, their API tokens and agent access tokens (secrets only as SHA-256 digests). */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts the platform and reads it back with the columns the database fills. */
  async insertPlatform(platform: Pick<PlatformEntity, 'id' | 'name'>): Promise<PlatformEntity> {
    await this.dataSource.getRepository(PlatformEntity).insert(platform);
    return this.dataSource.getRepository(PlatformEntity).findOneByOrFail({ id: platform.id });
  }

  listPlatforms(): Promise<PlatformEntity[]> {
    return this.dataSource.getRepository(PlatformEntity).find({ order: { createdAt: 'ASC' } });
  }

  /** A fixed token id (sandbox credentials pinned by configuration) replaces its earlier secret and un-revokes it. */
  async saveToken(
    manager: EntityManager,
    token: Pick<ApiTokenEntity, 'id' | 'publicId' | 'platformId' | 'environment' | 'label' | 'secretSha256' | 'permissions'>,
  ): Promise<ApiTokenEntity> {
    const repository = manager.getRepository(ApiTokenEntity);
    const existing = await repository.findOneBy({ id: token.id });
    await repository.upsert({ ...token, publicId: existing?.publicId ?? token.publicId, revokedAt: null, updatedAt: Clock.real() }, ['id']);
    return repository.findOneByOrFail({ id: token.id });
  }

  /** A platform's live token of one environment by its public id (another platform's or environment's id answers null). */
  findPlatformToken(platformId: string, environment: Environment, publicId: string): Promise<ApiTokenEntity | null> {
    return this.dataSource.getRepository(ApiTokenEntity).findOneBy({ platformId, environment, publicId, revokedAt: IsNull() });
  }

  /** The platform's live tokens of one environment, newest first. */
  async pageTokens(platformId: string, environment: Environment, query: TokenPageQuery): Promise<TokenPage> {
    const where: FindOptionsWhere<ApiTokenEntity> = { platformId, environment, revokedAt: IsNull() };
    const { limit, beforePublicId, ...filter } = query;
    if (filter.name !== undefined) where.label = filter.name;
    const range = (after?: Date, before?: Date): FindOperator<Date> | undefined => {
      if (after && before) return And(MoreThanOrEqual(after), LessThanOrEqual(before));
      if (after) return MoreThanOrEqual(after);
      if (before) return LessThanOrEqual(before);
      return undefined;
    };
    const created = range(filter.createdAfter, filter.createdBefore);
    if (created) where.createdAt = created;
    const updated = range(filter.updatedAfter, filter.updatedBefore);
    if (updated) where.updatedAt = updated;
    const tokens = this.dataSource.getRepository(ApiTokenEntity);
    const page = beforePublicId === undefined ? where : { ...where, publicId: Raw((column) => `${column} < :cursor`, { cursor: beforePublicId }) };
    const [rows, totalCount] = await Promise.all([tokens.find({ where: page, order: { publicId: 'DESC' }, take: limit + 1 }), tokens.count({ where })]);
    return { rows, totalCount };
  }

  findToken(tokenId: string): Promise<ApiTokenEntity | null> {
    return this.dataSource.getRepository(ApiTokenEntity).findOneBy({ id: tokenId });
  }

  /** Every token of the platform, revoked ones included, oldest first (the operator's listing). */
  listTokens(platformId: string): Promise<ApiTokenEntity[]> {
    return this.dataSource.getRepository(ApiTokenEntity).find({ where: { platformId }, order: { createdAt: 'ASC' } });
  }

  findUnrevokedToken(tokenId: string): Promise<ApiTokenEntity | null> {
    return this.dataSource.getRepository(ApiTokenEntity).findOneBy({ id: tokenId, revokedAt: IsNull() });
  }

  async revokeToken(manager: EntityManager, tokenId: string): Promise<void> {
    await manager.getRepository(ApiTokenEntity).update({ id: tokenId }, { revokedAt: Clock.real(), updatedAt: Clock.real() });
  }

  /** The agent behind a live access token, as it is now (one statement). */
  async findAgentTokenHolder(tokenSha256: string): Promise<AgentTokenHolder | null> {
    // Prepared: it runs on every agent request.
    const rows = await this.dataSource.query<AgentTokenRow[]>(
      preparedStatement(`SELECT a.id, a.platform_id, a.environment, a.customer_id, a.name, a.policy, a.is_paused, t.expires_at
         FROM agent_access_token t JOIN agent a ON a.id = t.agent_id
        WHERE t.token_sha256 = $1 AND t.revoked_at IS NULL AND t.expires_at > now() AND a.deleted_at IS NULL`),
      [tokenSha256],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      agentId: row.id,
      platformId: row.platform_id,
      environment: row.environment,
      customerId: row.customer_id,
      name: row.name,
      policy: typeof row.policy === 'string' ? (JSON.parse(row.policy) as AgentPolicy) : row.policy,
      isPaused: row.is_paused,
      expiresAt: new Date(row.expires_at),
    };
  }
}
