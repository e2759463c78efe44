import { Injectable } from '@nestjs/common';
import { AgentCreateQuoteMessage, CallerContext, CreateQuoteMessage, Quote } from '@paykit/contracts';
import { isClientRetry } from '../../client-retries';
import { QuotesService } from '../../quotes/quotes.service';
import { AgentActionsRepository } from '../agent-actions.repository';
import { RepeatedQuoteRequest, SubmitAgentQuote } from './submit-agent-quote';

/**
 * POST /agents/me/quotes with `immediatelyExecute`: the quote is created, then submitted as the
 * agent's action (`executeQuote`), and answered as GET returns it. Without an Idempotency-Key the
 * quote records its request's fingerprint (origin: the agent) in the transaction that submits it,
 * and a client's retry (`retryOf`) answers the most recent quote with that fingerprint of the
 * last 24 hours instead of creating and executing another (see client-retries.ts). A repeated
 * Idempotency-Key answers the quote its first call created and submitted.
 */
@Injectable()
export class CreateAgentQuote {
  constructor(
    private readonly quotes: QuotesService,
    private readonly repository: AgentActionsRepository,
    private readonly submitQuote: SubmitAgentQuote,
  ) {}

  async run(ctx: CallerContext, message: AgentCreateQuoteMessage): Promise<Quote> {
    const { agent, quote: request } = message;
    const { immediatelyExecute, retryOf, ...rest } = request;
    const create = rest as CreateQuoteMessage;
    if (immediatelyExecute !== true) return this.quotes.create(ctx, create);
    // The agent's route is its own: a client's retry of it answers only this agent's earlier quote.
    const fingerprint = this.quotes.fingerprintOf(request, `agent:${agent.agentId}`);
    if (fingerprint && isClientRetry(retryOf)) {
      const earlier = await this.quotes.retried(ctx, fingerprint);
      if (earlier) return this.quotes.get(ctx, earlier.id);
    }
    const created = await this.quotes.create(ctx, create);
    // A repeated Idempotency-Key replayed the quote: submitted by its first call already.
    if (!(await this.repository.findByQuote(ctx.platformId, created.id))) {
      try {
        await this.submitQuote.run(ctx, { agent, quoteId: created.id }, fingerprint ? { fingerprint, retryOf } : undefined);
      } catch (error) {
        // The quote just created stays PENDING and expires; the retry answers the quote of the try it repeats.
        if (error instanceof RepeatedQuoteRequest) return this.quotes.get(ctx, error.quoteId);
        throw error;
      }
    }
    return this.quotes.get(ctx, created.id);
  }
}
