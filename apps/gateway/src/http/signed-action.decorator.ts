import { applyDecorators, createParamDecorator, ExecutionContext, Type, UseInterceptors } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader } from '@nestjs/swagger';
import { SignedRetryInput } from '@paykit/contracts';
import { SignedRetryChallengeDto } from '../wallet-auth/dto/wallet-auth.response';
import { SignedActionInterceptor, SignedActionRequest } from './signed-action.interceptor';

/**
 * A route whose action is signed (docs/architecture.md, "Signed retry"): the handler passes
 * `@SignedRetry()` in its message and returns the owning service's SignedRetryOutcome, which
 * answers 202 with the challenge or the result. Documents the two headers and the 202 answer
 * (`challenge`: the 202 body's class where the route's challenge names more than the common fields).
 */
export function SignedAction(options: { challenge?: Type<SignedRetryChallengeDto> } = {}): MethodDecorator {
  return applyDecorators(
    UseInterceptors(SignedActionInterceptor),
    ApiHeader({
      name: 'Service-Wallet-Signature',
      required: false,
      description: 'On the signed retry: the API-key stamp (base64url JSON {publicKey, scheme, signature}) over `payloadToSign`, made with a session key of the account',
    }),
    ApiHeader({ name: 'Request-Id', required: false, description: 'On the signed retry: the `requestId` of the 202 answer; single use' }),
    ApiAcceptedResponse({
      type: options.challenge ?? SignedRetryChallengeDto,
      description: 'First call: sign `payloadToSign` and retry the same request with both headers before `expiresAt`',
    }),
  );
}

/** The signed-retry input of a `@SignedAction()` route's request, for the owning service's message. */
export const SignedRetry = createParamDecorator((_: unknown, context: ExecutionContext): SignedRetryInput => {
  const { signedRetry } = context.switchToHttp().getRequest<SignedActionRequest>();
  if (!signedRetry) throw new Error('Signed-retry input missing: route is not a @SignedAction()');
  return signedRetry;
});
