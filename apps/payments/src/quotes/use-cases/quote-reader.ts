import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CallerContext, Quote } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, IdempotencyStore } from '@paykit/persistence';
import { retryWindowStart } from '../../client-retries';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { QuoteEntity } from '../entities/quote.entity';
import { toQuote } from '../quote.mapper';
import { QuotesRepository } from '../quotes.repository';

/** GET /quotes/{id} and the reads every quote command shares: a quote found for its caller, answered as the resource. */
@Injectable()
export class QuoteReader {
  constructor(
    private readonly quotes: QuotesRepository,
    private readonly currencies: CurrencyCatalog,
    private readonly clock: Clock,
    private readonly idempotency: IdempotencyStore,
    private readonly dataSource: DataSource,
  ) {}

  /** The platform's time (the one clock). */
  now(): Date {
    return this.clock.now();
  }

  async get(ctx: CallerContext, quoteId: string): Promise<Quote> {
    return this.toResource(await this.requireFor(ctx, quoteId), this.clock.now());
  }

  /** An agent sees its customer's quotes only: any other is unknown to it. */
  async requireFor(ctx: CallerContext, quoteId: string): Promise<QuoteEntity> {
    const quote = await this.require(ctx.platformId, quoteId);
    if (ctx.agent && quote.customerId !== ctx.agent.customerId) throw new ServiceError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return quote;
  }

  async require(platformId: string, quoteId: string): Promise<QuoteEntity> {
    const quote = await this.quotes.findById(platformId, quoteId);
    if (!quote) throw new ServiceError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return quote;
  }

  /** The answer an earlier identical request under this Idempotency-Key got (409 for the key with another request). */
  replayed(platformId: string, idempotencyKey: string, hash: string): Promise<Quote | undefined> {
    return this.idempotency.replay<Quote>(this.dataSource.manager, platformId, idempotencyKey, hash);
  }

  /** The most recent quote with this fingerprint of the last 24 hours of the platform's time. */
  retried(ctx: CallerContext, fingerprint: string, manager?: EntityManager): Promise<QuoteEntity | undefined> {
    return this.quotes.findByFingerprint(ctx.platformId, fingerprint, retryWindowStart(this.clock), manager);
  }

  /** The quote as the resource at `now` (by default the clock's now). */
  async toResource(quote: QuoteEntity, now: Date = this.clock.now()): Promise<Quote> {
    return toQuote(quote, await this.currencies.get(quote.sourceCurrency), await this.currencies.get(quote.destinationCurrency), now);
  }

  /**
   * 409 for a quote that cannot execute any more (already executed, failed or expired), or, when
   * it could not execute for another reason, the quote as it is now explains it.
   */
  async explainRefusal(ctx: CallerContext, quoteId: string, now: Date): Promise<never> {
    const current = await this.quotes.findById(ctx.platformId, quoteId);
    if (current) assertExecutable(current, now);
    throw new ServiceError('INVALID_STATE_TRANSITION', `Quote ${quoteId} cannot execute now`);
  }
}

/** 409 for a quote that cannot execute any more (already executed, failed or expired). */
export function assertExecutable(quote: QuoteEntity, now: Date): void {
  // Expired whether or not the expiry job has marked it yet.
  if (quote.status === 'EXPIRED' || (quote.status === 'PENDING' && quote.expiresAt <= now)) {
    throw new ServiceError('CONFLICT', `Quote ${quote.id} expired at ${quote.expiresAt.toISOString()}; request a new quote`, {
      reason: 'QUOTE_EXPIRED',
      expiresAt: quote.expiresAt.toISOString(),
    });
  }
  if (quote.status !== 'PENDING') {
    throw new ServiceError('INVALID_STATE_TRANSITION', `Quote ${quote.id} is ${quote.status}; a quote executes once`, { status: quote.status });
  }
}
