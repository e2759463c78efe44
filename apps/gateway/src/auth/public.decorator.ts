import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'paykit:public-route';
export const BASIC_AUTH_ONLY = 'paykit:basic-auth-only';

/** Reachable without credentials (health, docs). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Platform credentials only: AgentAuth bearer tokens are refused (e.g. sandbox simulators). */
export const BasicAuthOnly = (): MethodDecorator & ClassDecorator => SetMetadata(BASIC_AUTH_ONLY, true);

export const AGENT_AUTH_ONLY = 'paykit:agent-auth-only';

/**
 * AgentAuth bearer only (the `/agents/me*` routes): the caller is the agent, bound to its
 * customer and policy; platform credentials are refused. Every other route takes BasicAuth only.
 */
export const AgentAuthOnly = (): MethodDecorator & ClassDecorator => SetMetadata(AGENT_AUTH_ONLY, true);
