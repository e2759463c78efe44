import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PurposeOfPayment, QuoteFailureReason, Transaction, TransactionStatus } from '@paykit/contracts';
import { Clock, CompositeStatement, JobScheduler, Outbox, Statement } from '@paykit/persistence';
import { PaymentTransactionEntity } from '../../transfers/entities/payment-transaction.entity';
import { transactionRefundEvent, transactionStatusEvent } from '../../transfers/transaction.mapper';
import { NewTransaction, RefundMove, TransactionsRepository } from '../../transfers/transactions.repository';
import { TransactionReader } from '../../transfers/use-cases/transaction-reader';
import { QuoteEntity } from '../entities/quote.entity';
import { ADVANCE_QUOTE_JOB } from '../quotes.jobs';
import { NewQuote, QuotesRepository } from '../quotes.repository';
import { QuoteStep } from '../quotes.sandbox';

/** A change of a quote's transaction as parts of one statement: the change (`change`), its event, and the transaction as it will be. */
export interface TransactionChangeParts {
  change: Statement;
  announced: Statement;
  transaction: Transaction;
}

/**
 * The parts of one statement every quote command composes about the quote's transaction: its
 * insert, its status and refund moves with their events, and the next of the quote's steps.
 */
@Injectable()
export class QuoteTransactionParts {
  constructor(
    private readonly quotes: QuotesRepository,
    private readonly transactions: TransactionsRepository,
    private readonly reader: TransactionReader,
    private readonly outbox: Outbox,
    private readonly scheduler: JobScheduler,
    private readonly clock: Clock,
  ) {}

  /** The parts writing the quote's transaction (`change`), its first event and the first of its steps. */
  async inserted(quote: NewQuote, status: 'PENDING' | 'FAILED', failureReason: QuoteFailureReason | null, steps: QuoteStep[]): Promise<Array<[string, Statement]>> {
    const row = transactionRowOf(quote, status, failureReason);
    const now = this.clock.now();
    const transaction = await this.reader.toResource(this.transactions.entityOf(row, now));
    const change = this.transactions.insertStatement(row, now);
    const parts: Array<[string, Statement]> = [['change', { sql: `${change.sql} RETURNING 1`, params: change.params }]];
    for (const next of this.nextSteps(quote, steps)) parts.push(['next_step', next]);
    parts.push(['announced', this.outbox.eventPart(transactionStatusEvent(quote.platformId, transaction), 'change')]);
    return parts;
  }

  /** The quote's transaction, its first event and the first of its steps, in one statement (the row is known before it is written). */
  async insert(manager: EntityManager, quote: NewQuote, status: 'PENDING' | 'FAILED', failureReason: QuoteFailureReason | null): Promise<void> {
    const statement = new CompositeStatement();
    for (const [name, part] of await this.inserted(quote, status, failureReason, [])) statement.add(name, part);
    await this.quotes.runComposed(manager, statement);
  }

  /**
   * The transaction a quote's execution will create, as GET would return it, before it exists:
   * what the webhooks of a quote waiting for Strong Customer Authentication carry.
   */
  async toBe(quote: QuoteEntity, failureReason: QuoteFailureReason | null): Promise<Transaction> {
    const row = transactionRowOf(quote, failureReason === null ? 'PENDING' : 'FAILED', failureReason);
    return this.reader.toResource(this.transactions.entityOf(row, this.clock.now()));
  }

  /** The transaction's move from the status it was read in to `to`, conditional on that status, and its status event. */
  async statusChange(platformId: string, current: PaymentTransactionEntity, to: TransactionStatus, failureReason: string | null): Promise<TransactionChangeParts> {
    const now = this.clock.now();
    const change = this.transactions.transitionStatement(platformId, current.id, current.status, to, failureReason, now);
    const transaction = await this.reader.toResource(this.transactions.transitioned(current, to, failureReason, now));
    return {
      change: { sql: `${change.sql} RETURNING 1`, params: change.params },
      announced: this.outbox.eventPart(transactionStatusEvent(platformId, transaction), 'change'),
      transaction,
    };
  }

  /** The transaction's refund move, conditional on the status it was read in, and its refund event. */
  async refundChange(platformId: string, current: PaymentTransactionEntity, move: RefundMove): Promise<TransactionChangeParts> {
    const now = this.clock.now();
    const change = this.transactions.refundStatement(platformId, current.id, current.status, move, now);
    const transaction = await this.reader.toResource(this.transactions.refundMoved(current, move, now));
    return {
      change: { sql: `${change.sql} RETURNING 1`, params: change.params },
      announced: this.outbox.eventPart(transactionRefundEvent(platformId, transaction), 'change'),
      transaction,
    };
  }

  /** The statement scheduling the first of `steps`, carrying the rest (a quote's steps never overtake each other); none when no step is left. */
  nextSteps(quote: NewQuote, steps: QuoteStep[]): Statement[] {
    const [step, ...rest] = steps;
    if (!step) return [];
    return [
      this.scheduler.scheduleStatement([
        {
          kind: ADVANCE_QUOTE_JOB,
          platformId: quote.platformId,
          payload: { platformId: quote.platformId, quoteId: quote.id, step, next: rest },
          delayMs: step.delayMs,
          sandboxDelay: true,
          dedupeKey: `${quote.id}:${step.status}`,
        },
      ]),
    ];
  }
}

/** The row of a quote's transaction (its execution writes it). */
function transactionRowOf(quote: NewQuote, status: 'PENDING' | 'FAILED', failureReason: QuoteFailureReason | null): NewTransaction {
  return {
    id: quote.transactionId,
    platformId: quote.platformId,
    type: 'OUTGOING',
    status,
    customerId: quote.customerId,
    platformCustomerId: quote.customerId === null ? null : (quote.extra.platformCustomerId ?? quote.customerId),
    internalAccountId: (quote.sourceAccountId ?? quote.fundingAccountId)!,
    // A UMA counterparty is named by its address, never by the account behind it.
    externalAccountId: quote.destinationKind === 'UMA_SANDBOX' || quote.destinationKind === 'UMA_CUSTOMER' ? null : quote.destinationAccountId,
    currencyCode: quote.sourceCurrency,
    amount: quote.sendingAmount,
    holdId: null,
    description: quote.description,
    failureReason,
    paymentRail: quote.paymentRail,
    railSelectionMode: quote.extra.railChosen ? 'MANUAL' : 'AUTO',
    remittanceInformation: quote.extra.remittanceInformation ?? null,
    purposeOfPayment: (quote.extra.purposeOfPayment as PurposeOfPayment | undefined) ?? null,
    quoteId: quote.id,
    receivedCurrencyCode: quote.destinationCurrency,
    receivedAmount: quote.receivingAmount,
    counterpartyUmaAddress: quote.destinationUmaAddress,
    fees: quote.serviceFee + quote.platformFee,
    platformFees: quote.platformFee,
  };
}
