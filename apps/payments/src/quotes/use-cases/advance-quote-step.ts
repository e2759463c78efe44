import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TransactionStatus } from '@paykit/contracts';
import { CompositeStatement, JobScheduler } from '@paykit/persistence';
import { ledgerRefusalOf } from '../../ledger/ledger-outcomes';
import { QuoteLedger, QuoteMove } from '../quote-ledger';
import { ADVANCE_QUOTE_JOB, AdvanceQuoteJob } from '../quotes.jobs';
import { QuotesRepository, TRANSACTION_CHANGED_GUARD } from '../quotes.repository';
import { AdvanceQuoteRefund } from './advance-quote-refund';
import { QuoteStepBatch } from './quote-step-batch';
import { QuoteTransactionParts } from './quote-transaction-parts';

/**
 * The scheduled next step of an executed quote (ADVANCE_QUOTE_JOB): PROCESSING, COMPLETED (the
 * destination leg) or FAILED (a return, a refund); refund steps go to AdvanceQuoteRefund. A step
 * that finds the transaction not in the status it follows does nothing, so a retried job never
 * moves money twice.
 */
@Injectable()
export class AdvanceQuoteStep implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly batch: QuoteStepBatch,
    private readonly refund: AdvanceQuoteRefund,
    private readonly quotes: QuotesRepository,
    private readonly quoteLedger: QuoteLedger,
    private readonly parts: QuoteTransactionParts,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(
      ADVANCE_QUOTE_JOB,
      (payload, manager) => this.run(payload, manager),
      (payloads, manager) => this.batch.prepare(payloads, manager),
    );
  }

  async run(payload: AdvanceQuoteJob, manager: EntityManager): Promise<void> {
    // The quote and its transaction, the transaction locked: read with the batch's.
    const found = await this.batch.take(payload, manager);
    if (!found) return;
    const { quote, transaction } = found;
    const { step } = payload;
    if (step.status !== 'PROCESSING' && step.status !== 'COMPLETED' && step.status !== 'FAILED') return this.refund.run(payload, quote, transaction, manager);
    // A payment cancelled while processing belongs to its cancellation: its payout steps do nothing.
    if (transaction.refundStatus !== null) return;
    const currentStatus = transaction.status;
    const expected: TransactionStatus[] =
      step.status === 'PROCESSING' ? ['PENDING'] : step.status === 'COMPLETED' ? ['PENDING', 'PROCESSING'] : ['PENDING', 'PROCESSING', 'COMPLETED'];
    if (!expected.includes(currentStatus)) return;
    // The ledger's moves, the transaction's, its event, the quote's move and the next step: one
    // statement, refused as a whole (the job then fails) when an internal account refuses a move.
    const moves: QuoteMove[] =
      step.status === 'COMPLETED'
        ? ['PAYOUT']
        : step.status === 'FAILED'
          ? [...(currentStatus === 'COMPLETED' ? ['RETURN' as const] : []), ...(step.refund ? ['REFUND' as const] : [])]
          : [];
    const statement = new CompositeStatement();
    const guards: string[] = [];
    for (const move of moves) {
      const posted = await this.quoteLedger.moveParts(manager, quote, move, `${move.toLowerCase()}_`);
      for (const [name, part] of posted.parts) statement.add(name, part);
      if (posted.refusal) guards.push(posted.refusal);
    }
    const moved = await this.parts.statusChange(payload.platformId, transaction, step.status, step.failureReason ?? null);
    statement.add('change', moved.change);
    for (const next of this.parts.nextSteps(quote, payload.next)) statement.add('next_step', next);
    if (step.status !== 'PROCESSING') {
      const quoteFailure = step.status === 'FAILED' ? (step.failureReason ?? 'QUOTE_EXECUTION_FAILED') : null;
      statement.add('quote_moved', this.quotes.transitionStatement(payload.platformId, quote.id, ['PROCESSING', 'COMPLETED'], step.status, quoteFailure));
    }
    statement.add('announced', moved.announced);
    // Unreachable while the row lock holds; if it were not, nothing of this step may commit.
    guards.push(TRANSACTION_CHANGED_GUARD);
    try {
      await this.quotes.runComposed(manager, statement, guards);
    } catch (error) {
      throw ledgerRefusalOf(error) ?? error;
    }
  }
}
