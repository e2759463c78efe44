import { Injectable } from '@nestjs/common';
import { AgentAction, AgentExecuteQuoteMessage, amountFromWire, CallerContext, newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, TransactionRunner } from '@paykit/persistence';
import { isClientRetry, lockFingerprint } from '../../client-retries';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { QuotesService } from '../../quotes/quotes.service';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { AgentActionRow, AgentActionsRepository } from '../agent-actions.repository';
import { evaluatePolicy, reserveUsage } from '../agent-policy';
import { AgentActionOutcomes, failureReasonOf } from './agent-action-outcomes';
import { AgentActionReader } from './agent-action-reader';
import { AgentPolicyCheck } from './agent-policy-check';

/** A keyless immediately executed quote of an agent: its request's fingerprint, and whether the request is a client's retry. */
export interface QuoteRequestFingerprint {
  fingerprint: string;
  retryOf?: { attempt: number };
}

/** A client's retry found, under the fingerprint's turn, the quote of the try it repeats: that quote answers, this call submits nothing. */
export class RepeatedQuoteRequest extends Error {
  constructor(readonly quoteId: string) {
    super(`A client's retry of the request that created quote ${quoteId}`);
  }
}

/**
 * An agent executes its customer's quote (POST /agents/me/quotes/{id}/execute): checked against
 * the policy with the quote's sending amount, its usage reserved with the action; executed at
 * once, or when the platform approves (a quote that expired meanwhile then fails the action). A
 * failed execution gives the usage back.
 */
@Injectable()
export class SubmitAgentQuote {
  constructor(
    private readonly repository: AgentActionsRepository,
    private readonly quotes: QuotesService,
    private readonly accounts: InternalAccountsRepository,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transactions: TransactionRunner,
    private readonly policy: AgentPolicyCheck,
    private readonly outcomes: AgentActionOutcomes,
    private readonly reader: AgentActionReader,
  ) {}

  /**
   * `executeQuote`, for a quote created by a keyless request of the agent (`createQuote`): the
   * request's fingerprint is written on the quote in the transaction that submits it, under the
   * fingerprint's turn, so a client's retry that came while the try it repeats was still running
   * waits for it and answers its quote (RepeatedQuoteRequest). A submission whose execution fails
   * at once forgets the fingerprint: nothing moved, so a retry runs again.
   */
  async run(ctx: CallerContext, message: AgentExecuteQuoteMessage, request?: QuoteRequestFingerprint): Promise<AgentAction> {
    const { agent } = message;
    const quote = await this.quotes.get(ctx, message.quoteId);
    const submitted = await this.repository.findByQuote(ctx.platformId, quote.id);
    if (submitted) return this.reader.alreadySubmitted(ctx, message, submitted);
    if (quote.source.sourceType !== 'ACCOUNT' || !quote.source.accountId) {
      throw ServiceError.invalidInput([{ field: 'quoteId', message: 'a REALTIME_FUNDING quote executes when its payment instructions are paid' }]);
    }
    const account = await this.accounts.findById(ctx.platformId, quote.source.accountId);
    if (!account || account.customerId !== agent.customerId) throw new ServiceError('QUOTE_NOT_FOUND', `Quote ${quote.id} not found`);
    if (account.type === 'EMBEDDED_WALLET') {
      throw new ServiceError('FORBIDDEN', 'An agent cannot move money from an embedded wallet', { reason: 'EMBEDDED_WALLET', accountId: account.id });
    }
    const amount = amountFromWire(quote.totalSendingAmount);
    const currency = quote.sendingCurrency.code;
    const decision = evaluatePolicy(agent.policy, { internalAccountId: account.id, amount, currency, amountIn: await this.policy.amountsIn(agent, amount, currency) });
    const { day, month } = this.policy.period();
    const platformCustomerId = (await this.transactionsRepo.findById(ctx.platformId, quote.transactionId))?.platformCustomerId ?? agent.customerId;
    const row: Omit<AgentActionRow, 'createdAt' | 'updatedAt'> = {
      id: newId('AgentAction'),
      platformId: ctx.platformId,
      agentId: agent.agentId,
      customerId: agent.customerId,
      platformCustomerId,
      status: decision.requiresApproval ? 'PENDING_APPROVAL' : 'APPROVED',
      type: 'EXECUTE_QUOTE',
      transferDetails: null,
      transactionId: quote.transactionId,
      quoteId: quote.id,
      rejectionReason: null,
      usageDay: day,
      usageMonth: month,
      usageAmount: decision.limitAmount,
      pendingSteps: null,
      policy: decision.requiresApproval ? agent.policy : null,
      usageCounted: !decision.requiresApproval,
      failureReason: null,
    };
    try {
      await this.transactions.run(async (manager) => {
        if (request) {
          await lockFingerprint(manager, ctx.platformId, request.fingerprint);
          const earlier = isClientRetry(request.retryOf) ? await this.quotes.retried(ctx, request.fingerprint, manager) : undefined;
          if (earlier) throw new RepeatedQuoteRequest(earlier.id);
          await this.quotes.recordFingerprint(manager, ctx, quote.id, request.fingerprint);
        }
        // Checked either way; counted only when the quote executes now (a waiting one counts when approved).
        const usage = await this.repository.lockUsage(manager, ctx.platformId, agent.agentId, day, month);
        const next = reserveUsage(agent.policy, usage, decision.limitAmount);
        if (!decision.requiresApproval) await this.repository.saveUsage(manager, agent.agentId, day, month, next);
        await this.repository.insert(manager, row);
        if (row.status === 'PENDING_APPROVAL') await this.outcomes.announcePending(manager, row, quote);
      });
    } catch (error) {
      // Another call submitted the quote after this one looked: answered as if it had come first.
      const first =
        isUniqueViolation(error, 'uq_agent_action_quote') || isUniqueViolation(error, 'uq_agent_action_transaction')
          ? await this.repository.findByQuote(ctx.platformId, quote.id)
          : undefined;
      if (!first) throw error;
      return this.reader.alreadySubmitted(ctx, message, first);
    }
    if (!decision.requiresApproval) {
      try {
        await this.quotes.execute(ctx, { quoteId: quote.id, ...(message.idempotencyKey !== undefined ? { idempotencyKey: message.idempotencyKey } : {}) });
      } catch (error) {
        await this.outcomes.failed(ctx, row.id, failureReasonOf(error));
        if (request) await this.quotes.recordFingerprint(undefined, ctx, quote.id, null);
        throw error;
      }
    }
    return this.reader.get(ctx, { agentId: agent.agentId, actionId: row.id });
  }
}
