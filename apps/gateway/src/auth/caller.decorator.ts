import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AgentPolicy, CallerContext } from '@paykit/contracts';

/** The agent behind an AgentAuth request, as it was when the request arrived. */
export interface AuthenticatedAgent {
  agentId: string;
  customerId: string;
  name: string;
  policy: AgentPolicy;
}

export interface AuthenticatedRequest {
  caller?: CallerContext;
  agent?: AuthenticatedAgent;
}

/** The authenticated caller's context, set by the AuthGuard. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext): CallerContext => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.caller) throw new Error('Caller context missing: route is not behind AuthGuard');
  return request.caller;
});

/** The calling agent of an `@AgentAuthOnly()` route. */
export const CurrentAgent = createParamDecorator((_: unknown, context: ExecutionContext): AuthenticatedAgent => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.agent) throw new Error('Agent missing: route is not @AgentAuthOnly()');
  return request.agent;
});
