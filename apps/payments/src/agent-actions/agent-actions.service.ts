import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  AGENT_ACTION_WEBHOOK_TYPES,
  AGENT_ACTIONS_EVENTS,
  AgentAction,
  AgentActionDecisionMessage,
  AgentActionRef,
  AgentActionType,
  AgentCreateQuoteMessage,
  AgentExecuteQuoteMessage,
  AgentScope,
  AgentTransferInMessage,
  AgentTransferOutMessage,
  AgentUsage,
  AgentUsageReply,
  amountToWire,
  CallerContext,
  CreateQuoteMessage,
  ListAgentActionsMessage,
  newId,
  Page,
  Quote,
  Transaction,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { decodeCursor, idCursor, isUniqueViolation, Outbox, pageLimit, toPage, TransactionRunner, Clock } from '@paykit/persistence';
import { isClientRetry, lockFingerprint } from '../client-retries';
import { accountNotFound } from '../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { QuotesService } from '../quotes/quotes.service';
import { TransactionsRepository } from '../transfers/transactions.repository';
import { TransfersService } from '../transfers/transfers.service';
import { CheckedTransfer, incoming, outgoing, TransferRequest } from '../transfers/use-cases/transfer-request';
import { AgentActionRow, AgentActionsRepository } from './agent-actions.repository';
import { ExchangeRatesService } from '../exchange-rates/exchange-rates.service';
import { amountsIn, evaluatePolicy, reserveUsage, usagePeriod } from './agent-policy';

const ACTION_CURSOR = idCursor('AgentAction');

/** A keyless immediately executed quote of an agent: its request's fingerprint, and whether the request is a client's retry. */
interface QuoteRequestFingerprint {
  fingerprint: string;
  retryOf?: { attempt: number };
}

/** A client's retry found, under the fingerprint's turn, the quote of the try it repeats: that quote answers, this call submits nothing. */
class RepeatedQuoteRequest extends Error {
  constructor(readonly quoteId: string) {
    super(`A client's retry of the request that created quote ${quoteId}`);
  }
}

