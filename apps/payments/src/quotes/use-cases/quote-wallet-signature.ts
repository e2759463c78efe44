import { createHash } from 'node:crypto';
import { SignedRetryInput } from '@paykit/contracts';
import { QuoteEntity } from '../entities/quote.entity';

/** What an EMBEDDED_WALLET quote's own challenge is bound to: the quote, its sending amount and currency. */
export function quoteExecutionDigest(quote: Pick<QuoteEntity, 'id' | 'sendingAmount' | 'sourceCurrency'>): string {
  return createHash('sha256')
    .update(JSON.stringify({ operation: 'QUOTE_EXECUTE', quoteId: quote.id, amount: quote.sendingAmount.toString(), currency: quote.sourceCurrency }))
    .digest('hex');
}

/**
 * The signed-retry input of an execution. A signature without a `Request-Id` (or with the
 * quote's) answers the challenge issued with the quote (the reference's one call): it is consumed
 * as bound to the quote, not to this request. Anything else is the two-call form, as sent.
 */
export function quoteSignedRetry(quote: QuoteEntity, input: SignedRetryInput): SignedRetryInput {
  const issued = quote.extra.walletSignature;
  if (!issued || input.signature === undefined || (input.requestId !== undefined && input.requestId !== issued.requestId)) return input;
  return { requestDigest: quoteExecutionDigest(quote), signature: input.signature, requestId: issued.requestId };
}
