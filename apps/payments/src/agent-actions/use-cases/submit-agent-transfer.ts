import { Injectable } from '@nestjs/common';
import { AgentAction, AgentActionType, AgentScope, AgentTransferInMessage, AgentTransferOutMessage, amountToWire, CallerContext, newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { accountNotFound } from '../../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { TransfersService } from '../../transfers/transfers.service';
import { CheckedTransfer, incoming, outgoing, TransferRequest } from '../../transfers/use-cases/transfer-request';
import { AgentActionRow, AgentActionsRepository } from '../agent-actions.repository';
import { evaluatePolicy, reserveUsage } from '../agent-policy';
import { AgentActionOutcomes } from './agent-action-outcomes';
import { AgentActionReader } from './agent-action-reader';
import { AgentPolicyCheck } from './agent-policy-check';

/**
 * An agent's transfer out or in, checked against its policy where the money moves: the checks that
 * need no counter first, then, inside the transfer's own database transaction (after its account
 * lock), the usage reservation under the agent's usage row lock. An action that needs approval
 * waits PENDING_APPROVAL holding nothing and counting against no limit.
 */
@Injectable()
export class SubmitAgentTransfer {
  constructor(
    private readonly repository: AgentActionsRepository,
    private readonly transfers: TransfersService,
    private readonly accounts: InternalAccountsRepository,
    private readonly policy: AgentPolicyCheck,
    private readonly outcomes: AgentActionOutcomes,
    private readonly reader: AgentActionReader,
  ) {}

  transferOut(ctx: CallerContext, message: AgentTransferOutMessage): Promise<AgentAction> {
    return this.submit(ctx, message.agent, 'TRANSFER_OUT', outgoing(message.transfer), 'source.accountId');
  }

  transferIn(ctx: CallerContext, message: AgentTransferInMessage): Promise<AgentAction> {
    return this.submit(ctx, message.agent, 'TRANSFER_IN', incoming(message.transfer), 'destination.accountId');
  }

  private async submit(ctx: CallerContext, agent: AgentScope, type: AgentActionType, request: TransferRequest, accountField: string): Promise<AgentAction> {
    // The agent's customer's accounts only: any other is unknown to it.
    const owned = await this.accounts.findById(ctx.platformId, request.internalAccountId);
    if (!owned || owned.customerId !== agent.customerId) throw accountNotFound(request.internalAccountId, { field: accountField });
    if (owned.type === 'EMBEDDED_WALLET') {
      // A wallet moves money only with a signature of the customer's session, which an agent does not hold.
      throw new ServiceError('FORBIDDEN', 'An agent cannot move money from or to an embedded wallet', { reason: 'EMBEDDED_WALLET', accountId: owned.id });
    }
    // The agent's route is its own: a client's retry of it answers only this agent's earlier transfer.
    const checked = await this.transfers.check(ctx, { ...request, origin: `agent:${agent.agentId}` });
    if ('earlier' in checked) return this.reader.answerFor(ctx, agent, checked.earlier);
    const decision = evaluatePolicy(agent.policy, {
      internalAccountId: checked.account.id,
      amount: checked.amount,
      currency: checked.currency.code,
      amountIn: await this.policy.amountsIn(agent, checked.amount, checked.currency.code),
    });
    const { day, month } = this.policy.period();
    const actionId = newId('AgentAction');
    const moved = await this.transfers.move(ctx, checked, {
      awaitApproval: decision.requiresApproval,
      beforeWrite: async (manager) => {
        // Checked either way (an action over a limit already is refused at once); counted only when it moves now.
        const usage = await this.repository.lockUsage(manager, ctx.platformId, agent.agentId, day, month);
        const next = reserveUsage(agent.policy, usage, decision.limitAmount);
        if (!decision.requiresApproval) await this.repository.saveUsage(manager, agent.agentId, day, month, next);
      },
      afterWrite: async (manager, transaction) => {
        const failed = transaction.status === 'FAILED';
        const row: Omit<AgentActionRow, 'createdAt' | 'updatedAt'> = {
          id: actionId,
          platformId: ctx.platformId,
          agentId: agent.agentId,
          customerId: agent.customerId,
          platformCustomerId: checked.platformCustomerId,
          status: failed ? 'FAILED' : decision.requiresApproval ? 'PENDING_APPROVAL' : 'APPROVED',
          type,
          transferDetails: transferDetails(type, checked),
          transactionId: transaction.id,
          quoteId: null,
          rejectionReason: null,
          usageDay: day,
          usageMonth: month,
          usageAmount: decision.limitAmount,
          pendingSteps: !failed && decision.requiresApproval && checked.outcome.kind === 'ACCEPTED' ? checked.outcome.steps : null,
          policy: decision.requiresApproval ? agent.policy : null,
          usageCounted: !decision.requiresApproval,
          failureReason: failed ? (transaction.failureReason ?? 'TRANSFER_FAILED') : null,
        };
        // Nothing moved: the action counts against no limit.
        if (failed) await this.repository.releaseUsage(manager, row as AgentActionRow);
        await this.repository.insert(manager, { ...row, usageCounted: row.usageCounted && !failed });
        if (row.status === 'PENDING_APPROVAL') await this.outcomes.announcePending(manager, row, undefined);
      },
    });
    // A concurrent first use of the Idempotency-Key (or the try a client's retry repeats) answers its transaction, whose action is not this call's.
    return this.reader.answerFor(ctx, agent, moved);
  }
}

function transferDetails(type: AgentActionType, checked: CheckedTransfer) {
  const out = type === 'TRANSFER_OUT';
  return {
    amount: amountToWire(checked.amount),
    currency: checked.currency.code,
    sourceAccountId: out ? checked.account.id : checked.external.id,
    destinationAccountId: out ? checked.external.id : checked.account.id,
  };
}
