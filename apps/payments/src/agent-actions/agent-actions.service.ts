import { Injectable } from '@nestjs/common';
import {
  AgentAction,
  AgentActionDecisionMessage,
  AgentActionRef,
  AgentCreateQuoteMessage,
  AgentExecuteQuoteMessage,
  AgentTransferInMessage,
  AgentTransferOutMessage,
  AgentUsageReply,
  CallerContext,
  ListAgentActionsMessage,
  Page,
  Quote,
  Transaction,
} from '@paykit/contracts';
import { AgentActionReader } from './use-cases/agent-action-reader';
import { CreateAgentQuote } from './use-cases/create-agent-quote';
import { DecideAgentAction } from './use-cases/decide-agent-action';
import { SubmitAgentQuote } from './use-cases/submit-agent-quote';
import { SubmitAgentTransfer } from './use-cases/submit-agent-transfer';

/**
 * Agents' money movements, checked against the policy the gateway sends with them where the
 * money moves: the policy checks that need no counter first, then, inside the transfer's own
 * database transaction (after its account lock), the usage reservation under the agent's
 * usage row lock, so concurrent actions never overrun a limit. An action that needs approval
 * waits PENDING_APPROVAL holding nothing and counting against no limit (the agents guide:
 * approval runs against the balance and limits of that moment); approving it checks the
 * usage, the customer's velocity limit and the balance then, holds the funds and starts the
 * transfer's steps, or, when a check fails, ends the action FAILED (`failureReason`) and its
 * transfer FAILED with nothing moved. Rejecting it fails the transfer. A facade of the use cases
 * in ./use-cases, for the handlers and incoming payments' approval.
 */
@Injectable()
export class AgentActionsService {
  constructor(
    private readonly submitTransfer: SubmitAgentTransfer,
    private readonly submitQuote: SubmitAgentQuote,
    private readonly createAgentQuote: CreateAgentQuote,
    private readonly decisions: DecideAgentAction,
    private readonly reader: AgentActionReader,
  ) {}

  transferOut(ctx: CallerContext, message: AgentTransferOutMessage): Promise<AgentAction> {
    return this.submitTransfer.transferOut(ctx, message);
  }

  transferIn(ctx: CallerContext, message: AgentTransferInMessage): Promise<AgentAction> {
    return this.submitTransfer.transferIn(ctx, message);
  }

  createQuote(ctx: CallerContext, message: AgentCreateQuoteMessage): Promise<Quote> {
    return this.createAgentQuote.run(ctx, message);
  }

  executeQuote(ctx: CallerContext, message: AgentExecuteQuoteMessage): Promise<AgentAction> {
    return this.submitQuote.run(ctx, message);
  }

  get(ctx: CallerContext, ref: AgentActionRef): Promise<AgentAction> {
    return this.reader.get(ctx, ref);
  }

  list(ctx: CallerContext, query: ListAgentActionsMessage): Promise<Page<AgentAction>> {
    return this.reader.list(ctx, query);
  }

  usage(ctx: CallerContext, agentIds: string[]): Promise<AgentUsageReply> {
    return this.reader.usage(ctx, agentIds);
  }

  approve(ctx: CallerContext, ref: AgentActionRef): Promise<AgentAction> {
    return this.decisions.approve(ctx, ref);
  }

  reject(ctx: CallerContext, ref: AgentActionDecisionMessage): Promise<AgentAction> {
    return this.decisions.reject(ctx, ref);
  }

  /** See DecideAgentAction.approveTransaction: undefined when no agent action holds the transaction. */
  approveTransaction(ctx: CallerContext, transactionId: string): Promise<Transaction | undefined> {
    return this.decisions.approveTransaction(ctx, transactionId);
  }
}
