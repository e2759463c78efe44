import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookPlatformEntity } from './entities/webhook-platform.entity';
import { Clock } from '@paykit/persistence';

/** A platform's webhook settings: one row per platform, keyed by it. */
@Injectable()
export class WebhookConfigRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  findByPlatform(platformId: string): Promise<WebhookPlatformEntity | null> {
    return this.dataSource.manager.findOne(WebhookPlatformEntity, { where: { platformId } });
  }

  /** The endpoint alone (the hot read of every delivery), or undefined when the platform has none. */
  async endpointOf(platformId: string): Promise<string | undefined> {
    const row = await this.dataSource.manager.findOne(WebhookPlatformEntity, { where: { platformId }, select: { platformId: true, endpointUrl: true } });
    return row?.endpointUrl ?? undefined;
  }

  /** Inserts the platform's row unless one exists (concurrent first uses keep one; the database sets createdAt), then reads the row that won. */
  async insertIfAbsent(row: Omit<WebhookPlatformEntity, 'createdAt'>): Promise<WebhookPlatformEntity> {
    await this.dataSource.manager.createQueryBuilder().insert().into(WebhookPlatformEntity).values(row).orIgnore().execute();
    return this.dataSource.manager.findOneOrFail(WebhookPlatformEntity, { where: { platformId: row.platformId } });
  }

  async setEndpoint(platformId: string, endpointUrl: string | null): Promise<void> {
    await this.dataSource.manager.update(WebhookPlatformEntity, { platformId }, { endpointUrl, updatedAt: this.clock.now() });
  }
}
