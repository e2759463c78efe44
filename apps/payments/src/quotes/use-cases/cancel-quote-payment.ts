import { Injectable } from '@nestjs/common';
import { CallerContext, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { CompositeStatement, Outbox, TransactionRunner } from '@paykit/persistence';
import { transactionRefundEvent, transactionStatusEvent } from '../../transfers/transaction.mapper';
import { RefundMove, TransactionsRepository } from '../../transfers/transactions.repository';
import { TransactionReader } from '../../transfers/use-cases/transaction-reader';
import { QuoteLedger } from '../quote-ledger';
import { QuotesRepository } from '../quotes.repository';
import { CANCELLATION_STEPS } from '../quotes.sandbox';
import { QuoteTransactionParts } from './quote-transaction-parts';

/**
 * Cancels an executed quote's payment (POST /transactions/{id}/cancel), refunded with reason
 * USER_CANCELLATION. Before the payout starts (PENDING) it fails and the sending amount goes
 * back to the source at once: FAILED, REFUND_PENDING, REFUND_COMPLETED in one transaction.
 * While processing it is the guide's manual cancellation: the refund is initiated now
 * (REFUND_PENDING; the payout steps still scheduled then do nothing), settles a step later
 * (REFUND_COMPLETED, the source credited once) and the payment then ends COMPLETED with
 * nothing paid out, its `refund` telling what happened. Anything else answers 409.
 */
@Injectable()
export class CancelQuotePayment {
  constructor(
    private readonly quotes: QuotesRepository,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transactionReader: TransactionReader,
    private readonly quoteLedger: QuoteLedger,
    private readonly parts: QuoteTransactionParts,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(ctx: CallerContext, quoteId: string): Promise<Transaction> {
    return this.transactions.run(async (manager) => {
      const quote = await this.quotes.findById(ctx.platformId, quoteId, manager);
      const current = quote && (await this.transactionsRepo.findById(ctx.platformId, quote.transactionId, manager, true));
      if (!quote || !current) throw new ServiceError('TRANSACTION_NOT_FOUND', `No transaction for quote ${quoteId}`);
      const cancelled = (from: RefundMove['from'], to: RefundMove['to']): RefundMove => ({ from, to, reason: 'USER_CANCELLATION' });
      if (current.status === 'PROCESSING' && current.refundStatus === null) {
        const statement = new CompositeStatement();
        const moved = await this.parts.refundChange(ctx.platformId, current, cancelled(null, 'PENDING'));
        statement.add('change', moved.change);
        for (const next of this.parts.nextSteps(quote, CANCELLATION_STEPS)) statement.add('next_step', next);
        statement.add('announced', moved.announced);
        await this.quotes.runComposed(manager, statement);
        return moved.transaction;
      }
      if (current.status !== 'PENDING') {
        throw new ServiceError(
          'TRANSACTION_NOT_CANCELLABLE',
          `Transaction ${current.id} is ${current.status}${current.refundStatus !== null ? `, its refund ${current.refundStatus}` : ''}; only a PENDING or PROCESSING payment can be cancelled`,
          {
            status: current.status,
          },
        );
      }
      await this.quoteLedger.post(manager, quote, 'REFUND');
      const failed = (await this.transactionsRepo.transition(manager, ctx.platformId, current.id, 'PENDING', 'FAILED', 'CANCELLED'))!;
      await this.quotes.transition(manager, ctx.platformId, quote.id, ['PROCESSING'], 'FAILED', 'QUOTE_EXECUTION_FAILED');
      await this.outbox.add(manager, transactionStatusEvent(ctx.platformId, await this.transactionReader.toResource(failed)));
      const pending = (await this.transactionsRepo.moveRefund(manager, ctx.platformId, current.id, 'FAILED', cancelled(null, 'PENDING')))!;
      await this.outbox.add(manager, transactionRefundEvent(ctx.platformId, await this.transactionReader.toResource(pending)));
      const refunded = (await this.transactionsRepo.moveRefund(manager, ctx.platformId, current.id, 'FAILED', cancelled('PENDING', 'COMPLETED')))!;
      const transaction = await this.transactionReader.toResource(refunded);
      await this.outbox.add(manager, transactionRefundEvent(ctx.platformId, transaction));
      return transaction;
    });
  }
}
