import { Injectable } from '@nestjs/common';
import { amountFromWire, AuthorizationInterruptedData, CallerContext, tenantContext } from '@paykit/contracts';
import { Clock } from '@paykit/persistence';
import { NetworkOutcome } from '../card-network.sandbox';
import { CardTransactionEntity } from '../entities/card-transaction.entity';
import { isAccountRefusal, isInsufficientFunds, LedgerClient } from '../ledger.client';
import { CardTransactionWriter } from './card-transaction-writer';
import { confirmationFailed } from './issuer-rules';

export type MoneyResult = Partial<Pick<CardTransactionEntity, 'status' | 'holdId' | 'settledAmount' | 'settledAt' | 'declineReason' | 'exception'>>;

/**
 * The issuer's money steps on the payments ledger (holds, captures, releases, refunds), with
 * caller keys derived from the card transaction, never inside one of this service's
 * transactions: the ledger step runs first, then the card transaction and its event commit together.
 */
@Injectable()
export class IssuerMoney {
  constructor(
    private readonly ledger: LedgerClient,
    private readonly writer: CardTransactionWriter,
    private readonly clock: Clock,
  ) {}

  /** Pulls (or credits) the money of an approved message; a failed pull is the INSUFFICIENT_FUNDS decline. */
  async move(ctx: CallerContext, entity: CardTransactionEntity, outcome: NetworkOutcome): Promise<MoneyResult> {
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

  /** Releases the hold of a card transaction's authorization (its caller key: the transaction's first release). */
  async release(ctx: CallerContext, cardTransactionId: string, holdId: string): Promise<void> {
    await this.ledger.release(ctx, cardTransactionId, holdId);
  }

  /** Posts a clearing: capture of the hold; above the authorized amount the ledger pulls the excess from the available balance. */
  async settle(ctx: CallerContext, entity: CardTransactionEntity, amount: bigint): Promise<CardTransactionEntity> {
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
    return this.writer.finish(entity, ['CONFIRMED', 'EXCEPTION'], {
      status: exception && exception.reason === 'EXCESS_PULL_FAILED' ? 'EXCEPTION' : 'SETTLED',
      settledAmount,
      settledAt: this.clock.now(),
      exception,
    });
  }

  /** The authorization ends without a clearing: its hold is released. */
  async expire(
    ctx: CallerContext,
    entity: CardTransactionEntity,
    reason: 'AUTHORIZATION_EXPIRY' | 'CARD_CLOSED',
    from: Array<'CONFIRMED' | 'EXCEPTION'>,
  ): Promise<CardTransactionEntity> {
    await this.ledger.release(ctx, entity.id, entity.holdId!);
    return this.writer.finish(entity, from, { status: 'EXPIRED', expiryReason: reason });
  }

  /** A late clearing without a live hold: hold and capture the cleared amount at once. */
  async forcePost(ctx: CallerContext, entity: CardTransactionEntity, amount: bigint): Promise<CardTransactionEntity> {
    try {
      const hold = await this.ledger.hold(ctx, entity.id, 'force-hold', entity.accountId, amount, entity.currency.code);
      await this.ledger.capture(ctx, entity.id, 'force-capture', hold.id, amount);
      return await this.writer.finish(entity, ['EXPIRED'], { status: 'SETTLED', holdId: hold.id, forcePosted: true, settledAmount: amount, settledAt: this.clock.now() });
    } catch (error) {
      if (!isInsufficientFunds(error)) throw error;
      return this.writer.finish(entity, ['EXPIRED'], {
        status: 'EXCEPTION',
        forcePosted: true,
        exception: { urgency: 'HIGH', reason: 'FORCE_POST_FAILED', message: `The late clearing of ${amount} could not be posted: insufficient funds` },
      });
    }
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
}
