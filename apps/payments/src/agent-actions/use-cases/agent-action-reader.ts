import { Injectable } from '@nestjs/common';
import {
  AgentAction,
  AgentActionRef,
  AgentExecuteQuoteMessage,
  AgentScope,
  AgentUsage,
  AgentUsageReply,
  amountToWire,
  CallerContext,
  ListAgentActionsMessage,
  Page,
  Quote,
  Transaction,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, pageLimit, toPage } from '@paykit/persistence';
import { QuotesService } from '../../quotes/quotes.service';
import { TransfersService } from '../../transfers/transfers.service';
import { AgentActionRow, AgentActionsRepository } from '../agent-actions.repository';
import { usagePeriod } from '../agent-policy';

const ACTION_CURSOR = idCursor('AgentAction');

export function actionNotFound(actionId: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Agent action ${actionId} not found`, { actionId });
}

/** GET and list of agent actions, an agent's usage, and the action as the API answers it (what every command answers with). */
@Injectable()
export class AgentActionReader {
  constructor(
    private readonly repository: AgentActionsRepository,
    private readonly transfers: TransfersService,
    private readonly quotes: QuotesService,
    private readonly clock: Clock,
  ) {}

  async get(ctx: CallerContext, ref: AgentActionRef): Promise<AgentAction> {
    const action = await this.repository.find(ctx.platformId, ref.actionId);
    if (!action || action.agentId !== ref.agentId) throw actionNotFound(ref.actionId);
    return this.resource(ctx, action);
  }

  async list(ctx: CallerContext, query: ListAgentActionsMessage): Promise<Page<AgentAction>> {
    const limit = pageLimit(query.limit);
    const filter = {
      agentId: query.agentId,
      customerId: query.customerId,
      status: query.status,
      from: query.startDate ? new Date(query.startDate) : undefined,
      until: query.endDate ? new Date(query.endDate) : undefined,
      ascending: query.sortOrder === 'asc',
      afterId: decodeCursor(query.cursor, ACTION_CURSOR),
      limit: limit + 1,
    };
    const [rows, totalCount] = await Promise.all([this.repository.list(ctx.platformId, filter), this.repository.count(ctx.platformId, filter)]);
    const page = toPage(rows, limit, (row) => row, ACTION_CURSOR);
    return { ...page, data: await Promise.all(page.data.map((row) => this.resource(ctx, row))), totalCount };
  }

  async usage(ctx: CallerContext, agentIds: string[]): Promise<AgentUsageReply> {
    const now = this.clock.now();
    const { day, month } = usagePeriod(now);
    const resets = resetDates(now);
    const stored = await this.repository.usageOf(ctx.platformId, agentIds);
    const usage: Record<string, AgentUsage> = {};
    for (const row of stored) {
      usage[row.agentId] = {
        dailyTransactionCount: row.day === day ? row.dailyCount : 0,
        dailySpend: row.day === day ? amountToWire(row.dailySpend) : 0,
        monthlySpend: row.month === month ? amountToWire(row.monthlySpend) : 0,
        ...resets,
      };
    }
    return { usage };
  }

  /** The action of a transfer answered under the Idempotency-Key: this agent's own, else the key was another's. */
  async answerFor(ctx: CallerContext, agent: AgentScope, transaction: Transaction): Promise<AgentAction> {
    const action = await this.repository.findByTransaction(ctx.platformId, transaction.id);
    if (!action || action.agentId !== agent.agentId) {
      throw new ServiceError('CONFLICT', 'This Idempotency-Key was used for a transfer that is not an action of this agent', { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    return this.resource(ctx, action);
  }

  /** A quote is submitted once: a repeated Idempotency-Key of its agent gets the action its first call recorded, anything else a conflict. */
  async alreadySubmitted(ctx: CallerContext, message: AgentExecuteQuoteMessage, submitted: AgentActionRow): Promise<AgentAction> {
    if (message.idempotencyKey !== undefined && submitted.agentId === message.agent.agentId) return this.resource(ctx, submitted);
    throw new ServiceError('CONFLICT', `Quote ${submitted.quoteId} was already submitted by an agent`, { quoteId: submitted.quoteId });
  }

  /** The action as the API answers it: its transaction once it was decided (not while waiting, nor once rejected). */
  async resource(ctx: CallerContext, action: AgentActionRow): Promise<AgentAction> {
    const shown = action.transactionId && (action.status === 'APPROVED' || action.status === 'FAILED');
    // A quote's transaction exists once it executed.
    const transaction = shown ? await this.transfers.get(ctx, action.transactionId!).catch(() => undefined) : undefined;
    const quote = action.quoteId ? await this.quotes.get({ ...ctx, agent: undefined }, action.quoteId) : undefined;
    return this.toResource(action, transaction, quote);
  }

  toResource(action: AgentActionRow, transaction: Transaction | undefined, quote?: Quote): AgentAction {
    return {
      id: action.id,
      agentId: action.agentId,
      customerId: action.customerId,
      platformCustomerId: action.platformCustomerId,
      status: action.status,
      type: action.type,
      ...(quote ? { quote } : {}),
      ...(action.transferDetails ? { transferDetails: action.transferDetails } : {}),
      ...(transaction ? { transaction } : {}),
      ...(action.rejectionReason !== null ? { rejectionReason: action.rejectionReason } : {}),
      ...(action.status === 'FAILED' && action.failureReason !== null ? { failureReason: action.failureReason } : {}),
      createdAt: action.createdAt.toISOString(),
      updatedAt: action.updatedAt.toISOString(),
    };
  }
}

/** When the UTC day and month counters next start over. */
function resetDates(now: Date): { dailyResetDate: string; monthlyResetMonth: string } {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { dailyResetDate: tomorrow.toISOString().slice(0, 10), monthlyResetMonth: nextMonth.toISOString().slice(0, 7) };
}
