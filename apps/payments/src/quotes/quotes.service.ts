import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext, CreateQuoteMessage, ExecuteQuoteMessage, Quote, QuoteFailureReason, SandboxSendRequest, SignedRetryOutcome, Transaction } from '@paykit/contracts';
import { QuoteEntity } from './entities/quote.entity';
import { QuoteAuthorization, QuoteExecutor } from './quote-authorization';
import { QuotesRepository } from './quotes.repository';
import { CancelQuotePayment } from './use-cases/cancel-quote-payment';
import { CreateQuote, quoteFingerprintOf } from './use-cases/create-quote';
import { ExecuteQuote } from './use-cases/execute-quote';
import { QuoteReader } from './use-cases/quote-reader';
import { QuoteTransactionParts } from './use-cases/quote-transaction-parts';
import { SandboxSend } from './use-cases/sandbox-send';

/**
 * Cross-currency quotes: price a corridor and lock it until `expiresAt`, then execute once. The
 * facade other features of payments call (agent actions, transaction cancellation); each command
 * and query is a use case in ./use-cases (see the payments README).
 */
@Injectable()
export class QuotesService implements OnModuleInit, QuoteExecutor {
  constructor(
    private readonly createQuote: CreateQuote,
    private readonly executeQuote: ExecuteQuote,
    private readonly sandboxSendQuote: SandboxSend,
    private readonly cancelQuotePayment: CancelQuotePayment,
    private readonly reader: QuoteReader,
    private readonly parts: QuoteTransactionParts,
    private readonly quotes: QuotesRepository,
    private readonly authorization: QuoteAuthorization,
  ) {}

  onModuleInit(): void {
    // The authorization executes quotes once authorized, and quote commands begin authorizations: handed over at start, no cycle of providers.
    this.authorization.bind(this);
  }

  create(ctx: CallerContext, request: CreateQuoteMessage): Promise<Quote> {
    return this.createQuote.run(ctx, request);
  }

  get(ctx: CallerContext, quoteId: string): Promise<Quote> {
    return this.reader.get(ctx, quoteId);
  }

  execute(ctx: CallerContext, request: ExecuteQuoteMessage): Promise<SignedRetryOutcome<Quote>> {
    return this.executeQuote.run(ctx, request);
  }

  /** Executes a quote whose Strong Customer Authentication is complete (or that needed no challenge). */
  executeAuthorized(ctx: CallerContext, quote: QuoteEntity): Promise<Quote> {
    return this.executeQuote.authorized(ctx, quote);
  }

  sandboxSend(ctx: CallerContext, request: SandboxSendRequest): Promise<Transaction> {
    return this.sandboxSendQuote.run(ctx, request);
  }

  cancel(ctx: CallerContext, quoteId: string): Promise<Transaction> {
    return this.cancelQuotePayment.run(ctx, quoteId);
  }

  /** The transaction a quote's execution will create, as GET would return it, before it exists. */
  transactionToBe(quote: QuoteEntity, failureReason: QuoteFailureReason | null): Promise<Transaction> {
    return this.parts.toBe(quote, failureReason);
  }

  /** See quoteFingerprintOf. */
  fingerprintOf(request: CreateQuoteMessage, origin?: string): string | undefined {
    return quoteFingerprintOf(request, origin);
  }

  /** The most recent quote with this fingerprint of the last 24 hours of the platform's time. */
  retried(ctx: CallerContext, fingerprint: string, manager?: EntityManager): Promise<QuoteEntity | undefined> {
    return this.reader.retried(ctx, fingerprint, manager);
  }

  /**
   * Records (or, with null, forgets) the fingerprint of the request an agent's quote was created
   * and submitted by: written in the transaction that submits it.
   */
  recordFingerprint(manager: EntityManager | undefined, ctx: CallerContext, quoteId: string, fingerprint: string | null): Promise<void> {
    return this.quotes.setFingerprint(manager, ctx.platformId, quoteId, fingerprint);
  }
}
