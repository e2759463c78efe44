import { CallerContext, Environment } from './common';

/**
 * Sandbox and production data of one platform never mix: each (platform, environment) pair is its
 * own tenant, and services scope every query by the tenant id the gateway passes as
 * `CallerContext.platformId`. The sandbox tenant keeps the platform's own id (rows written before
 * environments were separated were sandbox rows); the production tenant is the platform id with
 * this mark after it. Ids never cross tenants, so a production token cannot see or move anything a
 * sandbox token made, sandbox-minted money included.
 */
const PRODUCTION_TENANT_MARK = '/production';

/** The tenant services scope by, for a platform's token of `environment` (given a tenant id, its platform's). */
export function environmentTenantId(platformId: string, environment: Environment): string {
  const platform = tenantPlatformId(platformId);
  return environment === 'production' ? `${platform}${PRODUCTION_TENANT_MARK}` : platform;
}

/** The environment a tenant id belongs to. */
export function tenantEnvironment(tenantId: string): Environment {
  return tenantId.endsWith(PRODUCTION_TENANT_MARK) ? 'production' : 'sandbox';
}

/** The platform a tenant id belongs to: what the wire shows where a platform id appears. */
export function tenantPlatformId(tenantId: string): string {
  return tenantId.endsWith(PRODUCTION_TENANT_MARK) ? tenantId.slice(0, -PRODUCTION_TENANT_MARK.length) : tenantId;
}

/** The context of work a service starts by itself (a job, an event) for a tenant: its environment follows from the tenant. */
export function tenantContext(tenantId: string, requestId: string): CallerContext {
  return { platformId: tenantId, environment: tenantEnvironment(tenantId), requestId };
}

/**
 * The one decision behind every sandbox rule (the magic-value suffix tables, fixed codes,
 * simulators, fund minting): true only on a sandbox deployment, for a sandbox caller of a sandbox
 * tenant. A production deployment never applies them, whatever the token says.
 */
export function sandboxRulesApply(deployment: Environment, ctx: Pick<CallerContext, 'platformId' | 'environment'>): boolean {
  return deployment === 'sandbox' && ctx.environment === 'sandbox' && tenantEnvironment(ctx.platformId) === 'sandbox';
}