function actionNotFound(actionId: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Agent action ${actionId} not found`, { actionId });
}

/**
 * Agents' money movements, checked against the policy the gateway sends with them where the
 * money moves: the policy checks that need no counter first, then, inside the transfer's own
 * database transaction (after its account lock), the usage reservation under the agent's
 * usage row lock, so concurrent actions never overrun a limit. An action that needs approval
 * waits PENDING_APPROVAL holding nothing and counting against no limit (the agents guide:
 * approval runs against the balance and limits of that moment); approving it checks the
 * usage, the customer's velocity limit and the balance then, holds the funds and starts the
 * transfer's steps, or, when a check fails, ends the action FAILED (`failureReason`) and its
 * transfer FAILED with nothing moved. Rejecting it fails the transfer.
 */
@Injectable()
export class AgentActionsService {
  constructor(
    private readonly repository: AgentActionsRepository,
    private readonly transfers: TransfersService,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly quotes: QuotesService,
    private readonly clock: Clock,
    private readonly rates: ExchangeRatesService,
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
    if ('earlier' in checked) return this.answerFor(ctx, agent, checked.earlier);
    const decision = evaluatePolicy(agent.policy, {
      internalAccountId: checked.account.id,
      amount: checked.amount,
      currency: checked.currency.code,
      amountIn: await this.amountsIn(agent, checked.amount, checked.currency.code),
    });
    const { day, month } = usagePeriod(this.clock.now());
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
        if (row.status === 'PENDING_APPROVAL') await this.announcePending(manager, row, undefined);
      },
    });
    // A concurrent first use of the Idempotency-Key (or the try a client's retry repeats) answers its transaction, whose action is not this call's.
    return this.answerFor(ctx, agent, moved);
  }

  /**
   * POST /agents/me/quotes with `immediatelyExecute`: the quote is created, then submitted as the
   * agent's action (`executeQuote`), and answered as GET returns it. Without an Idempotency-Key the
   * quote records its request's fingerprint (origin: the agent) in the transaction that submits it,
   * and a client's retry (`retryOf`) answers the most recent quote with that fingerprint of the
   * last 24 hours instead of creating and executing another (see client-retries.ts). A repeated
   * Idempotency-Key answers the quote its first call created and submitted.
   */
  async createQuote(ctx: CallerContext, message: AgentCreateQuoteMessage): Promise<Quote> {
    const { agent, quote: request } = message;
    const { immediatelyExecute, retryOf, ...rest } = request;
    const create = rest as CreateQuoteMessage;
    if (immediatelyExecute !== true) return this.quotes.create(ctx, create);
    // The agent's route is its own: a client's retry of it answers only this agent's earlier quote.
    const fingerprint = this.quotes.fingerprintOf(request, `agent:${agent.agentId}`);
    if (fingerprint && isClientRetry(retryOf)) {
      const earlier = await this.quotes.retried(ctx, fingerprint);
      if (earlier) return this.quotes.get(ctx, earlier.id);
    }
    const created = await this.quotes.create(ctx, create);
    // A repeated Idempotency-Key replayed the quote: submitted by its first call already.
    if (!(await this.repository.findByQuote(ctx.platformId, created.id))) {
      try {
        await this.submitQuote(ctx, { agent, quoteId: created.id }, fingerprint ? { fingerprint, retryOf } : undefined);
      } catch (error) {
        // The quote just created stays PENDING and expires; the retry answers the quote of the try it repeats.
        if (error instanceof RepeatedQuoteRequest) return this.quotes.get(ctx, error.quoteId);
        throw error;
      }
    }
    return this.quotes.get(ctx, created.id);
  }

  /**
   * An agent executes its customer's quote: checked against the policy with the quote's sending
   * amount, its usage reserved with the action; executed at once, or when the platform approves
   * (a quote that expired meanwhile then fails the action). A failed execution gives the usage back.
   */
  executeQuote(ctx: CallerContext, message: AgentExecuteQuoteMessage): Promise<AgentAction> {
    return this.submitQuote(ctx, message);
  }

  /**
   * `executeQuote`, for a quote created by a keyless request of the agent (`createQuote`): the
   * request's fingerprint is written on the quote in the transaction that submits it, under the
   * fingerprint's turn, so a client's retry that came while the try it repeats was still running
   * waits for it and answers its quote (RepeatedQuoteRequest). A submission whose execution fails
   * at once forgets the fingerprint: nothing moved, so a retry runs again.
   */
  private async submitQuote(ctx: CallerContext, message: AgentExecuteQuoteMessage, request?: QuoteRequestFingerprint): Promise<AgentAction> {
    const { agent } = message;
    const quote = await this.quotes.get(ctx, message.quoteId);
    const submitted = await this.repository.findByQuote(ctx.platformId, quote.id);
    if (submitted) return this.alreadySubmitted(ctx, message, submitted);
    if (quote.source.sourceType !== 'ACCOUNT' || !quote.source.accountId) {
      throw ServiceError.invalidInput([{ field: 'quoteId', message: 'a REALTIME_FUNDING quote executes when its payment instructions are paid' }]);
    }
    const account = await this.accounts.findById(ctx.platformId, quote.source.accountId);
    if (!account || account.customerId !== agent.customerId) throw new ServiceError('QUOTE_NOT_FOUND', `Quote ${quote.id} not found`);
    if (account.type === 'EMBEDDED_WALLET') {
      throw new ServiceError('FORBIDDEN', 'An agent cannot move money from an embedded wallet', { reason: 'EMBEDDED_WALLET', accountId: account.id });
    }
    // eslint-disable-next-line paykit/no-raw-bigint -- issue 39: this file is being split into use cases; the helper (amountFromWire) replaces it as the split lands
    const amount = BigInt(quote.totalSendingAmount);
    const currency = quote.sendingCurrency.code;
    const decision = evaluatePolicy(agent.policy, { internalAccountId: account.id, amount, currency, amountIn: await this.amountsIn(agent, amount, currency) });
    const { day, month } = usagePeriod(this.clock.now());
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
        if (row.status === 'PENDING_APPROVAL') await this.announcePending(manager, row, quote);
      });
    } catch (error) {
      // Another call submitted the quote after this one looked: answered as if it had come first.
      const first =
        isUniqueViolation(error, 'uq_agent_action_quote') || isUniqueViolation(error, 'uq_agent_action_transaction')
          ? await this.repository.findByQuote(ctx.platformId, quote.id)
          : undefined;
      if (!first) throw error;
      return this.alreadySubmitted(ctx, message, first);
    }
    if (!decision.requiresApproval) {
      try {
        await this.quotes.execute(ctx, { quoteId: quote.id, ...(message.idempotencyKey !== undefined ? { idempotencyKey: message.idempotencyKey } : {}) });
      } catch (error) {
        await this.failed(ctx, row.id, failureReasonOf(error));
        if (request) await this.quotes.recordFingerprint(undefined, ctx, quote.id, null);
        throw error;
      }
    }
    return this.get(ctx, { agentId: agent.agentId, actionId: row.id });
  }

  /** A quote is submitted once: a repeated Idempotency-Key of its agent gets the action its first call recorded, anything else a conflict. */
  private async alreadySubmitted(ctx: CallerContext, message: AgentExecuteQuoteMessage, submitted: AgentActionRow): Promise<AgentAction> {
    if (message.idempotencyKey !== undefined && submitted.agentId === message.agent.agentId) return this.resource(ctx, submitted);
    throw new ServiceError('CONFLICT', `Quote ${submitted.quoteId} was already submitted by an agent`, { quoteId: submitted.quoteId });
  }

  /** The action ended without moving money: FAILED for `reason`, and its usage given back. */
  private async failed(ctx: CallerContext, actionId: string, reason: string): Promise<void> {
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
  private async countApproved(manager: EntityManager, ctx: CallerContext, action: AgentActionRow): Promise<void> {
    if (action.usageCounted || action.policy === null) return;
    const { day, month } = usagePeriod(this.clock.now());
    const usage = await this.repository.lockUsage(manager, ctx.platformId, action.agentId, day, month);
    await this.repository.saveUsage(manager, action.agentId, day, month, reserveUsage(action.policy, usage, action.usageAmount));
    await this.repository.countUsage(manager, action.id, day, month);
  }

  /**
   * An approval refused by the checks of that moment: the action FAILED for `reason` and its
   * waiting transfer FAILED (INSUFFICIENT_FUNDS, the API's LIMIT_EXCEEDED; its webhook with it), nothing moved. A decision
   * that came first meanwhile stands.
   */
  private async approvalRefused(ctx: CallerContext, actionId: string, reason: string): Promise<void> {
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

  private async announcePending(manager: EntityManager, row: Omit<AgentActionRow, 'createdAt' | 'updatedAt'>, quote: Quote | undefined): Promise<void> {
    const now = this.clock.now();
    await this.outbox.add(manager, {
      subject: AGENT_ACTIONS_EVENTS.pendingApproval,
      platformId: row.platformId,
      resourceId: row.id,
      webhookType: AGENT_ACTION_WEBHOOK_TYPES.pendingApproval,
      data: this.toResource({ ...row, createdAt: now, updatedAt: now }, undefined, quote),
    });
  }

  /** A repeated Idempotency-Key: the action its first call recorded. */
  /** The action's amount in its policy's limit and threshold currencies, at the rate table's rates. */
  private amountsIn(agent: AgentScope, amount: bigint, currency: string): Promise<(target: string) => bigint | undefined> {
    return amountsIn(agent.policy, amount, currency, (value, source, target) => this.rates.convertRoundingUp(value, source, target));
  }

  /** The action of a transfer answered under the Idempotency-Key: this agent's own, else the key was another's. */
  private async answerFor(ctx: CallerContext, agent: AgentScope, transaction: Transaction): Promise<AgentAction> {
    const action = await this.repository.findByTransaction(ctx.platformId, transaction.id);
    if (!action || action.agentId !== agent.agentId) {
      throw new ServiceError('CONFLICT', 'This Idempotency-Key was used for a transfer that is not an action of this agent', { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    return this.resource(ctx, action);
  }

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
      await this.approvalRefused(ctx, ref.actionId, failureReasonOf(error));
      return this.get(ctx, ref);
    }
    if (decided.type === 'EXECUTE_QUOTE' && decided.status === 'APPROVED') {
      try {
        await this.quotes.execute(ctx, { quoteId: decided.quoteId! });
      } catch (error) {
        // E.g. the quote expired while it waited, or the balance no longer covers it: the action fails, nothing moved.
        if (!(error instanceof ServiceError)) throw error;
        await this.failed(ctx, decided.id, failureReasonOf(error));
      }
      return this.get(ctx, ref);
    }
    return this.resource(ctx, decided);
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
        if (decision === 'APPROVED') await this.countApproved(manager, ctx, action);
        await this.repository.decide(manager, action.id, decision, decision === 'REJECTED' ? (reason ?? null) : null);
        if (decision === 'REJECTED') await this.repository.releaseUsage(manager, action);
        return (await this.repository.find(ctx.platformId, action.id, manager))!;
      }
      const transaction = action.transactionId ? await this.transactionsRepo.findById(ctx.platformId, action.transactionId, manager, true) : undefined;
      const stillPending = transaction?.status === 'PENDING';
      if (decision === 'APPROVED' && stillPending) {
        await this.countApproved(manager, ctx, action);
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

  /** The action as the API answers it: its transaction once it was decided (not while waiting, nor once rejected). */
  private async resource(ctx: CallerContext, action: AgentActionRow): Promise<AgentAction> {
    const shown = action.transactionId && (action.status === 'APPROVED' || action.status === 'FAILED');
    // A quote's transaction exists once it executed.
    const transaction = shown ? await this.transfers.get(ctx, action.transactionId!).catch(() => undefined) : undefined;
    const quote = action.quoteId ? await this.quotes.get({ ...ctx, agent: undefined }, action.quoteId) : undefined;
    return this.toResource(action, transaction, quote);
  }

  private toResource(action: AgentActionRow, transaction: Transaction | undefined, quote?: Quote): AgentAction {
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

/** The checks of the moment an approval can fail (anything else is an error of the request or the service). */
const APPROVAL_REFUSALS = new Set<string>(['INVALID_AMOUNT', 'VELOCITY_LIMIT_EXCEEDED', 'CONFLICT', 'DAILY_VOLUME_LIMIT_EXCEEDED']);

/** Why an action failed, as its `failureReason`: the refusal's reason (INSUFFICIENT_FUNDS, ACCOUNT_NOT_ACTIVE...) or its code. */
function failureReasonOf(error: unknown): string {
  if (!(error instanceof ServiceError)) return 'EXECUTION_FAILED';
  const reason = error.details?.reason;
  return typeof reason === 'string' ? reason : error.code;
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

/** When the UTC day and month counters next start over. */
function resetDates(now: Date): { dailyResetDate: string; monthlyResetMonth: string } {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { dailyResetDate: tomorrow.toISOString().slice(0, 10), monthlyResetMonth: nextMonth.toISOString().slice(0, 7) };
}
