import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { amountFromColumn } from '@paykit/persistence';
import { AgentActionStatus, AgentActionType, AgentPolicy, AgentTransferDetails } from '@paykit/contracts';
import { UsageCounters } from './agent-policy';
import { TransferStep } from '../transfers/transfers.sandbox';

export interface AgentActionRow {
  id: string;
  platformId: string;
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  status: AgentActionStatus;
  type: AgentActionType;
  transferDetails: AgentTransferDetails | null;
  transactionId: string | null;
  quoteId: string | null;
  rejectionReason: string | null;
  usageDay: string;
  usageMonth: string;
  usageAmount: bigint;
  pendingSteps: TransferStep[] | null;
  /** The policy the action was submitted under: a waiting action's approval is checked against its limits. */
  policy: AgentPolicy | null;
  /** Whether the action's usage is counted (once it is APPROVED; a waiting action counts nothing). */
  usageCounted: boolean;
  /** Why the action FAILED: the code of the check that refused it (INSUFFICIENT_BALANCE, VELOCITY_LIMIT_EXCEEDED, QUOTE_EXPIRED...). */
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StoredUsage extends UsageCounters {
  day: string;
  month: string;
}

export interface ActionFilter {
  agentId?: string;
  customerId?: string;
  status?: AgentActionStatus;
  from?: Date;
  until?: Date;
  ascending: boolean;
  afterId?: string;
  limit: number;
}

type Raw = Record<string, unknown>;
const json = <T>(value: unknown): T | null => (value === null || value === undefined ? null : typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

function toRow(raw: Raw): AgentActionRow {
  return {
    id: raw.id as string,
    platformId: raw.platform_id as string,
    agentId: raw.agent_id as string,
    customerId: raw.customer_id as string,
    platformCustomerId: raw.platform_customer_id as string,
    status: raw.status as AgentActionStatus,
    type: raw.type as AgentActionType,
    transferDetails: json<AgentTransferDetails>(raw.transfer_details),
    transactionId: (raw.transaction_id as string | null) ?? null,
    quoteId: (raw.quote_id as string | null) ?? null,
    rejectionReason: (raw.rejection_reason as string | null) ?? null,
    usageDay: raw.usage_day as string,
    usageMonth: raw.usage_month as string,
    usageAmount: amountFromColumn(raw.usage_amount as string),
    pendingSteps: json<TransferStep[]>(raw.pending_steps),
    policy: json<AgentPolicy>(raw.policy),
    usageCounted: raw.usage_counted === undefined || raw.usage_counted === null ? true : Boolean(raw.usage_counted),
    failureReason: (raw.failure_reason as string | null) ?? null,
    createdAt: new Date(raw.created_at as string),
    updatedAt: new Date(raw.updated_at as string),
  };
}

function toUsage(raw: Raw): StoredUsage {
  return {
    day: raw.day as string,
    month: raw.month as string,
    dailyCount: Number(raw.daily_count),
    dailySpend: amountFromColumn(raw.daily_spend as string),
    monthlySpend: amountFromColumn(raw.monthly_spend as string),
  };
}

/** Agents' actions and usage counters (payments' own tables). */
@Injectable()
export class AgentActionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The agent's counters under a row lock for the rest of the transaction, rolled over to `day`
   * and `month`: concurrent actions of one agent reserve one after the other.
   */
  async lockUsage(manager: EntityManager, platformId: string, agentId: string, day: string, month: string): Promise<UsageCounters> {
    await manager.query(`INSERT INTO agent_usage (agent_id, platform_id, day, month) VALUES ($1, $2, $3, $4) ON CONFLICT (agent_id) DO NOTHING`, [agentId, platformId, day, month]);
    const [raw] = await manager.query<Raw[]>(`SELECT * FROM agent_usage WHERE agent_id = $1 FOR UPDATE`, [agentId]);
    const stored = toUsage(raw);
    return {
      dailyCount: stored.day === day ? stored.dailyCount : 0,
      dailySpend: stored.day === day ? stored.dailySpend : 0n,
      monthlySpend: stored.month === month ? stored.monthlySpend : 0n,
    };
  }

  async saveUsage(manager: EntityManager, agentId: string, day: string, month: string, usage: UsageCounters): Promise<void> {
    await manager.query(`UPDATE agent_usage SET day = $2, month = $3, daily_count = $4, daily_spend = $5, monthly_spend = $6 WHERE agent_id = $1`, [
      agentId,
      day,
      month,
      usage.dailyCount,
      usage.dailySpend.toString(),
      usage.monthlySpend.toString(),
    ]);
  }

  /** Gives back what an action counted, in the day and month it counted it (a past period is left alone); nothing if it counted nothing. */
  async releaseUsage(manager: EntityManager, action: AgentActionRow): Promise<void> {
    if (!action.usageCounted) return;
    await manager.query(
      `UPDATE agent_usage SET
         daily_count = CASE WHEN day = $2 THEN GREATEST(daily_count - 1, 0) ELSE daily_count END,
         daily_spend = CASE WHEN day = $2 THEN GREATEST(daily_spend - $4, 0) ELSE daily_spend END,
         monthly_spend = CASE WHEN month = $3 THEN GREATEST(monthly_spend - $4, 0) ELSE monthly_spend END
       WHERE agent_id = $1`,
      [action.agentId, action.usageDay, action.usageMonth, action.usageAmount.toString()],
    );
  }

  async usageOf(platformId: string, agentIds: string[]): Promise<Array<StoredUsage & { agentId: string }>> {
    const rows = await this.dataSource.query<Raw[]>(`SELECT * FROM agent_usage WHERE platform_id = $1 AND agent_id = ANY($2)`, [platformId, agentIds]);
    return rows.map((raw) => ({ ...toUsage(raw), agentId: raw.agent_id as string }));
  }

  async insert(manager: EntityManager, row: Omit<AgentActionRow, 'createdAt' | 'updatedAt'>): Promise<void> {
    await manager.query(
      `INSERT INTO agent_action (id, platform_id, agent_id, customer_id, platform_customer_id, status, type, transfer_details, transaction_id,
         rejection_reason, usage_day, usage_month, usage_amount, pending_steps, quote_id, policy, usage_counted, failure_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        row.id,
        row.platformId,
        row.agentId,
        row.customerId,
        row.platformCustomerId,
        row.status,
        row.type,
        row.transferDetails === null ? null : JSON.stringify(row.transferDetails),
        row.transactionId,
        row.rejectionReason,
        row.usageDay,
        row.usageMonth,
        row.usageAmount.toString(),
        row.pendingSteps === null ? null : JSON.stringify(row.pendingSteps),
        row.quoteId,
        row.policy === null ? null : JSON.stringify(row.policy),
        row.usageCounted,
        row.failureReason,
      ],
    );
  }

  async find(platformId: string, id: string, manager: EntityManager = this.dataSource.manager, forUpdate = false): Promise<AgentActionRow | undefined> {
    const rows = await manager.query<Raw[]>(`SELECT * FROM agent_action WHERE platform_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [platformId, id]);
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  async findByTransaction(platformId: string, transactionId: string, manager: EntityManager = this.dataSource.manager): Promise<AgentActionRow | undefined> {
    const rows = await manager.query<Raw[]>(`SELECT * FROM agent_action WHERE platform_id = $1 AND transaction_id = $2`, [platformId, transactionId]);
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  async findByQuote(platformId: string, quoteId: string): Promise<AgentActionRow | undefined> {
    const rows = await this.dataSource.query<Raw[]>(`SELECT * FROM agent_action WHERE platform_id = $1 AND quote_id = $2`, [platformId, quoteId]);
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  async decide(manager: EntityManager, id: string, status: AgentActionStatus, rejectionReason: string | null): Promise<void> {
    await manager.query(`UPDATE agent_action SET status = $2, rejection_reason = $3, updated_at = now() WHERE id = $1`, [id, status, rejectionReason]);
  }

  /** The action FAILED for `reason`: it counts nothing (its usage was given back, or never counted). */
  async fail(manager: EntityManager, id: string, reason: string): Promise<void> {
    await manager.query(`UPDATE agent_action SET status = 'FAILED', failure_reason = $2, usage_counted = false, updated_at = now() WHERE id = $1`, [id, reason]);
  }

  /** The approved action's usage is counted now, in this day and month. */
  async countUsage(manager: EntityManager, id: string, day: string, month: string): Promise<void> {
    await manager.query(`UPDATE agent_action SET usage_counted = true, usage_day = $2, usage_month = $3, updated_at = now() WHERE id = $1`, [id, day, month]);
  }

  /** `limit + 1` rows (see toPage). */
  async list(platformId: string, filter: ActionFilter): Promise<AgentActionRow[]> {
    const { where, params } = actionConditions(platformId, filter, true);
    params.push(filter.limit);
    const rows = await this.dataSource.query<Raw[]>(`SELECT * FROM agent_action WHERE ${where} ORDER BY id ${filter.ascending ? 'ASC' : 'DESC'} LIMIT $${params.length}`, params);
    return rows.map(toRow);
  }

  /** How many actions match the filter, every page together (the cursor and limit left out). */
  async count(platformId: string, filter: ActionFilter): Promise<number> {
    const { where, params } = actionConditions(platformId, filter, false);
    const rows = await this.dataSource.query<{ count: string | number }[]>(`SELECT count(*) AS count FROM agent_action WHERE ${where}`, params);
    return Number(rows[0].count);
  }
}

/** The list's WHERE clause and its parameters, with or without the cursor. */
function actionConditions(platformId: string, filter: ActionFilter, withCursor: boolean): { where: string; params: unknown[] } {
  const where = ['platform_id = $1'];
  const params: unknown[] = [platformId];
  const add = (sql: string, value: unknown): void => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.agentId !== undefined) add('agent_id = ?', filter.agentId);
  if (filter.customerId !== undefined) add('customer_id = ?', filter.customerId);
  if (filter.status !== undefined) add('status = ?', filter.status);
  if (filter.from) add('created_at >= ?', filter.from);
  if (filter.until) add('created_at <= ?', filter.until);
  if (withCursor && filter.afterId !== undefined) add(filter.ascending ? 'id > ?' : 'id < ?', filter.afterId);
  return { where: where.join(' AND '), params };
}
