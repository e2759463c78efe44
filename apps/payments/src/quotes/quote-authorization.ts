import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import {
  AuthorizeQuoteMessage,
  CallerContext,
  PAYMENTS_EVENTS,
  Quote,
  QUOTE_AUTHORIZATION_WEBHOOK_TYPES,
  Transaction,
  QuoteFailureReason,
  ScaBindingInput,
  ScaChallenge,
  ScaChallengePurpose,
  WALLET_AUTH_SCA_SUBJECTS,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, JobScheduler, Outbox, TransactionRunner } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { EntityManager } from 'typeorm';
import { QuoteEntity } from './entities/quote.entity';
import { EXPIRE_QUOTE_AUTHORIZATION_JOB } from './quotes.jobs';
import { QuotesRepository } from './quotes.repository';

/**
 * Strong Customer Authentication of quotes (POST /quotes/{quoteId}/authorize and its resend): a
 * quote of an SCA-regulated customer does not move money until each challenge of its sequence is
 * authorized. An ACCOUNT-funded quote's execution answers PENDING_AUTHORIZATION with the first
 * challenge (CURRENCY_CONVERSION then PAYOUT when the currencies differ, else PAYOUT; a payout to
 * a trusted beneficiary needs none) and executes once the last is authorized; a real-time funded
 * quote is created PENDING_AUTHORIZATION (FUNDING) and shows its payment instructions once
 * authorized. wallet-auth owns the challenges, their codes, the SCA session and the lock; each is
 * bound to the quote's amount, currency and payee (dynamic linking). A challenge unanswered at
 * its expiry fails the quote (SCA_NOT_COMPLETED), nothing moved.
 */
/** What the authorization needs of the quotes service (which hands itself over at start: no cycle of providers). */
export interface QuoteExecutor {
  get(ctx: CallerContext, quoteId: string): Promise<Quote>;
  executeAuthorized(ctx: CallerContext, quote: QuoteEntity): Promise<Quote>;
  transactionToBe(quote: QuoteEntity, failureReason: QuoteFailureReason | null): Promise<Transaction>;
}

@Injectable()
export class QuoteAuthorization implements OnModuleInit {
  private executor?: QuoteExecutor;

