import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { ApiTokenEntity } from './entities/api-token.entity';
import { AgentAccessTokenEntity } from './entities/agent-access-token.entity';
import { PlatformEntity } from './entities/platform.entity';

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
  async saveToken(token: Pick<ApiTokenEntity, 'id' | 'platformId' | 'environment' | 'label' | 'secretSha256'>): Promise<void> {
    await this.dataSource.getRepository(ApiTokenEntity).upsert({ ...token, revokedAt: null }, ['id']);
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

  async revokeToken(tokenId: string): Promise<void> {
    await this.dataSource.getRepository(ApiTokenEntity).update({ id: tokenId }, { revokedAt: new Date() });
  }

  findUnrevokedAgentToken(tokenSha256: string): Promise<AgentAccessTokenEntity | null> {
    return this.dataSource.getRepository(AgentAccessTokenEntity).findOneBy({ tokenSha256, revokedAt: IsNull() });
  }
}
