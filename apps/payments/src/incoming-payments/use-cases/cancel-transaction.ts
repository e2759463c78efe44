import { Injectable } from '@nestjs/common';
import { CallerContext, ReasonMessage, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { TransactionRunner } from '@paykit/persistence';
import { QuotesService } from '../../quotes/quotes.service';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransfersService } from '../../transfers/transfers.service';
import { IncomingDecisions } from './incoming-decisions';
import { IncomingTransitions } from './incoming-transitions';

/**
 * POST /transactions/{id}/cancel: cancels a payment that has not settled: a quote's payout still
 * PENDING or PROCESSING (refunded to its source, see CancelQuotePayment), a transfer still
 * PENDING (its money goes back), or an incoming payment still waiting for a decision.
 */
@Injectable()
export class CancelTransaction {
  constructor(
    private readonly transitions: IncomingTransitions,
    private readonly decisions: IncomingDecisions,
    private readonly quotes: QuotesService,
    private readonly transfers: TransfersService,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(ctx: CallerContext, request: ReasonMessage): Promise<Transaction> {
    const current = await this.transitions.require(ctx.platformId, request.transactionId);
    if (current.quoteId !== null && current.type === 'OUTGOING') return this.quotes.cancel(ctx, current.quoteId);
    if (current.status !== 'PENDING') {
      throw new ServiceError('TRANSACTION_NOT_CANCELLABLE', `Transaction ${current.id} is ${current.status}; only a PENDING payment can be cancelled`, { status: current.status });
    }
    if (current.counterpartyUmaAddress !== null && current.type === 'INCOMING') {
      return this.transactions.run(async (manager) => {
        const decided = await this.decisions.decide(manager, ctx.platformId, current.id, 'REJECTED', { reason: request.reason ?? 'cancelled' });
        if (!decided) throw new ServiceError('TRANSACTION_NOT_CANCELLABLE', `Transaction ${current.id} was already decided`);
        return this.transitions.fail(manager, ctx.platformId, current.id, 'CANCELLED');
      });
    }
    return this.transactions.run(async (manager) => {
      await this.transfers.advance({ platformId: ctx.platformId, transactionId: current.id, status: 'FAILED', failureReason: 'CANCELLED', next: [] }, manager);
      const after = (await this.transactionsRepo.findById(ctx.platformId, current.id, manager))!;
      if (after.failureReason !== 'CANCELLED') throw new ServiceError('TRANSACTION_NOT_CANCELLABLE', `Transaction ${current.id} settled before it could be cancelled`);
      return this.transfers.toResource(after);
    });
  }
}
