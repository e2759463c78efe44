import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext, Quote } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { IdempotencyStore, TransactionRunner } from '@paykit/persistence';
import { isClientRetry, lockFingerprint } from '../../client-retries';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { DailyVolume } from '../../transfers/use-cases/daily-volume';
import { NewQuote } from '../quotes.repository';
import { QuoteExecution, QuoteNotExecutable } from './quote-execution';
import { QuoteReader } from './quote-reader';

/**
 * An execution as a request runs it: under the request's Idempotency-Key, counted against the
 * platform's daily volume, answered as the quote resource, a refusal explained by the quote as it is now.
 */
@Injectable()
export class QuoteExecutionRun {
  constructor(
    private readonly execution: QuoteExecution,
    private readonly reader: QuoteReader,
    private readonly idempotency: IdempotencyStore,
    private readonly transactions: TransactionRunner,
    private readonly dailyVolume: DailyVolume,
    private readonly accounts: InternalAccountsRepository,
  ) {}

  /**
   * An execution under the request's Idempotency-Key, answered as the quote resource. A
   * successful one is a single statement, which needs no transaction when there is no key. A new
   * keyless quote carrying its request's fingerprint runs in a transaction holding the
   * fingerprint's turn: a client's retry (`retryOf`) that came while the try it repeats was still
   * running waits for it there, then answers it instead of executing again.
   */
  async run(ctx: CallerContext, quote: NewQuote, existing: boolean, idempotencyKey: string | undefined, hash: string, now: Date, retryOf?: { attempt: number }): Promise<Quote> {
    const fingerprint = existing ? undefined : (quote.requestFingerprint ?? undefined);
    let repeated = false;
    const work = async (manager: EntityManager) => {
      if (fingerprint) {
        await lockFingerprint(manager, ctx.platformId, fingerprint);
        const earlier = isClientRetry(retryOf) ? await this.reader.retried(ctx, fingerprint, manager) : undefined;
        if (earlier) {
          repeated = true;
          return this.reader.toResource(earlier);
        }
      }
      return this.reader.toResource(await this.execution.within(manager, ctx, quote, existing, now), now);
    };
    // Every other check passed: the sending amount counts against the platform's daily volume in
    // the sending currency (429 DAILY_VOLUME_LIMIT_EXCEEDED past it), given back if the execution is refused.
    // An execution that is refused anyway (the balance does not cover it) answers its own 4xx, not the 429.
    let day: string | undefined;
    try {
      day = await this.transactions.run((manager) => this.dailyVolume.reserve(manager, ctx.platformId, quote.sourceCurrency, quote.sendingAmount));
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'DAILY_VOLUME_LIMIT_EXCEEDED' || (await this.sourceCovers(ctx, quote))) throw error;
    }
    const release = async () => {
      if (day === undefined) return;
      const counted = day;
      await this.transactions.run((manager) => this.dailyVolume.release(manager, ctx.platformId, quote.sourceCurrency, counted, quote.sendingAmount));
    };
    let answer: Quote;
    try {
      answer = await this.explainingRefusal(ctx, quote, now, () =>
        this.execution.outcomeOf(ctx, quote).kind === 'FAILS_AT_EXECUTION' || fingerprint
          ? this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, work)
          : this.idempotency.runOnceInOneStatement(ctx.platformId, idempotencyKey, hash, work),
      );
    } catch (error) {
      await release();
      throw error;
    }
    // A retry that answered the try it repeats executed nothing: its count goes back.
    if (repeated) await release();
    return answer;
  }

  /**
   * Runs an execution; when its quote could not execute, answers why as the quote is now
   * (executed, failed or expired meanwhile), read once the execution's transaction has ended.
   */
  async explainingRefusal<T>(ctx: CallerContext, quote: NewQuote, now: Date, execution: () => Promise<T>): Promise<T> {
    try {
      return await execution();
    } catch (error) {
      if (!(error instanceof QuoteNotExecutable)) throw error;
      return this.reader.explainRefusal(ctx, quote.id, now);
    }
  }

  /** Whether the quote's source account has the sending amount available (else its execution is refused for funds). */
  private async sourceCovers(ctx: CallerContext, quote: NewQuote): Promise<boolean> {
    if (quote.sourceAccountId === null) return true;
    const account = await this.accounts.findById(ctx.platformId, quote.sourceAccountId);
    return account !== undefined && account.posted - account.held >= quote.sendingAmount;
  }
}
