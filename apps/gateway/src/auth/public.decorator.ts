import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'paykit:public-route';
export const BASIC_AUTH_ONLY = 'paykit:basic-auth-only';

/** Reachable without credentials (health, docs). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Platform credentials only: AgentAuth bearer tokens are refused (e.g. sandbox simulators). */
export const BasicAuthOnly = (): MethodDecorator & ClassDecorator => SetMetadata(BASIC_AUTH_ONLY, true);