  constructor(
    private readonly quotes: QuotesRepository,
    private readonly scheduler: JobScheduler,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  /** The quotes service, set once at its start. */
  bind(executor: QuoteExecutor): void {
    this.executor = executor;
  }

  private get quotesService(): QuoteExecutor {
    if (!this.executor) throw new Error('QuoteAuthorization used before the quotes service started');
    return this.executor;
  }

  onModuleInit(): void {
    this.scheduler.register(EXPIRE_QUOTE_AUTHORIZATION_JOB, async (payload, manager) => {
      const failed = await this.quotes.authorizationExpired(manager, payload.platformId, payload.quoteId, payload.challengeId, this.clock.now());
      if (failed) await this.announce(manager, failed, 'SCA_NOT_COMPLETED');
    });
  }

  /** The challenges a quote needs, in order. */
  purposesOf(quote: Pick<QuoteEntity, 'sourceType' | 'sourceCurrency' | 'destinationCurrency'>): ScaChallengePurpose[] {
    if (quote.sourceType === 'REALTIME_FUNDING') return ['FUNDING'];
    return quote.sourceCurrency === quote.destinationCurrency ? ['PAYOUT'] : ['CURRENCY_CONVERSION', 'PAYOUT'];
  }

  /**
   * The first challenge a new real-time funded quote of a regulated customer waits for (it is
   * inserted PENDING_AUTHORIZATION with it), or undefined when it needs none.
   */
  async firstChallenge(ctx: CallerContext, quote: QuoteEntityDraft): Promise<QuoteEntity['extra']['sca']> {
    return this.nextChallenge(ctx, quote, this.purposesOf(quote));
  }

  /**
   * The execution of a regulated customer's quote: PENDING_AUTHORIZATION with its first
   * challenge, or undefined when no challenge applies (a same-currency payout to a trusted
   * beneficiary), in which case the execution goes ahead.
   */
  async begin(ctx: CallerContext, quote: QuoteEntity): Promise<Quote | undefined> {
    const sca = await this.nextChallenge(ctx, quote, this.purposesOf(quote));
    if (!sca) return undefined;
    return this.wait(ctx, quote, sca, null);
  }

  /** Announces a real-time funded quote created PENDING_AUTHORIZATION and schedules its challenge's expiry. */
  async created(ctx: CallerContext, quote: QuoteEntity): Promise<void> {
    await this.transactions.run(async (manager) => {
      await this.scheduleExpiry(manager, quote, quote.extra.sca!.challenge);
      await this.announce(manager, quote, null);
    });
  }

  async authorize(ctx: CallerContext, request: AuthorizeQuoteMessage): Promise<Quote> {
    const quote = await this.require(ctx, request.quoteId);
    if (!quote.extra.scaRegulated) throw notRegulated(quote.id);
    const sca = quote.extra.sca;
    if (quote.status !== 'PENDING_AUTHORIZATION' || !sca) {
      throw new ServiceError('CONFLICT', `Quote ${quote.id} is ${quote.status}: it has no pending challenge to authorize`, {
        reason: 'NO_PENDING_CHALLENGE',
        status: quote.status,
      });
    }
    // wallet-auth checks the proof against the challenge and the quote as it is now (dynamic linking).
    await this.services.request(
      WALLET_AUTH_SCA_SUBJECTS.verifyChallenge,
      {
        customerId: quote.customerId!,
        challengeId: sca.challenge.id,
        binding: bindingOf(quote),
        code: request.code,
        passkeyAssertion: request.passkeyAssertion,
        origin: request.origin,
        endUserIpAddress: request.endUserIpAddress,
      },
      ctx,
    );
    const next = await this.nextChallenge(ctx, quote, sca.remaining);
    if (next) return this.wait(ctx, quote, next, sca.challenge.id);
    const now = this.clock.now();
    const authorized = await this.transactions.run((manager) => this.quotes.authorized(manager, ctx.platformId, quote.id, sca.challenge.id, now));
    if (!authorized) throw new ServiceError('CONFLICT', `Quote ${quote.id} was authorized or failed concurrently`, { reason: 'NO_PENDING_CHALLENGE' });
    // A real-time funded quote now shows its payment instructions; an ACCOUNT one executes.
    if (authorized.sourceType === 'REALTIME_FUNDING') return this.quotesService.get(ctx, quote.id);
    return this.quotesService.executeAuthorized(ctx, authorized);
  }

  async resend(ctx: CallerContext, quoteId: string): Promise<{ ok: true }> {
    const quote = await this.require(ctx, quoteId);
    if (!quote.extra.scaRegulated) throw notRegulated(quote.id);
    if (quote.status !== 'PENDING_AUTHORIZATION' || !quote.extra.sca) {
      throw new ServiceError('CONFLICT', `Quote ${quote.id} is ${quote.status}: it has no pending challenge`, { reason: 'NO_PENDING_CHALLENGE' });
    }
    await this.services.request(WALLET_AUTH_SCA_SUBJECTS.resendChallenge, { customerId: quote.customerId!, challengeId: quote.extra.sca.challenge.id }, ctx);
    return { ok: true };
  }

  /** The first of `purposes` that needs a challenge, issued (a payout to a trusted beneficiary needs none). */
  private async nextChallenge(ctx: CallerContext, quote: QuoteEntityDraft, purposes: ScaChallengePurpose[]): Promise<QuoteEntity['extra']['sca']> {
    for (const [index, purpose] of purposes.entries()) {
      const issued = await this.services.request(
        WALLET_AUTH_SCA_SUBJECTS.issueChallenge,
        {
          customerId: quote.customerId!,
          subjectId: quote.id,
          purpose,
          binding: bindingOf(quote),
          ...(quote.extra.scaFactor ? { preferredFactor: quote.extra.scaFactor } : {}),
          ...(purpose === 'PAYOUT' && quote.destinationKind === 'EXTERNAL_ACCOUNT' && quote.destinationAccountId ? { trustedPayeeCandidate: quote.destinationAccountId } : {}),
        },
        ctx,
      );
      if (issued.challenge) return { challenge: issued.challenge, remaining: purposes.slice(index + 1) };
    }
    return undefined;
  }

  private async wait(ctx: CallerContext, quote: QuoteEntity, sca: NonNullable<QuoteEntity['extra']['sca']>, previousChallengeId: string | null): Promise<Quote> {
    const now = this.clock.now();
    const waiting = await this.transactions.run(async (manager) => {
      const updated = await this.quotes.awaitAuthorization(manager, ctx.platformId, quote.id, sca, previousChallengeId, now);
      if (!updated) return undefined;
      await this.scheduleExpiry(manager, updated, sca.challenge);
      // Each challenge of the sequence is announced: the platform prompts the customer for it.
      await this.announce(manager, updated, null);
      return updated;
    });
    if (!waiting) {
      // Executed, expired or authorized meanwhile: answer as an execution of it would.
      const current = await this.require(ctx, quote.id);
      throw new ServiceError(current.status === 'EXPIRED' || current.expiresAt <= now ? 'CONFLICT' : 'INVALID_STATE_TRANSITION', `Quote ${quote.id} is ${current.status}`, {
        status: current.status,
      });
    }
    return this.quotesService.get(ctx, quote.id);
  }

  private async scheduleExpiry(manager: EntityManager, quote: QuoteEntity, challenge: ScaChallenge): Promise<void> {
    await this.scheduler.schedule(manager, {
      kind: EXPIRE_QUOTE_AUTHORIZATION_JOB,
      payload: { platformId: quote.platformId, quoteId: quote.id, challengeId: challenge.id },
      delayMs: Math.max(0, new Date(challenge.expiresAt).getTime() - this.clock.now().getTime()),
      // A deadline of the platform's clock (the challenge's expiresAt), not a simulated delay: never scaled.
      platformId: quote.platformId,
      dedupeKey: `${challenge.id}:expire`,
    });
  }

  /** OUTGOING_PAYMENT.PENDING_AUTHORIZATION (or FAILED, SCA_NOT_COMPLETED) with the transaction the execution would create. */
  private async announce(manager: EntityManager, quote: QuoteEntity, failureReason: QuoteFailureReason | null): Promise<void> {
    const transaction = await this.quotesService.transactionToBe(quote, failureReason);
    await this.outbox.add(manager, {
      subject: PAYMENTS_EVENTS.quoteAuthorizationChanged,
      platformId: quote.platformId,
      resourceId: transaction.id,
      webhookType: failureReason ? QUOTE_AUTHORIZATION_WEBHOOK_TYPES.notCompleted : QUOTE_AUTHORIZATION_WEBHOOK_TYPES.pendingAuthorization,
      data: { ...transaction, status: failureReason ? 'FAILED' : 'PENDING_AUTHORIZATION' },
    });
  }

  /** The caller's quote (an agent sees its customer's only). */
  private async require(ctx: CallerContext, quoteId: string): Promise<QuoteEntity> {
    const quote = await this.quotes.findById(ctx.platformId, quoteId);
    if (!quote || (ctx.agent && quote.customerId !== ctx.agent.customerId)) throw new ServiceError('QUOTE_NOT_FOUND', `Quote ${quoteId} not found`);
    return quote;
  }
}

/** What a quote's challenges are bound to: the amount and currency sent, and the payee. */
export function bindingOf(quote: Pick<QuoteEntity, 'sendingAmount' | 'sourceCurrency' | 'destinationAccountId' | 'destinationUmaAddress'>): ScaBindingInput {
  return { amount: quote.sendingAmount.toString(), currency: quote.sourceCurrency, payee: quote.destinationAccountId ?? quote.destinationUmaAddress ?? '' };
}

type QuoteEntityDraft = Pick<
  QuoteEntity,
  'id' | 'customerId' | 'sourceType' | 'sourceCurrency' | 'destinationCurrency' | 'destinationKind' | 'destinationAccountId' | 'destinationUmaAddress' | 'sendingAmount' | 'extra'
>;

function notRegulated(quoteId: string): ServiceError {
  return new ServiceError('CONFLICT', `Quote ${quoteId} is not subject to Strong Customer Authentication (its customer is not SCA-regulated)`, { reason: 'SCA_NOT_REQUIRED' });
}
