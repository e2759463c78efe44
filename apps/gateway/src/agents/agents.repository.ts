import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { AgentPolicy, Environment } from '@paykit/contracts';
import { Clock } from '@paykit/persistence';
import { AgentAccessTokenEntity } from '../auth/entities/agent-access-token.entity';
import { AgentDeviceCodeEntity } from './entities/agent-device-code.entity';
import { AgentEntity } from './entities/agent.entity';

/** An agent with whether its software is connected (holds a live access token). */
export type AgentRow = AgentEntity & { isConnected: boolean };

export interface AgentFilter {
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
}

const CONNECTED = `EXISTS (SELECT 1 FROM agent_access_token t WHERE t.agent_id = a.id AND t.revoked_at IS NULL AND t.expires_at > now())`;

interface RawAgent {
  id: string;
  platform_id: string;
  environment: Environment;
  name: string;
  customer_id: string;
  policy: AgentPolicy | string;
  is_paused: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  deleted_at: Date | string | null;
  is_connected: boolean;
}

function toRow(raw: RawAgent): AgentRow {
  return {
    id: raw.id,
    platformId: raw.platform_id,
    environment: raw.environment,
    name: raw.name,
    customerId: raw.customer_id,
    policy: typeof raw.policy === 'string' ? (JSON.parse(raw.policy) as AgentPolicy) : raw.policy,
    isPaused: raw.is_paused,
    createdAt: new Date(raw.created_at),
    updatedAt: new Date(raw.updated_at),
    deletedAt: raw.deleted_at === null ? null : new Date(raw.deleted_at),
    isConnected: raw.is_connected,
  };
}

/** Agents, their device codes and access tokens (codes and tokens as SHA-256 digests only). */
@Injectable()
export class AgentsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insertAgent(manager: EntityManager, agent: Omit<AgentEntity, 'createdAt' | 'updatedAt' | 'deletedAt' | 'isPaused'>): Promise<void> {
    const now = this.clock.now();
    await manager.getRepository(AgentEntity).insert({ ...agent, isPaused: false, createdAt: now, updatedAt: now, deletedAt: null });
  }

  /** A live agent of the platform (another platform's, or a deleted one, is null). */
  async find(platformId: string, agentId: string, manager: EntityManager = this.dataSource.manager): Promise<AgentRow | null> {
    const rows = await manager.query<RawAgent[]>(`SELECT a.*, ${CONNECTED} AS is_connected FROM agent a WHERE a.platform_id = $1 AND a.id = $2 AND a.deleted_at IS NULL`, [
      platformId,
      agentId,
    ]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** A page of the platform's live agents, newest first (`limit + 1` rows: see toPage). */
  async page(platformId: string, filter: AgentFilter, limit: number, beforeId: string | undefined): Promise<AgentRow[]> {
    const { where, params } = agentConditions(platformId, filter, beforeId);
    params.push(limit + 1);
    const rows = await this.dataSource.query<RawAgent[]>(`SELECT a.*, ${CONNECTED} AS is_connected FROM agent a WHERE ${where} ORDER BY a.id DESC LIMIT $${params.length}`, params);
    return rows.map(toRow);
  }

  /** How many live agents match the filter, every page together. */
  async count(platformId: string, filter: AgentFilter): Promise<number> {
    const { where, params } = agentConditions(platformId, filter, undefined);
    const rows = await this.dataSource.query<{ count: string | number }[]>(`SELECT count(*) AS count FROM agent a WHERE ${where}`, params);
    return Number(rows[0].count);
  }

  async update(manager: EntityManager, platformId: string, agentId: string, changes: Partial<Pick<AgentEntity, 'name' | 'isPaused' | 'policy'>>): Promise<void> {
    await manager.getRepository(AgentEntity).update({ platformId, id: agentId, deletedAt: IsNull() }, { ...changes, updatedAt: this.clock.now() });
  }

  /** Deletes the agent: its access tokens and unredeemed codes stop with it (one transaction: the caller's). */
  async delete(manager: EntityManager, platformId: string, agentId: string): Promise<void> {
    const now = this.clock.now();
    await manager.getRepository(AgentEntity).update({ platformId, id: agentId }, { deletedAt: now, updatedAt: now });
    await manager.getRepository(AgentAccessTokenEntity).update({ agentId, revokedAt: IsNull() }, { revokedAt: now });
    await manager.getRepository(AgentDeviceCodeEntity).update({ agentId, redeemedAt: IsNull(), voidedAt: IsNull() }, { voidedAt: now });
  }

  /** A new device code for the agent; every unredeemed earlier one is voided. */
  async insertDeviceCode(manager: EntityManager, code: Pick<AgentDeviceCodeEntity, 'codeSha256' | 'platformId' | 'agentId' | 'expiresAt'>): Promise<AgentDeviceCodeEntity> {
    const now = this.clock.now();
    await manager.getRepository(AgentDeviceCodeEntity).update({ agentId: code.agentId, redeemedAt: IsNull(), voidedAt: IsNull() }, { voidedAt: now });
    const row: AgentDeviceCodeEntity = { ...code, redeemedAt: null, voidedAt: null, createdAt: now };
    await manager.getRepository(AgentDeviceCodeEntity).insert(row);
    return row;
  }

  findDeviceCode(codeSha256: string, platformId?: string): Promise<AgentDeviceCodeEntity | null> {
    return this.dataSource.getRepository(AgentDeviceCodeEntity).findOneBy(platformId === undefined ? { codeSha256 } : { codeSha256, platformId });
  }

  /** The code under a row lock, so two redemptions of one code cannot both succeed. */
  lockDeviceCode(manager: EntityManager, codeSha256: string): Promise<AgentDeviceCodeEntity | null> {
    return manager.getRepository(AgentDeviceCodeEntity).findOne({ where: { codeSha256 }, lock: { mode: 'pessimistic_write' } });
  }

  async markRedeemed(manager: EntityManager, codeSha256: string): Promise<void> {
    await manager.getRepository(AgentDeviceCodeEntity).update({ codeSha256 }, { redeemedAt: this.clock.now() });
  }

  async insertAccessToken(manager: EntityManager, token: Omit<AgentAccessTokenEntity, 'revokedAt'>): Promise<void> {
    await manager.getRepository(AgentAccessTokenEntity).insert({ ...token, revokedAt: null });
  }
}

/** The agent list's WHERE clause and its parameters (the cursor only when paging). */
function agentConditions(platformId: string, filter: AgentFilter, beforeId: string | undefined): { where: string; params: unknown[] } {
  const where = ['a.platform_id = $1', 'a.deleted_at IS NULL'];
  const params: unknown[] = [platformId];
  const add = (sql: string, value: unknown): void => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.customerId !== undefined) add('a.customer_id = ?', filter.customerId);
  if (filter.isPaused !== undefined) add('a.is_paused = ?', filter.isPaused);
  if (filter.isConnected !== undefined) where.push(filter.isConnected ? CONNECTED : `NOT ${CONNECTED}`);
  if (filter.createdAfter) add('a.created_at >= ?', filter.createdAfter);
  if (filter.createdBefore) add('a.created_at <= ?', filter.createdBefore);
  if (filter.updatedAfter) add('a.updated_at >= ?', filter.updatedAfter);
  if (filter.updatedBefore) add('a.updated_at <= ?', filter.updatedBefore);
  if (beforeId !== undefined) add('a.id < ?', beforeId);
  return { where: where.join(' AND '), params };
}
