import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, MoreThan } from 'typeorm';
import { returningRows, Clock } from '@paykit/persistence';
import { AuthSessionEntity } from './entities/auth-session.entity';

/** Every query takes the platform first: another platform's session does not exist here. */
@Injectable()
export class SessionsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async insert(manager: EntityManager, session: AuthSessionEntity): Promise<void> {
    await manager.insert(AuthSessionEntity, session);
  }

  /** Active: neither revoked nor expired. */
  findActive(platformId: string, id: string, manager: EntityManager = this.dataSource.manager): Promise<AuthSessionEntity | null> {
    return manager.findOne(AuthSessionEntity, { where: { platformId, id, revokedAt: IsNull(), expiresAt: MoreThan(this.clock.now()) } });
  }

  listActive(platformId: string, accountId: string): Promise<AuthSessionEntity[]> {
    return this.dataSource.manager.find(AuthSessionEntity, {
      where: { platformId, accountId, revokedAt: IsNull(), expiresAt: MoreThan(this.clock.now()) },
      order: { id: 'DESC' },
    });
  }

  async revoke(manager: EntityManager, platformId: string, id: string): Promise<boolean> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE auth_session SET revoked_at = now(), updated_at = now() WHERE platform_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id`,
      [platformId, id],
    );
    return rows.length === 1;
  }

  async revokeAllOfCredential(manager: EntityManager, platformId: string, credentialId: string): Promise<string[]> {
    const rows = await returningRows<{ id: string }>(
      manager,
      `UPDATE auth_session SET revoked_at = now(), updated_at = now() WHERE platform_id = $1 AND credential_id = $2 AND revoked_at IS NULL RETURNING id`,
      [platformId, credentialId],
    );
    return rows.map((row) => row.id);
  }
}
