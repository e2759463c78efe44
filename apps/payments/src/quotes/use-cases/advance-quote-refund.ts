import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CompositeStatement } from '@paykit/persistence';
import { ledgerRefusalOf } from '../../ledger/ledger-outcomes';
import { PaymentTransactionEntity } from '../../transfers/entities/payment-transaction.entity';
import { RefundMove } from '../../transfers/transactions.repository';
import { QuoteEntity } from '../entities/quote.entity';
import { QuoteLedger } from '../quote-ledger';
import { AdvanceQuoteJob } from '../quotes.jobs';
import { QuotesRepository, TRANSACTION_CHANGED_GUARD } from '../quotes.repository';
import { QuoteTransactionParts, TransactionChangeParts } from './quote-transaction-parts';

/**
 * A refund's step (see QuoteStep): REFUND_PENDING initiates the refund of a FAILED payment,
 * REFUND_COMPLETED gives the payer back the exact sending amount (the source leg negated,
 * QUOTE_REFUND: the source internal account, or external clearing for real-time funding) and
 * settles the refund, REFUND_FAILED settles it leaving the money with the service;
 * CANCELLATION_RESOLVED ends a payment cancelled while processing COMPLETED once its refund
 * settled, nothing paid out. Each moves from the state it expects or does nothing, and its
 * change, ledger entry, event and next step are one statement refused as a whole: a step run
 * twice credits once.
 */
@Injectable()
export class AdvanceQuoteRefund {
  constructor(
    private readonly quotes: QuotesRepository,
    private readonly quoteLedger: QuoteLedger,
    private readonly parts: QuoteTransactionParts,
  ) {}

  async run(payload: AdvanceQuoteJob, quote: QuoteEntity, transaction: PaymentTransactionEntity, manager: EntityManager): Promise<void> {
    const { step } = payload;
    const statement = new CompositeStatement();
    const guards: string[] = [];
    let moved: TransactionChangeParts;
    if (step.status === 'CANCELLATION_RESOLVED') {
      if (transaction.status !== 'PROCESSING' || transaction.refundStatus !== 'COMPLETED') return;
      moved = await this.parts.statusChange(payload.platformId, transaction, 'COMPLETED', null);
      statement.add('change', moved.change);
      statement.add('quote_moved', this.quotes.transitionStatement(payload.platformId, quote.id, ['PROCESSING'], 'COMPLETED', null));
    } else {
      const from = step.status === 'REFUND_PENDING' ? null : 'PENDING';
      if (transaction.refundStatus !== from || (from === null && transaction.status !== 'FAILED')) return;
      const move: RefundMove = {
        from,
        to: step.status === 'REFUND_PENDING' ? 'PENDING' : step.status === 'REFUND_COMPLETED' ? 'COMPLETED' : 'FAILED',
        reason: transaction.refundReason ?? step.refundReason ?? 'TRANSACTION_FAILED',
      };
      if (move.to === 'COMPLETED') {
        const posted = await this.quoteLedger.moveParts(manager, quote, 'REFUND', 'refund_');
        for (const [name, part] of posted.parts) statement.add(name, part);
        if (posted.refusal) guards.push(posted.refusal);
      }
      moved = await this.parts.refundChange(payload.platformId, transaction, move);
      statement.add('change', moved.change);
    }
    for (const next of this.parts.nextSteps(quote, payload.next)) statement.add('next_step', next);
    statement.add('announced', moved.announced);
    guards.push(TRANSACTION_CHANGED_GUARD);
    try {
      await this.quotes.runComposed(manager, statement, guards);
    } catch (error) {
      throw ledgerRefusalOf(error) ?? error;
    }
  }
}
