import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, ExecuteQuoteMessage, Quote, SignedRetryOutcome } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { requestHash } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient, signedAction, walletAuthOverTransport } from '@paykit/transport';
import { accountNotActive, accountNotFound } from '../../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { QuoteEntity } from '../entities/quote.entity';
import { QuoteAuthorization } from '../quote-authorization';
import { QuoteExecutionRun } from './quote-execution-run';
import { assertExecutable, QuoteReader } from './quote-reader';
import { quoteSignedRetry } from './quote-wallet-signature';

/**
 * POST /quotes/{id}/execute. From an EMBEDDED_WALLET it is a signed action of the wallet: every
 * check runs first (so 4xx come before any challenge), and the money moves only once wallet-auth
 * consumed a challenge signed by a session of the wallet. Two forms share that one step: the
 * reference's one call, whose `Service-Wallet-Signature` stamps the quote's own `payloadToSign`
 * (the challenge issued with the quote), and the two-call signed retry (no signature: 202 with a
 * challenge bound to this request; the retry names it by `Request-Id`). A repeat of an answered
 * Idempotency-Key gets that answer, unsigned.
 */
@Injectable()
export class ExecuteQuote {
  constructor(
    private readonly reader: QuoteReader,
    private readonly executionRun: QuoteExecutionRun,
    private readonly accounts: InternalAccountsRepository,
    private readonly authorization: QuoteAuthorization,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  async run(ctx: CallerContext, request: ExecuteQuoteMessage): Promise<SignedRetryOutcome<Quote>> {
    const hash = requestHash({ operation: 'quote-execute', quoteId: request.quoteId });
    const quote = await this.reader.requireFor(ctx, request.quoteId);
    // Looked for after the quote is read: an execution under the same key that committed before
    // that read left its answer too, so a retry racing it replays instead of finding it executed.
    if (request.idempotencyKey) {
      const earlier = await this.reader.replayed(ctx.platformId, request.idempotencyKey, hash);
      if (earlier) return { result: earlier };
    }
    const now = this.reader.now();
    assertExecutable(quote, now);
    if (quote.sourceType === 'REALTIME_FUNDING') {
      throw ServiceError.invalidInput([
        { field: 'quoteId', message: 'a REALTIME_FUNDING quote executes when its payment instructions are paid (POST /sandbox/send in the sandbox)' },
      ]);
    }
    let walletId: string | undefined;
    if (quote.sourceAccountId !== null) {
      const account = await this.accounts.findById(ctx.platformId, quote.sourceAccountId);
      if (!account) throw accountNotFound(quote.sourceAccountId);
      if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
      if (account.type === 'EMBEDDED_WALLET') walletId = account.id;
    }
    const run = () => this.once(ctx, quote, request.idempotencyKey, hash);
    if (walletId === undefined && quote.extra.scaRegulated) {
      // A regulated customer's quote waits for its challenges (POST /quotes/{quoteId}/authorize executes it).
      const waiting = await this.authorization.begin(ctx, quote);
      if (waiting) return { result: waiting };
    }
    if (walletId === undefined) return { result: await run() };
    if (!request.signedRetry) throw new ServiceError('WALLET_SIGNATURE_MISSING', `A quote paid from embedded wallet ${walletId} must be signed by a session of the wallet`);
    return signedAction(walletAuthOverTransport(this.services), ctx, { accountId: walletId, operation: 'QUOTE_EXECUTE', input: quoteSignedRetry(quote, request.signedRetry) }, run);
  }

  /** Executes a quote whose Strong Customer Authentication is complete (or that needed no challenge). */
  authorized(ctx: CallerContext, quote: QuoteEntity): Promise<Quote> {
    return this.once(ctx, quote, undefined, requestHash({ operation: 'quote-execute', quoteId: quote.id }));
  }

  private once(ctx: CallerContext, quote: QuoteEntity, idempotencyKey: string | undefined, hash: string): Promise<Quote> {
    return this.executionRun.run(ctx, quote, true, idempotencyKey, hash, this.reader.now());
  }
}
