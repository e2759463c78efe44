import { Injectable } from '@nestjs/common';
import { AgentAction, AgentActionDecisionMessage, AgentActionRef, CallerContext, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { TransactionRunner } from '@paykit/persistence';
import { QuotesService } from '../../quotes/quotes.service';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransfersService } from '../../transfers/transfers.service';
import { AgentActionRow, AgentActionsRepository } from '../agent-actions.repository';
import { AgentActionOutcomes, failureReasonOf } from './agent-action-outcomes';
import { actionNotFound, AgentActionReader } from './agent-action-reader';

/** The checks of the moment an approval can fail (anything else is an error of the request or the service). */
const APPROVAL_REFUSALS = new Set<string>(['INVALID_AMOUNT', 'VELOCITY_LIMIT_EXCEEDED', 'CONFLICT', 'DAILY_VOLUME_LIMIT_EXCEEDED']);

/** The platform's approval or rejection of an action waiting for it (POST /agents/actions/{id}/approve, /reject, and a transfer's /transactions/{id}/approve). */
@Injectable()
export class DecideAgentAction {
  constructor(
    private readonly repository: AgentActionsRepository,
    private readonly transactions: TransactionRunner,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transfers: TransfersService,
    private readonly quotes: QuotesService,
    private readonly outcomes: AgentActionOutcomes,
    private readonly reader: AgentActionReader,
  ) {}

  approve(ctx: CallerContext, ref: AgentActionRef): Promise<AgentAction> {
    return this.decide(ctx, ref, 'APPROVED');
  }

  reject(ctx: CallerContext, ref: AgentActionDecisionMessage): Promise<AgentAction> {
    return this.decide(ctx, ref, 'REJECTED', ref.reason);
  }

  /**
   * POST /transactions/{id}/approve of a transfer an agent made: approves its action. Undefined
   * when no agent action holds the transaction (the caller then treats it as an incoming payment).
   */
  async approveTransaction(ctx: CallerContext, transactionId: string): Promise<Transaction | undefined> {
    const action = await this.repository.findByTransaction(ctx.platformId, transactionId);
    if (!action) return undefined;
    if (action.status !== 'PENDING_APPROVAL') {
      throw new ServiceError('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL', `Transaction ${transactionId} does not wait for the platform's approval`, { status: action.status });
    }
    await this.decide(ctx, { agentId: action.agentId, actionId: action.id }, 'APPROVED');
    return this.transfers.get(ctx, transactionId);
  }

  /**
   * One decision per action (its row is locked). Approving checks the action against the
   * moment: its usage is counted under the agent's limits, then a transfer is checked against
   * the customer's velocity limit and the balance, its funds held and its steps started (or the
   * action fails if the transfer ended meanwhile, e.g. cancelled); a quote executes after the
   * decision commits. A check that fails writes nothing of the approval: the action ends FAILED
   * with its reason and its transfer FAILED, nothing moved. Rejecting fails the transfer with
   * CANCELLED. Either way but APPROVED, the usage it counted (if any) is given back.
   */
  private async decide(ctx: CallerContext, ref: AgentActionRef, decision: 'APPROVED' | 'REJECTED', reason?: string): Promise<AgentAction> {
    let decided: AgentActionRow;
    try {
      decided = await this.record(ctx, ref, decision, reason);
    } catch (error) {
      if (decision !== 'APPROVED' || !(error instanceof ServiceError) || !APPROVAL_REFUSALS.has(error.code)) throw error;
      await this.outcomes.approvalRefused(ctx, ref.actionId, failureReasonOf(error));
      return this.reader.get(ctx, ref);
    }
    if (decided.type === 'EXECUTE_QUOTE' && decided.status === 'APPROVED') {
      try {
        await this.quotes.execute(ctx, { quoteId: decided.quoteId! });
      } catch (error) {
        // E.g. the quote expired while it waited, or the balance no longer covers it: the action fails, nothing moved.
        if (!(error instanceof ServiceError)) throw error;
        await this.outcomes.failed(ctx, decided.id, failureReasonOf(error));
      }
      return this.reader.get(ctx, ref);
    }
    return this.reader.resource(ctx, decided);
  }

  private record(ctx: CallerContext, ref: AgentActionRef, decision: 'APPROVED' | 'REJECTED', reason?: string): Promise<AgentActionRow> {
    return this.transactions.run(async (manager) => {
      const action = await this.repository.find(ctx.platformId, ref.actionId, manager, true);
      if (!action || action.agentId !== ref.agentId) throw actionNotFound(ref.actionId);
      if (action.status !== 'PENDING_APPROVAL') {
        throw new ServiceError('INVALID_STATE_TRANSITION', `Agent action ${action.id} is ${action.status}, not PENDING_APPROVAL`, { status: action.status });
      }
      if (action.type === 'EXECUTE_QUOTE') {
        // The quote executes after this decision commits (its execution is a transaction of its own).
        if (decision === 'APPROVED') await this.outcomes.countApproved(manager, ctx, action);
        await this.repository.decide(manager, action.id, decision, decision === 'REJECTED' ? (reason ?? null) : null);
        if (decision === 'REJECTED') await this.repository.releaseUsage(manager, action);
        return (await this.repository.find(ctx.platformId, action.id, manager))!;
      }
      const transaction = action.transactionId ? await this.transactionsRepo.findById(ctx.platformId, action.transactionId, manager, true) : undefined;
      const stillPending = transaction?.status === 'PENDING';
      if (decision === 'APPROVED' && stillPending) {
        await this.outcomes.countApproved(manager, ctx, action);
        await this.transfers.startApproved(manager, ctx.platformId, transaction.id, action.pendingSteps ?? []);
        await this.repository.decide(manager, action.id, 'APPROVED', null);
      } else if (decision === 'REJECTED') {
        if (stillPending) {
          await this.transfers.advance({ platformId: ctx.platformId, transactionId: transaction.id, status: 'FAILED', failureReason: 'CANCELLED', next: [] }, manager);
        }
        await this.repository.decide(manager, action.id, 'REJECTED', reason ?? null);
        await this.repository.releaseUsage(manager, action);
      } else {
        await this.repository.releaseUsage(manager, action);
        await this.repository.fail(manager, action.id, `TRANSACTION_${transaction?.status ?? 'MISSING'}`);
      }
      return (await this.repository.find(ctx.platformId, action.id, manager))!;
    });
  }
}
