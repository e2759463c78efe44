import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  AdviceReceivedData,
  amountFromWire,
  amountToWire,
  fitsOnWire,
  MAX_WIRE_AMOUNT,
  AuthorizationInterruptedData,
  CallerContext,
  CARD_CURRENCY_DETAILS,
  CardDeclineReason,
  CardMerchant,
  CARDS_EVENTS,
  CARDS_WORK_EVENTS,
  CardTransaction,
  CardTransactionType,
  cardTransactionWebhookType,
  Currency,
  CurrencyInput,
  ListCardTransactionsRequest,
  newId,
  NewEvent,
  Page,
  SandboxCardSimulationResponse,
  SearchCardTransactionsRequest,
  SimulateAdviceRequest,
  SimulateAuthorizationAdviceRequest,
  SimulateAuthorizationRequest,
  SimulateBalanceInquiryRequest,
  SimulateClearingRequest,
  SimulateReturnRequest,
  SimulateReturnReversalRequest,
  tenantContext,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, InsertWithEvent, JobScheduler, Outbox, pageLimit, ScheduleRequest, StatementBatcher, toPage, TransactionRunner } from '@paykit/persistence';
import { RUNTIME_CONFIG, RuntimeConfig, SandboxRules } from '@paykit/runtime';
import { cardNotFound } from '../cards/cards.errors';
import { CardsRepository, NetworkCard } from '../cards/cards.repository';
import { toCardTransaction } from './card-transaction.mapper';
import { CardTransactionsRepository, interruptionKeyOf } from './card-transactions.repository';
import { DELAYED_PULL_JOB, INTERRUPTED_AUTHORIZATION_JOB, InterruptedAuthorizationJob } from './card-network.jobs';
import { CardTransactionEntity } from './entities/card-transaction.entity';
import { isAccountRefusal, isInsufficientFunds, LedgerClient } from './ledger.client';
import { NETWORK_APPROVE, NetworkOutcome, sandboxNetworkOutcome } from './card-network.sandbox';

const CARD_TRANSACTION_CURSOR = idCursor('CardTransaction');

/**
 * How long after its money step starts an unrecorded authorization counts as interrupted, in RPC
 * timeouts: by then its caller has had an error, and the ledger call has long answered or failed.
 */
const INTERRUPTED_AFTER_RPC_TIMEOUTS = 3;

/** Two recording statements in flight of up to 32 transactions each, as the ledger's hold batches. */
const RECORDINGS_IN_FLIGHT = 2;
const MAX_RECORDING_BATCH = 32;

const CREDIT_TYPES: ReadonlySet<CardTransactionType> = new Set(['CREDIT_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE']);
/** Messages that spend: the card's per-transaction limit applies to them. */
const SPENDING_TYPES: ReadonlySet<CardTransactionType> = new Set(['AUTHORIZATION', 'FINANCIAL_AUTHORIZATION']);

/** One network message the issuer answers: an authorization of some kind. */
interface NetworkMessage {
  id: string;
  token: string;
  type: CardTransactionType;
  amount: bigint;
  currency: Currency;
  merchant: CardMerchant;
}

type MoneyResult = Partial<Pick<CardTransactionEntity, 'status' | 'holdId' | 'settledAmount' | 'settledAt' | 'declineReason' | 'exception'>>;

/**
 * The sandbox card network and the issuer's answers to it. Money moves only through the
 * payments ledger (holds, captures, releases, refunds), with caller keys derived from the card
 * transaction, and never inside one of this service's transactions: the ledger step runs
 * first, then the card transaction and its event commit together.
 */
