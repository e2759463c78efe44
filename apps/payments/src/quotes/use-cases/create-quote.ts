import { Injectable } from '@nestjs/common';
import { CallerContext, CreateQuoteMessage, Quote } from '@paykit/contracts';
import { IdempotencyStore, JobScheduler, requestHash } from '@paykit/persistence';
import { isClientRetry, requestFingerprint } from '../../client-retries';
import { QuoteEntity } from '../entities/quote.entity';
import { QuoteAuthorization } from '../quote-authorization';
import { EXPIRE_QUOTE_JOB } from '../quotes.jobs';
import { QuotesRepository } from '../quotes.repository';
import { DraftQuote } from './draft-quote';
import { ExecuteQuote } from './execute-quote';
import { QuoteExecutionRun } from './quote-execution-run';
import { QuoteReader } from './quote-reader';

/**
 * POST /quotes: a priced quote locked until `expiresAt`, written with its expiry job in one
 * statement; with `immediatelyExecute` (ACCOUNT sources), inserted and executed at once.
 */
@Injectable()
export class CreateQuote {
  constructor(
    private readonly draft: DraftQuote,
    private readonly reader: QuoteReader,
    private readonly quotes: QuotesRepository,
    private readonly executionRun: QuoteExecutionRun,
    private readonly executeQuote: ExecuteQuote,
    private readonly authorization: QuoteAuthorization,
    private readonly idempotency: IdempotencyStore,
    private readonly scheduler: JobScheduler,
  ) {}

  async run(ctx: CallerContext, request: CreateQuoteMessage): Promise<Quote> {
    const { idempotencyKey, retryOf, ...body } = request;
    const hash = requestHash({ operation: 'quote-create', ...body });
    if (idempotencyKey) {
      const earlier = await this.reader.replayed(ctx.platformId, idempotencyKey, hash);
      if (earlier) return earlier;
    }
    // Without a key, a client's retry of a quote executed at its creation answers that quote as it is now.
    const fingerprint = quoteFingerprintOf(request);
    if (fingerprint && isClientRetry(retryOf)) {
      const earlier = await this.reader.retried(ctx, fingerprint);
      if (earlier) return this.reader.toResource(earlier);
    }
    const { quote: entity, scaRegulated } = await this.draft.run(ctx, request);
    const now = entity.createdAt;
    // A real-time funded quote executes when its funds arrive, never here. An executing quote is
    // created PROCESSING: it never waits for execution, so it needs no expiry job either.
    if (request.immediatelyExecute === true && request.source.sourceType === 'ACCOUNT' && !scaRegulated) {
      return this.executionRun.run(ctx, fingerprint ? { ...entity, requestFingerprint: fingerprint } : entity, false, idempotencyKey, hash, now, retryOf);
    }
    // The quote and its expiry job: one statement (no transaction without an Idempotency-Key).
    const expiry = this.scheduler.scheduleStatement([
      {
        kind: EXPIRE_QUOTE_JOB,
        platformId: ctx.platformId,
        payload: { platformId: ctx.platformId, quoteId: entity.id },
        delayMs: entity.expiresAt.getTime() - now.getTime(),
        dedupeKey: `${entity.id}:expire`,
      },
    ]);
    // A real-time funded quote of a regulated customer waits for its FUNDING challenge: no payment instructions before it.
    const funding = scaRegulated && request.source.sourceType === 'REALTIME_FUNDING' ? await this.authorization.firstChallenge(ctx, entity) : undefined;
    if (funding) entity.extra.sca = funding;
    let inserted: QuoteEntity | undefined;
    const answer = await this.idempotency.runOnceInOneStatement(ctx.platformId, idempotencyKey, hash, async (manager) => {
      inserted = await this.quotes.insert(manager, entity, [expiry], funding !== undefined);
      return this.reader.toResource(inserted, now);
    });
    if (inserted && funding) await this.authorization.created(ctx, inserted);
    // immediatelyExecute for a regulated customer: the execution waits for its challenges.
    if (inserted && scaRegulated && request.immediatelyExecute === true && request.source.sourceType === 'ACCOUNT') {
      return (await this.authorization.begin(ctx, inserted)) ?? this.executeQuote.authorized(ctx, inserted);
    }
    return answer;
  }
}

/**
 * The fingerprint of a quote executed at its creation without an Idempotency-Key (`origin`:
 * `agent:<agentId>` for an agent's route), which a client's automatic retry of it matches (see
 * client-retries.ts); none for any other quote (nothing moves at its creation, or the key decides).
 */
export function quoteFingerprintOf(request: CreateQuoteMessage, origin?: string): string | undefined {
  const { idempotencyKey, retryOf: _retryOf, ...body } = request;
  if (idempotencyKey || request.immediatelyExecute !== true || request.source.sourceType !== 'ACCOUNT') return undefined;
  return requestFingerprint('quote-create', origin, body);
}
