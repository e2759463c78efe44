import {
  AuthMethodType,
  CallerContext,
  ConsumeSignedRetryRequest,
  IssueSignedRetryRequest,
  SignedOperation,
  SignedRetryChallenge,
  SignedRetryInput,
  SignedRetryOutcome,
  SignedRetryProof,
  WALLET_AUTH_SUBJECTS,
} from '@paykit/contracts';
import { ServiceClient } from './service-client';

/** Which call of the two-call pattern a request is. */
export type SignedRetryStep = 'first-call' | 'retry';

/** No signature headers at all: the first call. Any signature header: the retry (missing ones are 401s). */
export function signedRetryStep(input: Pick<SignedRetryInput, 'signature' | 'requestId'>): SignedRetryStep {
  return input.signature === undefined && input.requestId === undefined ? 'first-call' : 'retry';
}

/**
 * What issues and consumes signed-retry challenges: wallet-auth, asked over the transport by the
 * services that own a signed action, or called in process by wallet-auth for its own actions.
 * `Proof` is what the change is applied with once the challenge is consumed.
 */
export interface SignedRetryAuthority<Proof> {
  issue(ctx: CallerContext, binding: IssueSignedRetryRequest): Promise<SignedRetryChallenge>;
  /** Consumes the retry's challenge (its 401s reach the client), then applies the change. */
  consumeAndApply<T>(ctx: CallerContext, retry: ConsumeSignedRetryRequest, apply: (proof: Proof) => Promise<T>): Promise<T>;
}

/** A signed action: the account whose sessions may sign, the operation, and the request as the gateway passed it. */
export interface SignedActionBinding {
  accountId: string;
  operation: SignedOperation;
  input: SignedRetryInput;
  /** The credential type the 202 answer names (wallet-auth's credential and session actions). */
  challengeType?: AuthMethodType;
}

/**
 * The one step of every signed action (docs/architecture.md, "Signed retry"), taken by the
 * service that owns the action once it has validated the whole request (so its 4xx come before
 * any challenge): the first call answers the challenge (202); the retry consumes it and only then
 * applies.
 */
export async function signedAction<Proof, T>(
  authority: SignedRetryAuthority<Proof>,
  ctx: CallerContext,
  action: SignedActionBinding,
  apply: (proof: Proof) => Promise<T>,
): Promise<SignedRetryOutcome<T>> {
  const binding = { accountId: action.accountId, operation: action.operation, requestDigest: action.input.requestDigest };
  if (signedRetryStep(action.input) === 'first-call') {
    const challenge = await authority.issue(ctx, binding);
    return { challenge: action.challengeType === undefined ? challenge : { ...challenge, type: action.challengeType } };
  }
  const { signature, requestId } = action.input;
  return { result: await authority.consumeAndApply(ctx, { ...binding, signature, requestId }, apply) };
}

/**
 * wallet-auth as the authority of another service's signed action. The consumption commits in
 * wallet-auth before the change is applied here: a failed apply leaves the request id spent, and
 * the client starts over with a new challenge.
 */
export function walletAuthOverTransport(services: ServiceClient): SignedRetryAuthority<SignedRetryProof> {
  return {
    issue: (ctx, binding) => services.request(WALLET_AUTH_SUBJECTS.issueSignedRetry, binding, ctx),
    consumeAndApply: async (ctx, retry, apply) => apply(await services.request(WALLET_AUTH_SUBJECTS.consumeSignedRetry, retry, ctx)),
  };
}
