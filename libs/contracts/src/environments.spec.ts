import { environmentTenantId, sandboxRulesApply, tenantContext, tenantEnvironment, tenantPlatformId } from './environments';

describe('environments', () => {
  const platformId = 'Platform:0190a000-0000-7000-8000-000000000001';

  it("keeps the platform's id as its sandbox tenant (rows written before the split are sandbox rows) and marks the production one", () => {
    expect(environmentTenantId(platformId, 'sandbox')).toBe(platformId);
    const production = environmentTenantId(platformId, 'production');
    expect(production).not.toBe(platformId);
    expect(tenantEnvironment(production)).toBe('production');
    expect(tenantEnvironment(platformId)).toBe('sandbox');
    expect(tenantPlatformId(production)).toBe(platformId);
    expect(tenantPlatformId(platformId)).toBe(platformId);
    // Given a tenant id already, the mapping names the same tenants (never a tenant of a tenant).
    expect(environmentTenantId(production, 'production')).toBe(production);
    expect(environmentTenantId(production, 'sandbox')).toBe(platformId);
  });

  it('gives work a service starts by itself the environment of its tenant', () => {
    expect(tenantContext(environmentTenantId(platformId, 'production'), 'job:1')).toEqual({
      platformId: environmentTenantId(platformId, 'production'),
      environment: 'production',
      requestId: 'job:1',
    });
    expect(tenantContext(platformId, 'job:2').environment).toBe('sandbox');
  });

  it.each([
    ['sandbox', 'sandbox', 'sandbox', true],
    ['sandbox', 'production', 'production', false],
    ['production', 'sandbox', 'sandbox', false],
    ['production', 'production', 'production', false],
    // A context claiming sandbox for a production tenant never gets sandbox rules.
    ['sandbox', 'sandbox', 'production', false],
  ] as const)('deployment %s, caller %s, tenant %s: sandbox rules apply = %s', (deployment, environment, tenant, expected) => {
    expect(sandboxRulesApply(deployment, { platformId: environmentTenantId(platformId, tenant), environment })).toBe(expected);
  });
});
