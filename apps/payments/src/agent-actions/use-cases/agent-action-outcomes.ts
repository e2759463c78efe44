import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AGENT_ACTION_WEBHOOK_TYPES, AGENT_ACTIONS_EVENTS, CallerContext, Quote } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, Outbox, TransactionRunner } from '@paykit/persistence';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransfersService } from '../../transfers/transfers.service';
import { AgentActionRow, AgentActionsRepository } from '../agent-actions.repository';
import { reserveUsage } from '../agent-policy';
import { AgentActionReader } from './agent-action-reader';
import { AgentPolicyCheck } from './agent-policy-check';

/** How an action ends or waits, shared by the submissions and the decisions: failed, counted once approved, refused at approval, announced pending. */
@Injectable()
export class AgentActionOutcomes {
  constructor(
    private readonly repository: AgentActionsRepository,
    private readonly transactions: TransactionRunner,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transfers: TransfersService,
    private readonly outbox: Outbox,
    private readonly reader: AgentActionReader,
    private readonly policy: AgentPolicyCheck,
    private readonly clock: Clock,
  ) {}

  /** The action ended without moving money: FAILED for `reason`, and its usage given back. */
  async failed(ctx: CallerContext, actionId: string, reason: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const action = (await this.repository.find(ctx.platformId, actionId, manager, true))!;
      await this.repository.releaseUsage(manager, action);
      await this.repository.fail(manager, action.id, reason);
    });
  }

  /**
   * The approved action counts now: its usage is checked against the limits of the policy it
   * was submitted under, with the counters of this moment, and reserved (VELOCITY_LIMIT_EXCEEDED
   * when another action consumed what it needed meanwhile).
   */
  async countApproved(manager: EntityManager, ctx: CallerContext, action: AgentActionRow): Promise<void> {
    if (action.usageCounted || action.policy === null) return;
    const { day, month } = this.policy.period();
    const usage = await this.repository.lockUsage(manager, ctx.platformId, action.agentId, day, month);
    await this.repository.saveUsage(manager, action.agentId, day, month, reserveUsage(action.policy, usage, action.usageAmount));
    await this.repository.countUsage(manager, action.id, day, month);
  }

  /**
   * An approval refused by the checks of that moment: the action FAILED for `reason` and its
   * waiting transfer FAILED (INSUFFICIENT_FUNDS, the API's LIMIT_EXCEEDED; its webhook with it), nothing moved. A decision
   * that came first meanwhile stands.
   */
  async approvalRefused(ctx: CallerContext, actionId: string, reason: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const action = await this.repository.find(ctx.platformId, actionId, manager, true);
      if (!action || action.status !== 'PENDING_APPROVAL') return;
      const transaction = action.transactionId ? await this.transactionsRepo.findById(ctx.platformId, action.transactionId, manager, true) : undefined;
      if (action.type !== 'EXECUTE_QUOTE' && transaction?.status === 'PENDING') {
        await this.transfers.advance({ platformId: ctx.platformId, transactionId: transaction.id, status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS', next: [] }, manager);
      }
      await this.repository.releaseUsage(manager, action);
      await this.repository.fail(manager, action.id, reason);
    });
  }

  async announcePending(manager: EntityManager, row: Omit<AgentActionRow, 'createdAt' | 'updatedAt'>, quote: Quote | undefined): Promise<void> {
    const now = this.clock.now();
    await this.outbox.add(manager, {
      subject: AGENT_ACTIONS_EVENTS.pendingApproval,
      platformId: row.platformId,
      resourceId: row.id,
      webhookType: AGENT_ACTION_WEBHOOK_TYPES.pendingApproval,
      data: this.reader.toResource({ ...row, createdAt: now, updatedAt: now }, undefined, quote),
    });
  }
}

/** Why an action failed, as its `failureReason`: the refusal's reason (INSUFFICIENT_FUNDS, ACCOUNT_NOT_ACTIVE...) or its code. */
export function failureReasonOf(error: unknown): string {
  if (!(error instanceof ServiceError)) return 'EXECUTION_FAILED';
  const reason = error.details?.reason;
  return typeof reason === 'string' ? reason : error.code;
}
