import { Injectable } from '@nestjs/common';
import { CallerContext } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, TransactionRunner } from '@paykit/persistence';
import { CardsRepository, NetworkCard } from '../../cards/cards.repository';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { CardTransactionEntity } from '../entities/card-transaction.entity';
import { AuthorizationJobs } from './authorization-jobs';
import { CardTransactionWriter } from './card-transaction-writer';
import { CREDIT_TYPES, limitDecline, NetworkRules, stateDecline } from './issuer-rules';
import { IssuerMoney } from './issuer-money';
import { NetworkMessage } from './network-messages';

/**
 * The issuer's answer to a network message (an authorization of some kind): card state first,
 * then the sandbox descriptor table, then the ledger. Every simulator and the advice worker end here.
 */
@Injectable()
export class AuthorizeCard {
  constructor(
    private readonly cards: CardsRepository,
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly writer: CardTransactionWriter,
    private readonly money: IssuerMoney,
    private readonly jobs: AuthorizationJobs,
    private readonly rules: NetworkRules,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async run(ctx: CallerContext, card: NetworkCard, message: NetworkMessage): Promise<CardTransactionEntity> {
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
    const outcome = this.rules.outcome(ctx, message.merchant.descriptor);
    const decline = stateDecline(card) ?? limitDecline(card, message) ?? (outcome.kind === 'DECLINE' ? outcome.reason : undefined);
    if (decline) return this.writer.record({ ...entity, status: 'DECLINED', declineReason: decline });
    // Nothing to hold or pull: an approved balance inquiry is done at once.
    if (message.type === 'BALANCE_INQUIRY') return this.writer.record({ ...entity, status: 'SETTLED', settledAt: now });
    if (outcome.kind === 'DELAYED_PULL') {
      return this.writer.record(entity, (manager) => this.jobs.scheduleDelayedPull(manager, ctx, entity.id, outcome.delayMs));
    }
    if (entity.direction === 'CREDIT') {
      // Recorded (and claimed) before the money moves: a credit happens at most once. A second
      // delivery of the same message stops here; the first one moves the money.
      const recorded = await this.transactions.run((manager) => this.cardTransactions.insertIfNew(manager, { ...entity, creditClaimedAt: now }));
      if (!recorded) return (await this.cardTransactions.findById(ctx.platformId, entity.id)) ?? entity;
      return this.writer.finish(entity, ['PENDING'], await this.money.move(ctx, entity, outcome));
    }
    // Durable before any money moves: should this authorization not be recorded (this process
    // dies before its recording commits, or it is held up past the job's time), the job undoes the
    // ledger step by the same caller keys. Recording it deletes the job.
    const interrupted = await this.jobs.scheduleInterruption(ctx, entity);
    const result = await this.money.move(ctx, entity, outcome);
    const holdOpen = result.holdId !== undefined && !result.settledAt;
    let recorded: boolean;
    try {
      recorded = await this.writer.recordGroupCommitted({ ...entity, ...result }, { guarded: true });
    } catch (error) {
      // Compensation: a hold whose card transaction could not be recorded is released (and the
      // interruption job, still scheduled, undoes whatever this could not).
      if (holdOpen) await this.money.release(ctx, entity.id, result.holdId!).catch(() => undefined);
      throw error;
    }
    if (recorded) return { ...entity, ...result };
    const current = await this.cards.findForNetwork(ctx.platformId, card.id);
    if (holdOpen && current?.state === 'CLOSED') {
      // The card closed while the hold was placed, after its open authorizations were reconciled: the hold goes back.
      await this.money.release(ctx, entity.id, result.holdId!);
      return this.writer.record({ ...entity, status: 'DECLINED', declineReason: 'CARD_CLOSED' });
    }
    // Its interruption job ran first: the authorization never happened, its money step is undone.
    await this.money.undoInterrupted(ctx.platformId, interrupted);
    throw new ServiceError('SERVICE_UNAVAILABLE', 'The authorization was interrupted; no money moved');
  }
}
