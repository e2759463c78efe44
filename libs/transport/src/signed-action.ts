import { CallerContext, IssueSignedRetryRequest, SignedRetryChallenge, SignedRetryInput, WALLET_AUTH_SUBJECTS } from '@paykit/contracts';
import { ServiceClient } from './service-client';

/**
 * The owning service's step of a signed action (docs/architecture.md, "Signed retry"), once it
 * has validated the whole request: without the signature headers, the challenge to answer with
 * (202); with them, wallet-auth consumes the challenge (its 401s reach the client) and undefined
 * comes back, so the caller applies the change.
 */
export async function challengeOrConsume(services: ServiceClient, ctx: CallerContext, binding: IssueSignedRetryRequest, input: SignedRetryInput): Promise<SignedRetryChallenge | undefined> {
  const { signature, requestId } = input;
  if (signature === undefined && requestId === undefined) return services.request(WALLET_AUTH_SUBJECTS.issueSignedRetry, binding, ctx);
  await services.request(WALLET_AUTH_SUBJECTS.consumeSignedRetry, { ...binding, signature, requestId }, ctx);
  return undefined;
}
