import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext } from '@paykit/contracts';
import { CompositeStatement } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { accountNotActive, accountNotFound } from '../../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { ledgerRefusalOf } from '../../ledger/ledger-outcomes';
import { refusedStatement } from '../../refused-statement';
import { QuoteEntity } from '../entities/quote.entity';
import { QuoteLedger } from '../quote-ledger';
import { NewQuote, QUOTE_MOVED_GUARD, QuotesRepository, SOURCE_MOVABLE, SOURCE_MOVABLE_GUARD } from '../quotes.repository';
import { QUOTE_SUCCESS, quoteOutcome } from '../quotes.sandbox';
import { QuoteTransactionParts } from './quote-transaction-parts';

/** An execution found its quote no longer PENDING, or expired (a racing execution got past it). */
export class QuoteNotExecutable extends Error {}

/**
 * The money-moving step every execution shares (execute, immediatelyExecute, real-time funding),
 * in the caller's transaction or atomic alone.
 */
@Injectable()
export class QuoteExecution {
  constructor(
    private readonly quotes: QuotesRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly quoteLedger: QuoteLedger,
    private readonly parts: QuoteTransactionParts,
    private readonly sandbox: SandboxRules,
  ) {}

  /** The sandbox outcome of a quote's payment (plain success outside the sandbox). */
  outcomeOf(ctx: CallerContext, quote: NewQuote) {
    return quote.sandboxOutcome !== null && this.sandbox.applyTo(ctx) ? quoteOutcome(quote.sandboxOutcome) : QUOTE_SUCCESS;
  }

  /**
   * Executes a quote: a new one (`existing` false: inserted PROCESSING) or an existing one (its
   * conditional PENDING -> PROCESSING, which only one of racing executions gets past). A payment
   * that goes ahead is one statement (in the caller's transaction, or atomic alone): the quote's
   * move, the source account's lock and the source leg, the transaction, its first event and its
   * next step. It is refused as a whole, nothing written, when the quote cannot execute, or its
   * source account may not move money or cannot pay (QuoteNotExecutable for the quote). A payment
   * the sandbox fails at execution takes two statements, in the caller's transaction.
   */
  async within(manager: EntityManager, ctx: CallerContext, quote: NewQuote, existing: boolean, now: Date): Promise<QuoteEntity> {
    const outcome = this.outcomeOf(ctx, quote);
    const statement = new CompositeStatement().add('quote', this.quotes.executionPart(quote, existing, now));
    if (outcome.kind === 'FAILS_AT_EXECUTION') {
      const started = await this.quotes.startExecution(manager, statement);
      if (!started) throw new QuoteNotExecutable();
      await this.parts.insert(manager, started, 'FAILED', outcome.failureReason);
      return (await this.quotes.transition(manager, ctx.platformId, quote.id, ['PROCESSING'], 'FAILED', outcome.failureReason))!;
    }
    const guards = [QUOTE_MOVED_GUARD];
    let movable = 'true';
    if (quote.sourceAccountId !== null) {
      // The source account is locked (FOR SHARE) before its debit, and may have been frozen or
      // closed since the quote's checks: its status is read under the lock.
      statement.add('source', this.accounts.lockStatusPart(quote.platformId, quote.sourceAccountId));
      movable = SOURCE_MOVABLE;
      guards.push(SOURCE_MOVABLE_GUARD);
    }
    const debit = await this.quoteLedger.moveParts(manager, quote, 'EXECUTION', 'debit_', movable);
    for (const [name, part] of debit.parts) statement.add(name, part);
    if (debit.refusal) guards.push(debit.refusal);
    for (const [name, part] of await this.parts.inserted(quote, 'PENDING', null, outcome.steps)) statement.add(name, part);
    try {
      return await this.quotes.runExecution(manager, statement, guards);
    } catch (error) {
      const refused = refusedStatement(error);
      if (!refused) throw error;
      if (refused.code === 'ACCOUNT_NOT_ACTIVE') throw refused.detail ? accountNotActive(quote.sourceAccountId!, refused.detail) : accountNotFound(quote.sourceAccountId!);
      if (refused.code === 'QUOTE_NOT_EXECUTABLE') throw new QuoteNotExecutable();
      throw ledgerRefusalOf(error) ?? error;
    }
  }
}
