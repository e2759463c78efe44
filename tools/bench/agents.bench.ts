import { BenchContext, BenchFigure } from './bench-types';

/**
 * AgentAuth against BasicAuth on the same read (distributed): an agent's GET
 * /agents/me/internal-accounts next to the platform's GET /customers/internal-accounts of the
 * same customer, one after the other in the same run. Both credentials are cached by the
 * gateway replica once verified (the agent token by digest, dropped on every replica as a change
 * to its agent commits). Target: the agent route within 10% of the platform's.
 */
const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

export async function runAgentsBench(ctx: BenchContext): Promise<BenchFigure[]> {
  const call = async <T>(method: string, path: string, body?: unknown, authorization: string | null = ctx.authorization): Promise<T> => {
    const response = await fetch(`${ctx.baseUrl}${path}`, {
      method,
      headers: { ...(authorization ? { authorization } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  const customer = await call<{ id: string }>('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Agent Bench',
    email: 'agent-bench@example.com',
    birthDate: '1990-04-12',
    nationality: 'GB',
    address: ADDRESS,
  });
  // The customer's accounts are provisioned from its creation event: wait until the list shows them.
  for (let attempt = 0; attempt < 600; attempt++) {
    const listed = await call<{ data: unknown[] }>('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`);
    if (listed.data.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const created = await call<{ deviceCode: { code: string } }>('POST', '/agents', {
    name: 'Bench agent',
    customerId: customer.id,
    policy: { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1 } },
  });
  const { accessToken } = await call<{ accessToken: string }>('POST', `/agents/device-codes/${created.deviceCode.code}/redeem`, undefined, null);

  const basicUrl = `${ctx.baseUrl}/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`;
  const agentUrl = `${ctx.baseUrl}/agents/me/internal-accounts`;
  const basic = { title: 'BasicAuth GET /customers/internal-accounts', url: basicUrl, headers: { authorization: ctx.authorization } };
  const agent = { title: 'AgentAuth GET /agents/me/internal-accounts', url: agentUrl, headers: { authorization: `Bearer ${accessToken}` } };
  // Both hot before either is counted.
  await ctx.load({ ...basic, durationSeconds: 2 });
  await ctx.load({ ...agent, durationSeconds: 2 });
  // Basic, agent, agent, basic: a load that drifts during the run (the machine is shared) weighs on both alike.
  const runs = [await ctx.load(basic), await ctx.load(agent), await ctx.load(agent), await ctx.load(basic)];
  for (const result of runs) {
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  const basicResult = { requestsPerSecond: (runs[0].requestsPerSecond + runs[3].requestsPerSecond) / 2 };
  const agentResult = { requestsPerSecond: (runs[1].requestsPerSecond + runs[2].requestsPerSecond) / 2, p99Ms: Math.max(runs[1].p99Ms, runs[2].p99Ms) };
  const ratio = agentResult.requestsPerSecond / basicResult.requestsPerSecond;
  return [
    { scenario: 'agents (distributed)', metric: 'BasicAuth req/s', value: Math.round(basicResult.requestsPerSecond), unit: 'req/s' },
    { scenario: 'agents (distributed)', metric: 'AgentAuth req/s', value: Math.round(agentResult.requestsPerSecond), unit: 'req/s' },
    { scenario: 'agents (distributed)', metric: 'AgentAuth p99', value: agentResult.p99Ms, unit: 'ms' },
    { scenario: 'agents (distributed)', metric: 'AgentAuth / BasicAuth', value: Math.round(ratio * 1000) / 10, unit: '%', target: '>= 90', met: ratio >= 0.9 },
  ];
}