@Injectable()
export class CardNetworkService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(CardNetworkService.name);
  /**
   * New card transactions with their events: those recorded together share one statement and
   * one commit (measured: a statement and a commit per authorization were most of the cards
   * database's CPU and a quarter of this process's, in socket writes).
   */
  private readonly recordings = new StatementBatcher<InsertWithEvent<CardTransactionEntity>, boolean>({
    maxInFlight: RECORDINGS_IN_FLIGHT,
    maxBatch: MAX_RECORDING_BATCH,
    keyOf: (recording) => recording.entity.id,
    run: (batch) => this.transactions.runStatement((manager) => this.outbox.addManyWithInserts(manager, this.cardTransactions.newRow, batch, this.cardTransactions.recordable)),
  });
  /** Interruption jobs of authorizations about to move money, committed before the ledger call, many in one statement. */
  private readonly interruptions = new StatementBatcher<ScheduleRequest<InterruptedAuthorizationJob>, void>({
    maxInFlight: RECORDINGS_IN_FLIGHT,
    maxBatch: MAX_RECORDING_BATCH,
    keyOf: (request) => request.dedupeKey!,
    run: async (batch) => {
      await this.scheduler.scheduleBatch(batch);
      return batch.map(() => undefined);
    },
  });

  constructor(
    private readonly cards: CardsRepository,
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly ledger: LedgerClient,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly scheduler: JobScheduler,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.interruptions.close(new ServiceError('SERVICE_UNAVAILABLE', 'The cards service is stopping'));
    await this.recordings.close(new ServiceError('SERVICE_UNAVAILABLE', 'The cards service is stopping'));
  }

  onModuleInit(): void {
    // The job only enqueues the pull: the ledger call runs in the worker, outside any transaction.
    this.scheduler.register(DELAYED_PULL_JOB, async ({ platformId, cardTransactionId }, manager) => {
      await this.outbox.add(manager, { subject: CARDS_WORK_EVENTS.pullDue, platformId, resourceId: cardTransactionId, data: { cardTransactionId } });
    });
    // Likewise: the undo of an interrupted authorization's money step runs in the worker.
    this.scheduler.register(INTERRUPTED_AUTHORIZATION_JOB, async ({ platformId, data }, manager) => {
      await this.outbox.add(manager, { subject: CARDS_WORK_EVENTS.authorizationInterrupted, platformId, resourceId: data.cardTransactionId, data });
    });
  }

  // ---- Reads ----

  async get(ctx: CallerContext, cardTransactionId: string): Promise<CardTransaction> {
    const entity = await this.cardTransactions.findById(ctx.platformId, cardTransactionId);
    if (!entity) throw transactionNotFound(cardTransactionId);
    return toCardTransaction(entity);
  }

  async list(ctx: CallerContext, request: ListCardTransactionsRequest): Promise<Page<CardTransaction>> {
    await this.requireCard(ctx.platformId, request.cardId);
    const limit = pageLimit(request.limit);
    const rows = await this.cardTransactions.list(ctx.platformId, request.cardId, {
      status: request.status,
      beforeId: decodeCursor(request.cursor, CARD_TRANSACTION_CURSOR),
      limit: limit + 1,
    });
    return toPage(rows, limit, toCardTransaction, CARD_TRANSACTION_CURSOR);
  }

  async search(ctx: CallerContext, request: SearchCardTransactionsRequest): Promise<Page<CardTransaction>> {
    const limit = pageLimit(request.limit);
    const filter = {
      accountId: request.accountId,
      customerId: request.customerId,
      platformCustomerId: request.platformCustomerId,
      status: request.status,
      createdAfter: request.createdAfter !== undefined ? new Date(request.createdAfter) : undefined,
      createdBefore: request.createdBefore !== undefined ? new Date(request.createdBefore) : undefined,
    };
    const [rows, totalCount] = await Promise.all([
      this.cardTransactions.search(ctx.platformId, {
        ...filter,
        afterId: decodeCursor(request.cursor, CARD_TRANSACTION_CURSOR),
        ascending: request.sortOrder === 'asc',
        limit: limit + 1,
      }),
      this.cardTransactions.count(ctx.platformId, filter),
    ]);
    return { ...toPage(rows, limit, toCardTransaction, CARD_TRANSACTION_CURSOR), totalCount };
  }

  // ---- Simulators ----

  async authorize(ctx: CallerContext, request: SimulateAuthorizationRequest): Promise<CardTransaction> {
    this.assertSandbox(ctx);
    const card = await this.requireCard(ctx.platformId, request.cardId);
    const { amount, currency } = inCardCurrency(card, request.currency, amountFromWire(request.amount));
    const id = newId('CardTransaction');
    const message: NetworkMessage = { id, token: issuerTokenOf(id), type: request.type, amount, currency, merchant: merchantOf(request.merchant) };
    return toCardTransaction(await this.answer(ctx, card, message));
  }

  /** A zero-amount authorization: decided like any authorization (card state, descriptor table); no money moves. */
  async balanceInquiry(ctx: CallerContext, request: SimulateBalanceInquiryRequest): Promise<SandboxCardSimulationResponse> {
    this.assertSandbox(ctx);
    const card = await this.requireCard(ctx.platformId, request.cardId);
    const id = newId('CardTransaction');
    const message: NetworkMessage = { id, token: issuerTokenOf(id), type: 'BALANCE_INQUIRY', amount: 0n, currency: cardCurrencyOf(card), merchant: merchantOf(request.merchant) };
    const entity = await this.answer(ctx, card, message);
    return { issuerTransactionToken: entity.issuerTransactionToken };
  }

  /**
   * An authorization advice re-sizes an open authorization to a new total. The network does not
   * ask: the new total is recorded whatever the balance. Its hold follows when the funds allow (a
   * new hold for the total is placed first, then the old one released); otherwise the old hold
   * stays and the clearing pulls the difference (the over-authorization path).
   */
  async adviseAuthorization(ctx: CallerContext, request: SimulateAuthorizationAdviceRequest): Promise<SandboxCardSimulationResponse> {
    this.assertSandbox(ctx);
    const entity = await this.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    if (!isOpenAuthorization(entity)) throw notAdjustable(entity, 'only an open authorization (CONFIRMED, not yet cleared) can be re-sized');
    const amount = amountFromWire(request.amount);
    if (amount === entity.authorizedAmount) return { issuerTransactionToken: entity.issuerTransactionToken };
    const sequence = await this.transactions.run((manager) => this.cardTransactions.reserveAdjustment(manager, ctx.platformId, entity.id, ['CONFIRMED', 'EXCEPTION']));
    if (sequence === undefined) throw notAdjustable(entity, 'it changed meanwhile');
    let holdId = entity.holdId!;
    try {
      const hold = await this.ledger.hold(ctx, entity.id, `advice-${sequence}`, entity.accountId, amount, entity.currency.code);
      holdId = hold.id;
    } catch (error) {
      if (!isInsufficientFunds(error) && !isAccountRefusal(error)) throw error;
    }
    const resized = await this.transactions.run(async (manager) => {
      const next = await this.cardTransactions.transition(manager, entity, ['CONFIRMED', 'EXCEPTION'], { authorizedAmount: amount, holdId });
      if (next) await this.announce(manager, next);
      return next;
    });
    if (!resized) {
      // Cleared or expired meanwhile: the new hold goes back, the authorization keeps its own.
      if (holdId !== entity.holdId) await this.ledger.release(ctx, entity.id, holdId, `advice-${sequence}-release`);
      throw notAdjustable(entity, 'it changed meanwhile');
    }
    if (holdId !== entity.holdId) await this.ledger.release(ctx, entity.id, entity.holdId!, `advice-${sequence}-release`);
    return { issuerTransactionToken: entity.issuerTransactionToken };
  }

  /**
   * A return reversal undoes the returns of a REFUNDED debit: the refunded amount is taken from
   * the funding source again (a new hold, captured at once) and the transaction is SETTLED again
   * with nothing refunded. When the funding source no longer covers it, the transaction goes to
   * EXCEPTION (RETURN_REVERSAL_FAILED), the high-urgency alert, and stays refunded.
   */
  async reverseReturn(ctx: CallerContext, request: SimulateReturnReversalRequest): Promise<SandboxCardSimulationResponse> {
    this.assertSandbox(ctx);
    const entity = await this.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    if (entity.status !== 'REFUNDED' || entity.direction !== 'DEBIT') throw notAdjustable(entity, 'only a REFUNDED debit has a return to reverse');
    const sequence = await this.transactions.run((manager) => this.cardTransactions.reserveAdjustment(manager, ctx.platformId, entity.id, ['REFUNDED']));
    if (sequence === undefined) throw notAdjustable(entity, 'it changed meanwhile');
    const amount = entity.refundedAmount;
    let changes: Partial<CardTransactionEntity>;
    try {
      const hold = await this.ledger.hold(ctx, entity.id, `reversal-${sequence}`, entity.accountId, amount, entity.currency.code);
      await this.ledger.capture(ctx, entity.id, `reversal-${sequence}-capture`, hold.id, amount);
      // Later returns refund the reversal's capture, which holds the whole settled amount again.
      changes = { status: 'SETTLED', refundedAmount: 0n, holdId: hold.id };
    } catch (error) {
      if (!isInsufficientFunds(error) && !isAccountRefusal(error)) throw error;
      changes = {
        status: 'EXCEPTION',
        exception: { urgency: 'HIGH', reason: 'RETURN_REVERSAL_FAILED', message: `The reversed return of ${amount} could not be taken from the funding source` },
      };
    }
    await this.finish(entity, ['REFUNDED'], changes);
    return { issuerTransactionToken: entity.issuerTransactionToken };
  }

  /** The advice is accepted now; the card operation it causes is announced later, through events only. */
  async advise(ctx: CallerContext, request: SimulateAdviceRequest): Promise<SandboxCardSimulationResponse> {
    this.assertSandbox(ctx);
    const card = await this.requireCard(ctx.platformId, request.cardId);
    const { amount, currency } = inCardCurrency(card, request.currency, amountFromWire(request.amount));
    const cardTransactionId = newId('CardTransaction');
    const issuerTransactionToken = issuerTokenOf(cardTransactionId);
    await this.transactions.run(async (manager) => {
      await this.outbox.add(manager, {
        subject: CARDS_WORK_EVENTS.adviceReceived,
        platformId: ctx.platformId,
        resourceId: cardTransactionId,
        data: { cardId: card.id, cardTransactionId, issuerTransactionToken, amount: amountToWire(amount), currency, merchant: merchantOf(request.merchant) },
      });
    });
    return { issuerTransactionToken };
  }

  async clear(ctx: CallerContext, request: SimulateClearingRequest): Promise<CardTransaction> {
    this.assertSandbox(ctx);
    const entity = await this.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    const amount = amountFromWire(request.amount);
    if (entity.type !== 'AUTHORIZATION') throw notClearable(entity, `a ${entity.type} is not cleared separately`);
    const open = (entity.status === 'CONFIRMED' || entity.status === 'EXCEPTION') && entity.holdId !== null && entity.settledAt === null;
    if (open) {
      if (amount === 0n) return toCardTransaction(await this.expire(ctx, entity, 'AUTHORIZATION_EXPIRY', ['CONFIRMED', 'EXCEPTION']));
      return toCardTransaction(await this.settle(ctx, entity, amount));
    }
    // A clearing after the authorization ended (card closed, or expired): the force-post path.
    if (entity.status === 'EXPIRED' && amount > 0n) return toCardTransaction(await this.forcePost(ctx, entity, amount));
    throw notClearable(entity, amount === 0n ? 'there is no open authorization to expire' : `it is ${entity.status}`);
  }

  async return(ctx: CallerContext, request: SimulateReturnRequest): Promise<CardTransaction> {
    this.assertSandbox(ctx);
    const entity = await this.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    if (entity.direction !== 'DEBIT' || entity.status !== 'SETTLED' || entity.holdId === null) {
      throw new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} is ${entity.status} ${entity.direction}; only a settled debit can be returned`);
    }
    const amount = amountFromWire(request.amount);
    // The reservation keeps concurrent returns within the settled amount.
    const sequence = await this.transactions.run((manager) => this.cardTransactions.reserveReturn(manager, ctx.platformId, entity.id, amount));
    if (sequence === undefined) {
      const current = (await this.cardTransactions.findById(ctx.platformId, entity.id))!;
      if (current.status !== 'SETTLED') throw new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} is ${current.status}`);
      const left = current.settledAmount - current.refundedAmount;
      throw new ServiceError('AMOUNT_OUT_OF_RANGE', `At most ${left} is left to return on card transaction ${entity.id}`, { field: 'amount', maximum: amountToWire(left) });
    }
    try {
      await this.ledger.refund(ctx, entity.id, sequence, entity.holdId, amount);
    } catch (error) {
      // Compensation: the reservation is given back when the ledger refused the refund.
      await this.transactions.run((manager) => this.cardTransactions.cancelReturn(manager, ctx.platformId, entity.id, amount));
      throw error;
    }
    return toCardTransaction(
      await this.transactions.run(async (manager) => {
        const current = (await this.cardTransactions.findById(ctx.platformId, entity.id, manager))!;
        const full = current.refundedAmount === current.settledAmount;
        const next = full ? ((await this.cardTransactions.transition(manager, current, ['SETTLED'], { status: 'REFUNDED' })) ?? current) : current;
        await this.announce(manager, next);
        return next;
      }),
    );
  }

  // ---- The worker's steps (CARDS_WORK_EVENTS), each idempotent ----

  /** A delayed pull (descriptor 005) is due: move the money, then confirm. */
  async completeDelayedPull(platformId: string, cardTransactionId: string): Promise<void> {
    const entity = await this.cardTransactions.findById(platformId, cardTransactionId);
    if (!entity || entity.status !== 'PENDING') return;
    const ctx = tenantContext(platformId, `pull:${cardTransactionId}`);
    if (entity.direction === 'CREDIT' && !(await this.transactions.run((manager) => this.cardTransactions.claimCredit(manager, platformId, entity.id)))) return;
    const outcome = this.networkOutcome(ctx, entity.merchant.descriptor);
    const result = await this.moveMoney(ctx, entity, outcome);
    const next = await this.transactions.run(async (manager) => {
      const moved = await this.cardTransactions.transition(manager, entity, ['PENDING'], result);
      if (moved) await this.announce(manager, moved);
      return moved;
    });
    // The card closed meanwhile and the pull lost the race: its hold goes back.
    if (!next && result.holdId && !result.settledAt) await this.ledger.release(ctx, entity.id, result.holdId);
  }

  /** A closed card's open authorizations reconcile to a terminal state. */
  async reconcileClosedCard(platformId: string, cardId: string): Promise<void> {
    const ctx = tenantContext(platformId, `close:${cardId}`);
    for (const entity of await this.cardTransactions.openOfCard(platformId, cardId)) {
      if (entity.status === 'PENDING') {
        await this.transactions.run(async (manager) => {
          const declined = await this.cardTransactions.transition(manager, entity, ['PENDING'], { status: 'DECLINED', declineReason: 'CARD_CLOSED' });
          if (declined) await this.announce(manager, declined);
        });
      } else if (entity.type === 'AUTHORIZATION' && entity.holdId !== null && entity.settledAt === null) {
        await this.expire(ctx, entity, 'CARD_CLOSED', [entity.status as 'CONFIRMED' | 'EXCEPTION']);
      }
    }
  }

  /** The card operation an advice causes; the advice's token identifies it (a redelivery finds it done). */
  async applyAdvice(platformId: string, data: AdviceReceivedData): Promise<void> {
    if (await this.cardTransactions.findById(platformId, data.cardTransactionId)) return;
    const card = await this.cards.findForNetwork(platformId, data.cardId);
    if (!card) return;
    const ctx = tenantContext(platformId, `advice:${data.cardTransactionId}`);
    await this.answer(ctx, card, {
      id: data.cardTransactionId,
      token: data.issuerTransactionToken,
      type: 'CREDIT_AUTHORIZATION_ADVICE',
      amount: amountFromWire(data.amount),
      currency: data.currency,
      merchant: data.merchant,
    });
  }

  // ---- Steps ----

  /** The issuer's answer to a network message: card state first, then the sandbox descriptor table, then the ledger. */
  private async answer(ctx: CallerContext, card: NetworkCard, message: NetworkMessage): Promise<CardTransactionEntity> {
    const now = this.clock.now();
    const entity: CardTransactionEntity = {
      id: message.id,
      platformId: ctx.platformId,
      cardId: card.id,
      customerId: card.cardholderId,
      platformCustomerId: card.platformCustomerId,
      // v1: only the first funding source takes part in authorization decisions.
      accountId: card.accountId ?? '',
      issuerTransactionToken: message.token,
      type: message.type,
      direction: CREDIT_TYPES.has(message.type) ? 'CREDIT' : 'DEBIT',
      status: 'PENDING',
      merchant: message.merchant,
      currency: message.currency,
      authorizedAmount: message.amount,
      settledAmount: 0n,
      refundedAmount: 0n,
      returnCount: 0,
      adjustmentCount: 0,
      holdId: null,
      declineReason: null,
      expiryReason: null,
      exception: null,
      forcePosted: false,
      creditClaimedAt: null,
      authorizedAt: now,
      settledAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const outcome = this.networkOutcome(ctx, message.merchant.descriptor);
    const decline = stateDecline(card) ?? limitDecline(card, message) ?? (outcome.kind === 'DECLINE' ? outcome.reason : undefined);
    if (decline) return this.record({ ...entity, status: 'DECLINED', declineReason: decline });
    // Nothing to hold or pull: an approved balance inquiry is done at once.
    if (message.type === 'BALANCE_INQUIRY') return this.record({ ...entity, status: 'SETTLED', settledAt: now });
    if (outcome.kind === 'DELAYED_PULL') {
      return this.record(entity, async (manager) => {
        await this.scheduler.schedule(manager, {
          kind: DELAYED_PULL_JOB,
          platformId: ctx.platformId,
          payload: { platformId: ctx.platformId, cardTransactionId: entity.id },
          delayMs: outcome.delayMs,
          sandboxDelay: true,
          dedupeKey: `${entity.id}:pull`,
        });
      });
    }
    if (entity.direction === 'CREDIT') {
      // Recorded (and claimed) before the money moves: a credit happens at most once. A second
      // delivery of the same message stops here; the first one moves the money.
      const recorded = await this.transactions.run((manager) => this.cardTransactions.insertIfNew(manager, { ...entity, creditClaimedAt: now }));
      if (!recorded) return (await this.cardTransactions.findById(ctx.platformId, entity.id)) ?? entity;
      return this.finish(entity, ['PENDING'], await this.moveMoney(ctx, entity, outcome));
    }
    // Durable before any money moves: should this authorization not be recorded (this process
    // dies before its recording commits, or it is held up past the job's time), the job undoes the
    // ledger step by the same caller keys. Recording it deletes the job.
    const interruption = this.interruptionOf(ctx, entity);
    await this.interruptions.add(interruption);
    const result = await this.moveMoney(ctx, entity, outcome);
    const holdOpen = result.holdId !== undefined && !result.settledAt;
    let recorded: boolean;
    try {
      recorded = await this.recordGroupCommitted({ ...entity, ...result }, { guarded: true });
    } catch (error) {
      // Compensation: a hold whose card transaction could not be recorded is released (and the
      // interruption job, still scheduled, undoes whatever this could not).
      if (holdOpen) await this.ledger.release(ctx, entity.id, result.holdId!).catch(() => undefined);
      throw error;
    }
    if (recorded) return { ...entity, ...result };
    const current = await this.cards.findForNetwork(ctx.platformId, card.id);
    if (holdOpen && current?.state === 'CLOSED') {
      // The card closed while the hold was placed, after its open authorizations were reconciled: the hold goes back.
      await this.ledger.release(ctx, entity.id, result.holdId!);
      return this.record({ ...entity, status: 'DECLINED', declineReason: 'CARD_CLOSED' });
    }
    // Its interruption job ran first: the authorization never happened, its money step is undone.
    await this.undoInterrupted(ctx.platformId, interruption.payload.data);
    throw new ServiceError('SERVICE_UNAVAILABLE', 'The authorization was interrupted; no money moved');
  }

  private interruptionOf(ctx: CallerContext, entity: CardTransactionEntity): ScheduleRequest<InterruptedAuthorizationJob> {
    const data: AuthorizationInterruptedData = {
      cardTransactionId: entity.id,
      environment: ctx.environment,
      accountId: entity.accountId,
      amount: amountToWire(entity.authorizedAmount),
      currency: entity.currency.code,
    };
    return {
      kind: INTERRUPTED_AUTHORIZATION_JOB,
      payload: { platformId: ctx.platformId, data },
      delayMs: INTERRUPTED_AFTER_RPC_TIMEOUTS * this.config.rpcTimeoutMs,
      dedupeKey: interruptionKeyOf(entity.id),
    };
  }

  /**
   * Undoes the money step of an authorization that was never recorded, by the caller keys it
   * used: asking for its hold again answers the hold it placed (or places it, if the first ask
   * never reached the ledger), which is then released, or refunded if it was captured (a
   * financial authorization). Idempotent: a second undo finds it done.
   */
  async undoInterrupted(platformId: string, data: AuthorizationInterruptedData): Promise<void> {
    const ctx = tenantContext(platformId, `interrupted:${data.cardTransactionId}`);
    let hold;
    try {
      hold = await this.ledger.hold(ctx, data.cardTransactionId, 'hold', data.accountId, amountFromWire(data.amount), data.currency);
    } catch (error) {
      // Nothing was held, nor can be: nothing to undo.
      if (isInsufficientFunds(error) || isAccountRefusal(error)) return;
      throw error;
    }
    if (hold.status === 'PENDING') await this.ledger.release(ctx, data.cardTransactionId, hold.id);
    else if (hold.status === 'CAPTURED' && hold.capturedAmount > hold.refundedAmount) {
      await this.ledger.refund(ctx, data.cardTransactionId, 0, hold.id, amountFromWire(hold.capturedAmount) - amountFromWire(hold.refundedAmount));
    }
  }

  /** Pulls (or credits) the money of an approved message; a failed pull is the INSUFFICIENT_FUNDS decline. */
  private async moveMoney(ctx: CallerContext, entity: CardTransactionEntity, outcome: NetworkOutcome): Promise<MoneyResult> {
    const amount = entity.authorizedAmount;
    const currency = entity.currency.code;
    const exception = outcome.kind === 'CONFIRMATION_FAILED' ? confirmationFailed() : null;
    try {
      if (entity.direction === 'CREDIT') {
        await this.ledger.credit(ctx, entity.accountId, amount);
        return { status: exception ? 'EXCEPTION' : 'SETTLED', settledAmount: amount, settledAt: this.clock.now(), exception };
      }
      const hold = await this.ledger.hold(ctx, entity.id, 'hold', entity.accountId, amount, currency);
      if (entity.type === 'FINANCIAL_AUTHORIZATION') {
        // Single-message: authorized and posted at once.
        await this.ledger.capture(ctx, entity.id, 'capture', hold.id, amount);
        return { status: exception ? 'EXCEPTION' : 'SETTLED', holdId: hold.id, settledAmount: amount, settledAt: this.clock.now(), exception };
      }
      return { status: exception ? 'EXCEPTION' : 'CONFIRMED', holdId: hold.id, exception };
    } catch (error) {
      if (isInsufficientFunds(error)) return { status: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' };
      if (isAccountRefusal(error)) return { status: 'DECLINED', declineReason: 'FUNDING_SOURCE_UNAVAILABLE' };
      throw error;
    }
  }

  /** Posts a clearing: capture of the hold; above the authorized amount the ledger pulls the excess from the available balance. */
  private async settle(ctx: CallerContext, entity: CardTransactionEntity, amount: bigint): Promise<CardTransactionEntity> {
    let settledAmount = amount;
    let exception = entity.exception;
    try {
      await this.ledger.capture(ctx, entity.id, 'capture', entity.holdId!, amount);
    } catch (error) {
      if (!isInsufficientFunds(error) || amount <= entity.authorizedAmount) throw error;
      // The excess could not be pulled: post what was authorized and raise the exception.
      settledAmount = entity.authorizedAmount;
      await this.ledger.capture(ctx, entity.id, 'capture-authorized', entity.holdId!, settledAmount);
      exception = { urgency: 'HIGH', reason: 'EXCESS_PULL_FAILED', message: `The excess ${amount - settledAmount} over the authorized amount could not be pulled` };
    }
    return this.finish(entity, ['CONFIRMED', 'EXCEPTION'], {
      status: exception && exception.reason === 'EXCESS_PULL_FAILED' ? 'EXCEPTION' : 'SETTLED',
      settledAmount,
      settledAt: this.clock.now(),
      exception,
    });
  }

  /** The authorization ends without a clearing: its hold is released. */
  private async expire(
    ctx: CallerContext,
    entity: CardTransactionEntity,
    reason: 'AUTHORIZATION_EXPIRY' | 'CARD_CLOSED',
    from: Array<'CONFIRMED' | 'EXCEPTION'>,
  ): Promise<CardTransactionEntity> {
    await this.ledger.release(ctx, entity.id, entity.holdId!);
    return this.finish(entity, from, { status: 'EXPIRED', expiryReason: reason });
  }

  /** A late clearing without a live hold: hold and capture the cleared amount at once. */
  private async forcePost(ctx: CallerContext, entity: CardTransactionEntity, amount: bigint): Promise<CardTransactionEntity> {
    try {
      const hold = await this.ledger.hold(ctx, entity.id, 'force-hold', entity.accountId, amount, entity.currency.code);
      await this.ledger.capture(ctx, entity.id, 'force-capture', hold.id, amount);
      return await this.finish(entity, ['EXPIRED'], { status: 'SETTLED', holdId: hold.id, forcePosted: true, settledAmount: amount, settledAt: this.clock.now() });
    } catch (error) {
      if (!isInsufficientFunds(error)) throw error;
      return this.finish(entity, ['EXPIRED'], {
        status: 'EXCEPTION',
        forcePosted: true,
        exception: { urgency: 'HIGH', reason: 'FORCE_POST_FAILED', message: `The late clearing of ${amount} could not be posted: insufficient funds` },
      });
    }
  }

  private async finish(
    entity: CardTransactionEntity,
    from: CardTransactionEntity['status'][],
    changes: Partial<Omit<CardTransactionEntity, 'id' | 'platformId'>>,
  ): Promise<CardTransactionEntity> {
    return this.transactions.run(async (manager) => {
      const next = await this.cardTransactions.transition(manager, entity, from, changes);
      if (!next) {
        const current = (await this.cardTransactions.findById(entity.platformId, entity.id, manager))!;
        throw new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} changed meanwhile (now ${current.status})`);
      }
      await this.announce(manager, next);
      return next;
    });
  }

  private async record(entity: CardTransactionEntity, also?: (manager: EntityManager) => Promise<void>): Promise<CardTransactionEntity> {
    if (!also) {
      await this.recordGroupCommitted(entity);
      return entity;
    }
    return this.transactions.run(async (manager) => {
      await this.cardTransactions.insert(manager, entity);
      await this.announce(manager, entity);
      await also(manager);
      return entity;
    });
  }

  /** The new transaction and its event, group-committed with the others of the moment (the authorization path); false when the guard kept it out. */
  /** `guarded`: its money moved (it has an interruption job, and a hold that an open card must keep). */
  private recordGroupCommitted(entity: CardTransactionEntity, options: { guarded?: boolean } = {}): Promise<boolean> {
    return this.recordings.add({ entity, event: statusEventOf(entity), guarded: options.guarded === true });
  }

  private async announce(manager: EntityManager, entity: CardTransactionEntity): Promise<void> {
    await this.outbox.add(manager, statusEventOf(entity));
  }

  /** The descriptor suffix table decides only where sandbox rules apply. */
  private networkOutcome(ctx: CallerContext, descriptor: string): NetworkOutcome {
    return this.sandbox.applyTo(ctx) ? sandboxNetworkOutcome(descriptor) : NETWORK_APPROVE;
  }

  private assertSandbox(ctx: CallerContext): void {
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'The card network simulators are sandbox only');
  }

  private async requireCard(platformId: string, cardId: string): Promise<NetworkCard> {
    const card = await this.cards.findForNetwork(platformId, cardId);
    if (!card) throw cardNotFound(cardId);
    return card;
  }

  private async requireTransactionOfCard(platformId: string, cardId: string, cardTransactionId: string): Promise<CardTransactionEntity> {
    await this.requireCard(platformId, cardId);
    const entity = await this.cardTransactions.findById(platformId, cardTransactionId);
    if (!entity || entity.cardId !== cardId) throw transactionNotFound(cardTransactionId);
    return entity;
  }
}

/** A frozen card declines new authorizations; a card that is not (yet, or any more) usable too. */
function stateDecline(card: NetworkCard): CardDeclineReason | undefined {
  switch (card.state) {
    case 'ACTIVE':
      return undefined;
    case 'FROZEN':
      return 'CARD_PAUSED';
    case 'CLOSED':
      return 'CARD_CLOSED';
    case 'PROCESSING':
      return 'CARD_NOT_ACTIVE';
  }
}

/** An authorization above the card's per-transaction limit is declined; exactly the limit is allowed. */
function limitDecline(card: NetworkCard, message: NetworkMessage): CardDeclineReason | undefined {
  if (card.maxSpendPerTransaction === null || !SPENDING_TYPES.has(message.type)) return undefined;
  return message.amount > card.maxSpendPerTransaction ? 'TRANSACTION_SIZE_LIMIT_EXCEEDED' : undefined;
}

function isOpenAuthorization(entity: CardTransactionEntity): boolean {
  return entity.type === 'AUTHORIZATION' && (entity.status === 'CONFIRMED' || entity.status === 'EXCEPTION') && entity.holdId !== null && entity.settledAt === null;
}

function notAdjustable(entity: CardTransactionEntity, why: string): ServiceError {
  return new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} is ${entity.status}: ${why}`, { status: entity.status });
}

/** The card currency as a Currency object (the catalogue's entry; a currency outside it is named by its code). */
function cardCurrencyOf(card: NetworkCard): Currency {
  const details = CARD_CURRENCY_DETAILS[card.currencyCode as keyof typeof CARD_CURRENCY_DETAILS] as (typeof CARD_CURRENCY_DETAILS)[keyof typeof CARD_CURRENCY_DETAILS] | undefined;
  if (!details) return { code: card.currencyCode, name: card.currencyCode, symbol: card.currencyCode, decimals: 0 };
  return { code: details.code, name: details.name, symbol: details.symbol, decimals: details.decimals };
}

/**
 * A network message's amount in the card currency's smallest unit. The message is in the card's
 * currency (its code, or no code at all), or in the fiat currency the card's stablecoin is pegged
 * to (a USDC card takes USD at par: one cent is 10^4 of USDC's smallest unit). Anything else, or
 * `decimals` that are not the named currency's, is refused with the field named.
 */
function inCardCurrency(card: NetworkCard, input: CurrencyInput, amount: bigint): { amount: bigint; currency: Currency } {
  const currency = cardCurrencyOf(card);
  const pegged = CARD_CURRENCY_DETAILS[card.currencyCode as keyof typeof CARD_CURRENCY_DETAILS]?.peggedTo;
  const checkDecimals = (decimals: number): void => {
    if (input.decimals !== undefined && input.decimals !== decimals) {
      throw new ServiceError('INVALID_CURRENCY', `${input.code ?? currency.code} has ${decimals} decimals, not ${input.decimals}`, { field: 'currency.decimals' });
    }
  };
  if (input.code === undefined || input.code === currency.code) {
    checkDecimals(currency.decimals);
    return { amount, currency };
  }
  if (pegged && input.code === pegged.code) {
    checkDecimals(pegged.decimals);
    const scale = 10n ** BigInt(currency.decimals - pegged.decimals);
    if (!fitsOnWire(amount * scale)) {
      throw ServiceError.invalidField('amount', `amount is more than a ${currency.code} card takes: at most ${MAX_WIRE_AMOUNT / scale} in ${pegged.code}'s smallest unit`);
    }
    return { amount: amount * scale, currency };
  }
  throw new ServiceError('INVALID_CURRENCY', `The card is in ${currency.code}${pegged ? ` (or ${pegged.code} at par)` : ''}, not ${input.code}`, { field: 'currency.code' });
}

/** CARD_TRANSACTION.<STATUS>, with the transaction as GET returns it. */
function statusEventOf(entity: CardTransactionEntity): NewEvent<typeof CARDS_EVENTS.cardTransactionStatusChanged> {
  return {
    subject: CARDS_EVENTS.cardTransactionStatusChanged,
    platformId: entity.platformId,
    resourceId: entity.id,
    webhookType: cardTransactionWebhookType(entity.status),
    data: toCardTransaction(entity),
  };
}

function confirmationFailed(): CardTransactionEntity['exception'] {
  return { urgency: 'HIGH', reason: 'CONFIRMATION_FAILED', message: 'The pull succeeded but the network confirmation reported FAILED' };
}

function merchantOf(input: CardMerchant): CardMerchant {
  return { descriptor: input.descriptor, ...(input.mcc !== undefined ? { mcc: input.mcc } : {}), ...(input.country !== undefined ? { country: input.country } : {}) };
}

/** The network's token of a simulated message; it names the card transaction it becomes. */
function issuerTokenOf(cardTransactionId: string): string {
  return `itx_${cardTransactionId.slice('CardTransaction:'.length).replace(/-/g, '')}`;
}

function notClearable(entity: CardTransactionEntity, why: string): ServiceError {
  return new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} cannot be cleared: ${why}`, { status: entity.status });
}

function transactionNotFound(id: string): ServiceError {
  return new ServiceError('TRANSACTION_NOT_FOUND', `Card transaction ${id} not found`);
}
