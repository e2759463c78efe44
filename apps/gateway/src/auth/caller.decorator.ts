import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { CallerContext } from '@paykit/contracts';

export interface AuthenticatedRequest {
  caller?: CallerContext;
}

/** The authenticated caller's context, set by the AuthGuard. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): CallerContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.caller) throw new Error('Caller context missing: route is not behind AuthGuard');
  return request.caller;
});
