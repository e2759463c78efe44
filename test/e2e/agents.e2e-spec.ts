import { CallerContext, CUSTOMERS_SUBJECTS, InternalAccount, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { ApiClient, ApiResponse } from '../support/api-client';
import { mxnExternalAccountBody, usdExternalAccountBody } from '../support/payments-fixtures';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const ALL_AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];

/** Calls as an agent: the AgentAuth bearer token only. */
interface AgentCaller {
  get(path: string): Promise<ApiResponse>;
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  delete(path: string): Promise<ApiResponse>;
}

function asAgent(api: ApiClient, token: string): AgentCaller {
  const options = (headers: Record<string, string> = {}) => ({ auth: null, headers: { authorization: `Bearer ${token}`, ...headers } });
  return {
    get: (path) => api.get(path, options()),
    post: (path, body, headers) => api.post(path, body, options(headers)),
    delete: (path) => api.delete(path, options()),
  };
}

/**
 * Agents (issue 18): a platform creates an agent for a customer with a policy, the agent software
 * redeems its device code for an AgentAuth token and moves money within the policy; actions over
 * the threshold or in approval mode wait for the platform. Its caches across two gateway replicas:
 * agents-replicas.e2e-spec.ts.
 */
describe('Agents', () => {
  let t: TestStack;
  let api: ApiClient;
  let ctx: CallerContext;

  beforeAll(async () => {
    t = await startTestStack();
    const platform = await t.newPlatform();
    api = platform.api;
    ctx = { platformId: platform.platformId, environment: 'sandbox', requestId: 'agents-test' };
    // A regulated platform's customers are KYC APPROVED at creation: they can move money at once.
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** A customer with a funded USD account and an external account that settles (suffix 001). */
  async function fundedCustomer(funds = 1_000_000, client = api): Promise<{ customerId: string; accountId: string; externalId: string }> {
    const created = await client.post('/customers', {
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      birthDate: '1990-04-12',
      nationality: 'GB',
      address: ADDRESS,
    });
    expect(created.status).toBe(201);
    const customerId = created.body.id;
    const accountId = await eventually(async () => {
      const listed = await client.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD&type=INTERNAL_FIAT`);
      return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
    });
    if (funds > 0) expect((await client.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: funds })).status).toBe(200);
    const external = await client.post('/customers/external-accounts', { customerId, ...usdExternalAccountBody('001') });
    expect(external.status).toBe(201);
    return { customerId, accountId, externalId: external.body.id };
  }

  function policy(overrides: Record<string, unknown> = {}, limits: Record<string, unknown> = {}) {
    return {
      permissions: ALL_AGENT_PERMISSIONS,
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 200_000, dailyTransactionLimit: 20, monthlyLimit: 1_000_000, ...limits },
      ...overrides,
    };
  }

  /** An agent for the customer, connected: its device code redeemed. */
  async function connectedAgent(customerId: string, agentPolicy = policy(), client = api): Promise<{ agentId: string; agent: AgentCaller; accessToken: string }> {
    const created = await client.post('/agents', { name: 'Payroll bot', customerId, policy: agentPolicy });
    expect(created.status).toBe(201);
    const redeemed = await api.post(`/agents/device-codes/${created.body.deviceCode.code}/redeem`, undefined, { auth: null });
    expect(redeemed.status).toBe(200);
    return { agentId: created.body.agent.id, agent: asAgent(api, redeemed.body.accessToken), accessToken: redeemed.body.accessToken };
  }

  const transferOut = (agent: AgentCaller, accountId: string, externalId: string, amount: number) =>
    agent.post('/agents/me/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount });

  const balanceOf = async (accountId: string): Promise<number> => (await api.get(`/internal-accounts/${accountId}`)).body.balance.amount;

  describe('agents and device codes', () => {
    it('creates an agent with a device code that redeems once for an access token; status, get, list, rename, pause, resume and delete', async () => {
      const { customerId } = await fundedCustomer(0);
      const created = await api.post('/agents', { name: 'Payroll bot', customerId, policy: policy() });
      expect(created.status).toBe(201);
      const { agent, deviceCode } = created.body;
      expect(agent).toMatchObject({ id: expect.stringMatching(/^Agent:/), name: 'Payroll bot', customerId, isPaused: false, isConnected: false });
      expect(agent.usage).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 });
      expect(deviceCode).toMatchObject({ code: expect.stringMatching(/^AGENT-/), agentId: agent.id, redeemed: false });

      expect((await api.get(`/agents/device-codes/${deviceCode.code}/status`)).body).toEqual({ code: deviceCode.code, redeemed: false });
      const redeemed = await api.post(`/agents/device-codes/${deviceCode.code}/redeem`, undefined, { auth: null });
      expect(redeemed.status).toBe(200);
      expect(redeemed.body).toMatchObject({ agentId: agent.id, agentName: 'Payroll bot', accessToken: expect.any(String), policy: { defaultExecutionMode: 'AUTO' } });
      expect((await api.get(`/agents/device-codes/${deviceCode.code}/status`)).body.redeemed).toBe(true);
      // Single use: the second redemption gets no token.
      const again = await api.post(`/agents/device-codes/${deviceCode.code}/redeem`, undefined, { auth: null });
      expect(again.status).toBe(400);
      expect(again.body.accessToken).toBeUndefined();
      expect((await api.post('/agents/device-codes/AGENT-NOPE-NOPE-NOPE/redeem', undefined, { auth: null })).status).toBe(404);
      // A connected agent gets no new code.
      expect((await api.post(`/agents/${agent.id}/device-codes`)).status).toBe(409);

      const me = asAgent(api, redeemed.body.accessToken);
      expect((await me.get('/agents/me')).body).toMatchObject({ id: agent.id, isConnected: true });
      expect((await api.get(`/agents/${agent.id}`)).body).toMatchObject({ id: agent.id, isConnected: true });
      const listed = await api.get(`/agents?customerId=${customerId}&isConnected=true`);
      expect(listed.body.data.map((row: { id: string }) => row.id)).toEqual([agent.id]);
      expect((await api.get(`/agents?customerId=${customerId}&isPaused=true`)).body.data).toEqual([]);

      expect((await api.patch(`/agents/${agent.id}`, { name: 'Renamed bot' })).body.name).toBe('Renamed bot');
      expect((await api.patch(`/agents/${agent.id}`, { isPaused: true })).body.isPaused).toBe(true);
      const paused = await me.get('/agents/me');
      expect(paused.status).toBe(401);
      expect((await api.patch(`/agents/${agent.id}`, { isPaused: false })).body.isPaused).toBe(false);
      expect((await me.get('/agents/me')).status).toBe(200);

      expect((await api.delete(`/agents/${agent.id}`)).status).toBe(204);
      expect((await me.get('/agents/me')).status).toBe(401);
      expect((await api.get(`/agents/${agent.id}`)).status).toBe(404);
      expect((await api.delete(`/agents/${agent.id}`)).status).toBe(404);
    });

    it('counts the agents matching the filters (totalCount) on every page of GET /agents', async () => {
      const { customerId } = await fundedCustomer(0);
      const ids: string[] = [];
      for (const name of ['one', 'two', 'three']) ids.push((await api.post('/agents', { name, customerId, policy: policy() })).body.agent.id);
      expect((await api.patch(`/agents/${ids[0]}`, { isPaused: true })).status).toBe(200);
      const first = await api.get(`/agents?customerId=${customerId}&limit=2`);
      expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
      expect(first.body.data).toHaveLength(2);
      const next = await api.get(`/agents?customerId=${customerId}&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(next.body).toMatchObject({ hasMore: false, totalCount: 3 });
      expect(next.body.data).toHaveLength(1);
      expect((await api.get(`/agents?customerId=${customerId}&isPaused=true`)).body).toMatchObject({ totalCount: 1, data: [{ id: ids[0] }] });
      expect((await api.delete(`/agents/${ids[1]}`)).status).toBe(204);
      expect((await api.get(`/agents?customerId=${customerId}`)).body.totalCount).toBe(2);
    });

    it('a new device code voids the unredeemed one; a deleted agent’s code redeems nothing', async () => {
      const { customerId } = await fundedCustomer(0);
      const created = await api.post('/agents', { name: 'bot', customerId, policy: policy() });
      const fresh = await api.post(`/agents/${created.body.agent.id}/device-codes`);
      expect(fresh.status).toBe(201);
      expect(fresh.body).toMatchObject({ agentId: created.body.agent.id, redeemed: false });
      expect((await api.post(`/agents/device-codes/${created.body.deviceCode.code}/redeem`, undefined, { auth: null })).status).toBe(404);
      expect((await api.delete(`/agents/${created.body.agent.id}`)).status).toBe(204);
      expect((await api.post(`/agents/device-codes/${fresh.body.code}/redeem`, undefined, { auth: null })).status).toBe(404);
    });

    it('updates the policy partially: spending limits field by field', async () => {
      const { customerId } = await fundedCustomer(0);
      const created = await api.post('/agents', { name: 'bot', customerId, policy: policy() });
      const updated = await api.patch(`/agents/${created.body.agent.id}/policy`, { defaultExecutionMode: 'APPROVAL_REQUIRED', spendingLimits: { dailyLimit: null } });
      expect(updated.status).toBe(200);
      expect(updated.body.policy).toMatchObject({
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        permissions: ALL_AGENT_PERMISSIONS,
        spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: null, dailyTransactionLimit: 20 },
      });
    });

    it.each([
      ['an empty body', {}, ['name', 'customerId', 'policy']],
      [
        'a bad policy',
        { name: 'x', customerId: 'Customer:x', policy: { permissions: ['FLY'], defaultExecutionMode: 'SOMETIMES', spendingLimits: { currency: 'USD' } } },
        ['policy.permissions', 'policy.defaultExecutionMode', 'policy.spendingLimits.perTransactionLimit'],
      ],
    ])('refuses %s with 400 listing every bad field', async (_, body, fields) => {
      const response = await api.post('/agents', body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      const named = (response.body.details.errors as { field: string }[]).map((error) => error.field);
      for (const field of fields) expect(named).toEqual(expect.arrayContaining([expect.stringContaining(field)]));
    });

    it("refuses an unknown or another platform's customer with 400 naming customerId (the reference declares no 404)", async () => {
      const other = await t.newPlatform();
      const theirs = await other.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', email: 'grace@example.com' });
      for (const customerId of [theirs.body.id, 'Customer:00000000-0000-7000-8000-000000000000']) {
        const refused = await api.post('/agents', { name: 'bot', customerId, policy: policy() });
        expect([refused.status, refused.body.code]).toEqual([400, 'INVALID_INPUT']);
        expect(refused.body.details.errors).toEqual([expect.objectContaining({ field: 'customerId' })]);
      }
    });
  });

  describe('authentication', () => {
    it('takes the AgentAuth bearer on /agents/me only and BasicAuth on platform routes only', async () => {
      const { customerId } = await fundedCustomer(0);
      const { agent } = await connectedAgent(customerId);
      expect((await agent.get('/agents/me')).status).toBe(200);
      const onPlatformRoute = await agent.get('/customers');
      expect(onPlatformRoute.status).toBe(401);
      expect((await agent.get('/agents')).status).toBe(401);
      expect((await api.get('/agents/me')).status).toBe(401);
      expect((await api.get('/agents/me/internal-accounts')).status).toBe(401);
      expect((await asAgent(api, 'gat_not-a-token').get('/agents/me')).status).toBe(401);
    });

    it('declares the scheme of each agent operation in the OpenAPI document', async () => {
      const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
      expect(document.paths['/agents/me'].get.security).toEqual([{ AgentAuth: [] }]);
      expect(document.paths['/agents/me/transfer-out'].post.security).toEqual([{ AgentAuth: [] }]);
      expect(document.paths['/agents/device-codes/{code}/redeem'].post.security).toEqual([]);
      expect(document.paths['/agents'].post.security ?? document.security).toEqual([{ BasicAuth: [] }]);
      expect(document.paths['/customers/external-accounts'].get.security ?? document.security).toEqual([{ BasicAuth: [] }]);
    });

    it('every AgentAuth operation of the document answers 403 exactly where the policy lacks its permission, and never a 5xx', async () => {
      const needs: Record<string, string | undefined> = {
        'GET /agents/me': undefined,
        'GET /agents/me/internal-accounts': 'VIEW_TRANSACTIONS',
        'GET /agents/me/transactions': 'VIEW_TRANSACTIONS',
        'GET /agents/me/transactions/{transactionId}': 'VIEW_TRANSACTIONS',
        'GET /agents/me/external-accounts': 'MANAGE_EXTERNAL_ACCOUNTS',
        'POST /agents/me/external-accounts': 'MANAGE_EXTERNAL_ACCOUNTS',
        'GET /agents/me/external-accounts/{externalAccountId}': 'MANAGE_EXTERNAL_ACCOUNTS',
        'DELETE /agents/me/external-accounts/{externalAccountId}': 'MANAGE_EXTERNAL_ACCOUNTS',
        'POST /agents/me/transfer-in': 'CREATE_TRANSFERS',
        'POST /agents/me/transfer-out': 'CREATE_TRANSFERS',
        'POST /agents/me/quotes': 'CREATE_QUOTES',
        'GET /agents/me/quotes/{quoteId}': 'CREATE_QUOTES',
        'POST /agents/me/quotes/{quoteId}/execute': 'EXECUTE_QUOTES',
        'GET /agents/me/actions': undefined,
        'GET /agents/me/actions/{actionId}': undefined,
      };
      const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
      const operations = Object.entries<Record<string, { security?: Record<string, unknown>[] }>>(document.paths).flatMap(([path, item]) =>
        ['get', 'post', 'patch', 'delete'].filter((method) => item[method]?.security?.some((scheme) => 'AgentAuth' in scheme)).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(operations.sort()).toEqual(Object.keys(needs).sort());
      const { customerId } = await fundedCustomer(0);
      const { agent: powerless } = await connectedAgent(customerId, policy({ permissions: [] }));
      const mismatches: string[] = [];
      for (const operation of operations) {
        const [method, path] = operation.split(' ');
        const concrete = path.replace(/\{[^}]+\}/g, 'Unknown:00000000-0000-7000-8000-000000000000');
        const response = await (method === 'GET' ? powerless.get(concrete) : method === 'DELETE' ? powerless.delete(concrete) : powerless.post(concrete, {}));
        const refused = response.status === 403 && response.body.details?.requiredPermission;
        if (response.status >= 500 || (refused || undefined) !== needs[operation])
          mismatches.push(`${operation}: ${response.status} ${JSON.stringify(response.body?.details ?? {})}`);
      }
      expect(mismatches).toEqual([]);
    });

    it('answers 403 FORBIDDEN naming the policy permission the agent lacks', async () => {
      const { customerId } = await fundedCustomer(0);
      const { agent } = await connectedAgent(customerId, policy({ permissions: ['VIEW_TRANSACTIONS'] }));
      expect((await agent.get('/agents/me/internal-accounts')).status).toBe(200);
      const refused = await agent.get('/agents/me/external-accounts');
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN', details: { requiredPermission: 'MANAGE_EXTERNAL_ACCOUNTS' } });
      expect((await agent.post('/agents/me/transfer-out', { source: { accountId: 'x' }, destination: { accountId: 'y' }, amount: 1 })).body.details.requiredPermission).toBe(
        'CREATE_TRANSFERS',
      );
    });
  });

  describe("operations on the agent's customer", () => {
    it('lists internal accounts, manages external accounts and reads transactions of its customer only', async () => {
      const mine = await fundedCustomer();
      const other = await fundedCustomer();
      const { agent } = await connectedAgent(mine.customerId);

      const accounts = await agent.get('/agents/me/internal-accounts');
      expect(accounts.status).toBe(200);
      expect(accounts.body.data.length).toBeGreaterThan(0);
      expect(accounts.body.data.every((account: InternalAccount) => account.customerId === mine.customerId)).toBe(true);

      const created = await agent.post('/agents/me/external-accounts', usdExternalAccountBody('001'));
      expect(created.status).toBe(201);
      expect(created.body.customerId).toBe(mine.customerId);
      // Another customer in the body is unknown to the agent: 400 naming customerId (the reference declares no 404).
      const foreign = await agent.post('/agents/me/external-accounts', { ...usdExternalAccountBody('002'), customerId: other.customerId });
      expect([foreign.status, foreign.body.code, foreign.body.details.errors]).toEqual([400, 'INVALID_INPUT', [expect.objectContaining({ field: 'customerId' })]]);
      const listed = await agent.get('/agents/me/external-accounts');
      expect(listed.body.data.map((row: { id: string }) => row.id)).toEqual(expect.arrayContaining([created.body.id, mine.externalId]));
      expect(listed.body.data.map((row: { id: string }) => row.id)).not.toContain(other.externalId);
      expect((await agent.get(`/agents/me/external-accounts/${created.body.id}`)).status).toBe(200);
      expect((await agent.get(`/agents/me/external-accounts/${other.externalId}`)).status).toBe(404);
      expect((await agent.delete(`/agents/me/external-accounts/${created.body.id}`)).status).toBe(204);
      expect((await agent.delete(`/agents/me/external-accounts/${other.externalId}`)).status).toBe(404);

      const moved = await transferOut(agent, mine.accountId, mine.externalId, 1_000);
      expect(moved.status).toBe(201);
      const transactions = await agent.get('/agents/me/transactions');
      expect(transactions.body.data.map((row: { id: string }) => row.id)).toContain(moved.body.transaction.id);
      expect((await agent.get(`/agents/me/transactions/${moved.body.transaction.id}`)).status).toBe(200);
      // Another customer's money is out of reach: its account is unknown to the agent.
      const theirs = await api.post('/transfer-out', { source: { accountId: other.accountId }, destination: { accountId: other.externalId }, amount: 1_000 });
      expect((await agent.get(`/agents/me/transactions/${theirs.body.id}`)).status).toBe(404);
      expect((await transferOut(agent, other.accountId, other.externalId, 1_000)).status).toBe(404);
    });

    it('answers concurrent transfer-outs under one Idempotency-Key with their one action, and moves the money once', async () => {
      const { customerId, accountId, externalId } = await fundedCustomer(10_000);
      const { agent } = await connectedAgent(customerId);
      const headers = { 'idempotency-key': `agent-transfer-${customerId}` };
      const body = { source: { accountId }, destination: { accountId: externalId }, amount: 1_000 };
      const answers = await Promise.all(Array.from({ length: 8 }, () => agent.post('/agents/me/transfer-out', body, headers)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      expect(await balanceOf(accountId)).toBe(9_000);
    });
  });

  describe('policy', () => {
    // One funded customer for the whole table (each row has its own agent, so its own usage); balances are compared as deltas.
    let shared: { customerId: string; accountId: string; externalId: string };
    beforeAll(async () => {
      shared = await fundedCustomer(10_000_000);
    });

    it.each([
      ['per-transaction limit', {}, {}, [60_000], 'VELOCITY_LIMIT_EXCEEDED', 'perTransactionLimit'],
      ['daily limit', {}, { dailyLimit: 50_000 }, [30_000, 30_000], 'VELOCITY_LIMIT_EXCEEDED', 'dailyLimit'],
      ['monthly limit', {}, { monthlyLimit: 50_000 }, [30_000, 30_000], 'VELOCITY_LIMIT_EXCEEDED', 'monthlyLimit'],
      ['daily transaction count', {}, { dailyTransactionLimit: 2 }, [1_000, 1_000, 1_000], 'VELOCITY_LIMIT_EXCEEDED', 'dailyTransactionLimit'],
      [
        'allowed accounts',
        { accountRestrictions: { allowedAccountIds: ['InternalAccount:00000000-0000-7000-8000-000000000000'] } },
        {},
        [1_000],
        'FORBIDDEN',
        'ACCOUNT_NOT_ALLOWED',
      ],
      [
        'per-account limit override',
        { accountRestrictions: { accountRules: [{ accountId: 'SELF', perTransactionLimit: 500 }] } },
        {},
        [1_000],
        'VELOCITY_LIMIT_EXCEEDED',
        'perTransactionLimit',
      ],
    ])('refuses a transfer over the %s, and moves nothing', async (_, overrides, limits, amounts, code, rule) => {
      const { customerId, accountId, externalId } = shared;
      const before = await balanceOf(accountId);
      const withSelf = JSON.parse(JSON.stringify(overrides).replaceAll('SELF', accountId));
      const { agent } = await connectedAgent(customerId, policy(withSelf, limits));
      const answers = [];
      for (const amount of amounts) answers.push(await transferOut(agent, accountId, externalId, amount));
      const last = answers.pop()!;
      for (const earlier of answers) expect(earlier.status).toBe(201);
      expect(last.status).toBe(403);
      expect(last.body.code).toBe(code);
      expect(JSON.stringify(last.body.details)).toContain(rule);
      const moved = amounts.slice(0, -1).reduce((sum, amount) => sum + amount, 0);
      expect(await balanceOf(accountId)).toBe(before - moved);
    });

    it.each([
      ['under the threshold in AUTO mode', 'APPROVED', {}, 10_000],
      ['over the approval threshold', 'PENDING_APPROVAL', { approvalThresholds: { currency: 'USD', amount: 20_000 } }, 30_000],
      ['in APPROVAL_REQUIRED mode', 'PENDING_APPROVAL', { defaultExecutionMode: 'APPROVAL_REQUIRED' }, 1_000],
      [
        'on an account whose rule requires approval',
        'PENDING_APPROVAL',
        { accountRestrictions: { accountRules: [{ accountId: 'SELF', executionMode: 'APPROVAL_REQUIRED' }] } },
        1_000,
      ],
    ])('a transfer %s is %s', async (_, status, overrides, amount) => {
      const { customerId, accountId, externalId } = shared;
      const before = await balanceOf(accountId);
      const withSelf = JSON.parse(JSON.stringify(overrides).replaceAll('SELF', accountId));
      const { agentId, agent } = await connectedAgent(customerId, policy(withSelf));
      const response = await transferOut(agent, accountId, externalId, amount);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        agentId,
        customerId,
        status,
        type: 'TRANSFER_OUT',
        transferDetails: { amount, currency: 'USD', sourceAccountId: accountId, destinationAccountId: externalId },
      });
      if (status === 'APPROVED') expect(response.body.transaction).toMatchObject({ type: 'OUTGOING', sentAmount: { amount } });
      else expect(response.body.transaction).toBeUndefined();
      // A waiting transfer holds nothing and counts against no limit: its approval is checked against the balance and limits of that moment.
      const waiting = status === 'PENDING_APPROVAL';
      expect(await balanceOf(accountId)).toBe(waiting ? before : before - amount);
      expect((await agent.get('/agents/me')).body.usage).toMatchObject(
        waiting ? { dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 } : { dailyTransactionCount: 1, dailySpend: amount, monthlySpend: amount },
      );
    });

    // The payments rate table has USD to EUR at 0.92: a USD amount counts against EUR limits converted, rounded up to the cent.
    it.each([
      ['per-transaction limit', { perTransactionLimit: 46_000 }, [50_000, 50_001], 'perTransactionLimit', 46_000],
      ['daily limit', { perTransactionLimit: 100_000, dailyLimit: 46_000 }, [30_000, 20_001], 'dailyLimit', 27_600],
      ['monthly limit', { perTransactionLimit: 100_000, monthlyLimit: 46_000 }, [30_000, 20_001], 'monthlyLimit', 27_600],
    ])('counts USD transfers against EUR limits at the rate table’s rate, rounded up: the %s', async (_, limits, amounts, rule, counted) => {
      const { customerId, accountId, externalId } = shared;
      const before = await balanceOf(accountId);
      const { agent } = await connectedAgent(customerId, policy({}, { currency: 'EUR', ...limits }));
      const answers = [];
      for (const amount of amounts) answers.push(await transferOut(agent, accountId, externalId, amount));
      const last = answers.pop()!;
      for (const earlier of answers) expect(earlier.status).toBe(201);
      // 50,001 or a further 20,001 US cents are 46,000.92 or 18,400.92 euro cents: one more cent than the limit allows.
      expect(last.status).toBe(403);
      expect(last.body).toMatchObject({ code: 'VELOCITY_LIMIT_EXCEEDED', details: { limit: rule } });
      expect((await agent.get('/agents/me')).body.usage).toMatchObject({ dailySpend: counted, monthlySpend: counted });
      expect(await balanceOf(accountId)).toBe(before - amounts.slice(0, -1).reduce((sum, amount) => sum + amount, 0));
    });

    it.each([
      [10_000, 'APPROVED'],
      [10_001, 'PENDING_APPROVAL'],
    ])('compares a USD transfer of %d cents with an approval threshold of 9,200 euro cents after conversion: %s', async (amount, status) => {
      const { customerId, accountId, externalId } = shared;
      const { agent } = await connectedAgent(customerId, policy({ approvalThresholds: { currency: 'EUR', amount: 9_200 } }));
      const response = await transferOut(agent, accountId, externalId, amount);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ status, transferDetails: { amount, currency: 'USD' } });
    });

    it('refuses a transfer whose currency has no rate to the limits’ currency, and waits for approval where the threshold’s has none', async () => {
      const { customerId, accountId, externalId } = shared;
      const before = await balanceOf(accountId);
      const { agent } = await connectedAgent(customerId, policy({}, { currency: 'SGD' }));
      const refused = await transferOut(agent, accountId, externalId, 1_000);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN', details: { reason: 'POLICY_CURRENCY_MISMATCH', policyCurrency: 'SGD', currency: 'USD' } });
      expect(refused.body.message).toContain('no exchange rate');
      expect(await balanceOf(accountId)).toBe(before);

      const { agent: waiting } = await connectedAgent(customerId, policy({ approvalThresholds: { currency: 'SGD', amount: 1_000_000 } }));
      expect((await transferOut(waiting, accountId, externalId, 1_000)).body.status).toBe('PENDING_APPROVAL');
    });

    it('holds the daily limit under concurrency: 50 transfers against a limit worth 10 let exactly 10 through', async () => {
      const { customerId, accountId, externalId } = shared;
      const before = await balanceOf(accountId);
      const { agent } = await connectedAgent(customerId, policy({}, { dailyLimit: 10_000, dailyTransactionLimit: 100 }));
      const answers = await Promise.all(Array.from({ length: 50 }, () => transferOut(agent, accountId, externalId, 1_000)));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(10);
      expect(statuses.filter((status) => status === 403)).toHaveLength(40);
      expect(answers.filter((answer) => answer.status === 403).every((answer) => answer.body.code === 'VELOCITY_LIMIT_EXCEEDED')).toBe(true);
      expect(await balanceOf(accountId)).toBe(before - 10_000);
      expect((await agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 10, dailySpend: 10_000 });
    });
  });

  describe('quotes', () => {
    async function quoteFor(agent: AgentCaller, accountId: string, customerId: string, amount = 10_000): Promise<ApiResponse> {
      const payee = await api.post('/customers/external-accounts', { customerId, ...mxnExternalAccountBody('001') });
      expect(payee.status).toBe(201);
      return agent.post('/agents/me/quotes', {
        source: { sourceType: 'ACCOUNT', accountId },
        destination: { destinationType: 'ACCOUNT', accountId: payee.body.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
      });
    }

    it("creates, reads and executes the customer's quotes; another customer's account or quote is unknown", async () => {
      const mine = await fundedCustomer();
      const other = await fundedCustomer();
      const { agentId, agent } = await connectedAgent(mine.customerId);
      const quote = await quoteFor(agent, mine.accountId, mine.customerId);
      expect(quote.status).toBe(201);
      expect((await agent.get(`/agents/me/quotes/${quote.body.id}`)).body.id).toBe(quote.body.id);
      expect((await quoteFor(agent, other.accountId, other.customerId)).status).toBe(404);
      // Another customer named in the body is unknown to the agent: 400 naming source.customerId (the reference declares no 404).
      const payee = await api.post('/customers/external-accounts', { customerId: mine.customerId, ...mxnExternalAccountBody('002') });
      const foreign = await agent.post('/agents/me/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: other.customerId },
        destination: { destinationType: 'ACCOUNT', accountId: payee.body.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      });
      expect([foreign.status, foreign.body.code, foreign.body.details.errors]).toEqual([400, 'INVALID_INPUT', [expect.objectContaining({ field: 'source.customerId' })]]);
      const theirs = await api.post('/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: other.accountId },
        destination: { destinationType: 'ACCOUNT', accountId: other.externalId },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      });
      expect((await agent.get(`/agents/me/quotes/${theirs.body.id}`)).status).toBe(404);

      const executed = await agent.post(`/agents/me/quotes/${quote.body.id}/execute`);
      expect(executed.status).toBe(200);
      expect(executed.body).toMatchObject({ agentId, type: 'EXECUTE_QUOTE', status: 'APPROVED', quote: { id: quote.body.id }, transaction: { id: quote.body.transactionId } });
      expect((await agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: quote.body.totalSendingAmount });
      expect((await agent.post(`/agents/me/quotes/${quote.body.id}/execute`)).status).toBe(409);
    });

    it('answers concurrent executions of a quote under one Idempotency-Key with its one action, and executes it once', async () => {
      const { customerId, accountId } = await fundedCustomer();
      const { agent } = await connectedAgent(customerId);
      const quote = await quoteFor(agent, accountId, customerId);
      const headers = { 'idempotency-key': `agent-execute-${quote.body.id}` };
      const answers = await Promise.all(Array.from({ length: 8 }, () => agent.post(`/agents/me/quotes/${quote.body.id}/execute`, undefined, headers)));
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
      expect((await agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: quote.body.totalSendingAmount });
      expect(await balanceOf(accountId)).toBe(1_000_000 - quote.body.totalSendingAmount);
    });

    it('a quote over the threshold waits for approval and executes when approved; over the limit it is refused', async () => {
      const { customerId, accountId } = await fundedCustomer();
      const { agentId, agent } = await connectedAgent(customerId, policy({ approvalThresholds: { amount: 5_000 } }, { perTransactionLimit: 20_000 }));
      const quote = await quoteFor(agent, accountId, customerId, 10_000);
      const submitted = await agent.post(`/agents/me/quotes/${quote.body.id}/execute`);
      expect(submitted.body).toMatchObject({ status: 'PENDING_APPROVAL', quote: { id: quote.body.id, status: 'PENDING' } });
      expect(submitted.body.transaction).toBeUndefined();
      const approved = await api.post(`/agents/${agentId}/actions/${submitted.body.id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { id: quote.body.transactionId } });
      const big = await quoteFor(agent, accountId, customerId, 30_000);
      const refused = await agent.post(`/agents/me/quotes/${big.body.id}/execute`);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('VELOCITY_LIMIT_EXCEEDED');
    });
  });

  describe('decisions on pending actions', () => {
    async function pendingAction() {
      const customer = await fundedCustomer();
      const { agentId, agent } = await connectedAgent(customer.customerId, policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
      const submitted = await transferOut(agent, customer.accountId, customer.externalId, 5_000);
      expect(submitted.body.status).toBe('PENDING_APPROVAL');
      return { ...customer, agentId, agent, actionId: submitted.body.id as string };
    }

    const transactionOf = async (agentId: string, actionId: string, client = api) => {
      const listed = await client.get(`/agents/approvals?agentId=${agentId}`);
      return listed;
    };

    it('announces AGENT_ACTION.PENDING_APPROVAL and lists it in the approvals', async () => {
      const { agentId, actionId, agent } = await pendingAction();
      const approvals = await transactionOf(agentId, actionId);
      expect(approvals.body.data.map((row: { id: string }) => row.id)).toEqual([actionId]);
      expect((await agent.get(`/agents/me/actions/${actionId}`)).body.status).toBe('PENDING_APPROVAL');
      expect((await agent.get('/agents/me/actions?status=PENDING_APPROVAL')).body.data.map((row: { id: string }) => row.id)).toEqual([actionId]);
      const announced = await eventually(async () => {
        const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: actionId }, ctx);
        return received.find((event) => event.webhookType === 'AGENT_ACTION.PENDING_APPROVAL');
      }, 30_000);
      expect(announced).toMatchObject({ resourceId: actionId, subject: 'payments.events.agent-action.pending-approval' });
    });

    it.each([
      ['approved through the agent action', 'action', 'APPROVED', 'COMPLETED'],
      ['approved through POST /transactions/{id}/approve', 'transaction', 'APPROVED', 'COMPLETED'],
      ['rejected', 'reject', 'REJECTED', 'FAILED'],
    ] as const)('%s (%s): the action is %s and its transfer ends %s', async (_, how, actionStatus, transactionStatus) => {
      const { agentId, actionId, agent, accountId } = await pendingAction();
      let decided: ApiResponse;
      if (how === 'action') decided = await api.post(`/agents/${agentId}/actions/${actionId}/approve`);
      else if (how === 'reject') decided = await api.post(`/agents/${agentId}/actions/${actionId}/reject`, { reason: 'Not this week' });
      else {
        const transactions = await agent.get('/agents/me/transactions');
        const waiting = transactions.body.data.find((row: { status: string }) => row.status === 'PENDING');
        decided = await api.post(`/transactions/${waiting.id}/approve`, {});
        expect(decided.status).toBe(200);
        decided = await agent.get(`/agents/me/actions/${actionId}`);
      }
      expect(decided.status).toBe(200);
      expect(decided.body.status).toBe(actionStatus);
      if (how === 'reject') expect(decided.body.rejectionReason).toBe('Not this week');
      const final = await eventually(async () => {
        const action = await agent.get(`/agents/me/actions/${actionId}`);
        const listed = await agent.get('/agents/me/transactions');
        const transaction = listed.body.data[0];
        return transaction?.status === transactionStatus ? { action: action.body, transaction } : undefined;
      });
      expect(final.action.status).toBe(actionStatus);
      expect(await balanceOf(accountId)).toBe(actionStatus === 'APPROVED' ? 1_000_000 - 5_000 : 1_000_000);
      const usage = (await agent.get('/agents/me')).body.usage;
      expect(usage.dailySpend).toBe(actionStatus === 'APPROVED' ? 5_000 : 0);
      // Decided once: a second decision is a conflict.
      expect((await api.post(`/agents/${agentId}/actions/${actionId}/approve`)).status).toBe(409);
      expect((await api.post(`/agents/${agentId}/actions/${actionId}/reject`, {})).status).toBe(409);
    });

    it('approving after the balance was spent elsewhere: the action ends FAILED (INSUFFICIENT_FUNDS), its transfer FAILED with its webhook, nothing moved', async () => {
      const { agentId, actionId, agent, accountId, externalId } = await pendingAction();
      // While it waits, the customer's money goes elsewhere: the waiting action held none of it.
      expect(await balanceOf(accountId)).toBe(1_000_000);
      const spent = await api.post('/transfer-out', { source: { accountId }, destination: { accountId: externalId }, amount: 998_000 });
      expect(spent.status).toBe(201);
      const decided = await api.post(`/agents/${agentId}/actions/${actionId}/approve`);
      expect(decided.status).toBe(200);
      expect(decided.body).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS', transaction: { status: 'FAILED', failureReason: 'LIMIT_EXCEEDED' } });
      const transactionId = decided.body.transaction.id as string;
      expect((await agent.get(`/agents/me/actions/${actionId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' });
      // Nothing moved, nothing counted: the balance is what the other transfer left, and it stays so.
      await advanceClock(api, 60);
      expect((await api.get(`/transactions/${spent.body.id}`)).body.status).toBe('COMPLETED');
      expect(await balanceOf(accountId)).toBe(2_000);
      expect((await agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0 });
      const failedWebhook = await eventually(async () => {
        const received = await t.stack.runtime.client.request(WEBHOOKS_SUBJECTS.listReceivedEvents, { resourceId: transactionId }, ctx);
        return received.find((event) => event.webhookType === 'OUTGOING_PAYMENT.FAILED');
      }, 30_000);
      expect(failedWebhook).toBeDefined();
      // Decided once: the failed action takes no second decision.
      expect((await api.post(`/agents/${agentId}/actions/${actionId}/approve`)).status).toBe(409);
      await advanceClock(api, 60);
      expect(await balanceOf(accountId)).toBe(2_000);
      expect((await api.get(`/transactions/${transactionId}`)).body.status).toBe('FAILED');
    });

    it('approving with enough balance holds then, and the transfer completes once', async () => {
      const { agentId, actionId, agent, accountId } = await pendingAction();
      const approvals = await Promise.all([api.post(`/agents/${agentId}/actions/${actionId}/approve`), api.post(`/agents/${agentId}/actions/${actionId}/approve`)]);
      expect(approvals.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(approvals.find((answer) => answer.status === 200)!.body).toMatchObject({ status: 'APPROVED', transaction: { status: 'PENDING' } });
      expect(await balanceOf(accountId)).toBe(1_000_000 - 5_000);
      const transactionId = approvals.find((answer) => answer.status === 200)!.body.transaction.id as string;
      await advanceClock(api, 60);
      expect((await api.get(`/transactions/${transactionId}`)).body.status).toBe('COMPLETED');
      await advanceClock(api, 60);
      expect(await balanceOf(accountId)).toBe(1_000_000 - 5_000);
      expect((await agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 5_000 });
    });

    it('approving after another action consumed the daily limit: FAILED (VELOCITY_LIMIT_EXCEEDED), nothing moved', async () => {
      const customer = await fundedCustomer();
      const { agentId, agent } = await connectedAgent(customer.customerId, policy({ approvalThresholds: { amount: 4_000 } }, { dailyLimit: 8_000 }));
      const waiting = await transferOut(agent, customer.accountId, customer.externalId, 5_000);
      expect(waiting.body.status).toBe('PENDING_APPROVAL');
      // The waiting action counted nothing: another within the threshold takes the daily limit's room.
      expect((await transferOut(agent, customer.accountId, customer.externalId, 4_000)).body.status).toBe('APPROVED');
      const decided = await api.post(`/agents/${agentId}/actions/${waiting.body.id}/approve`);
      expect(decided.status).toBe(200);
      expect(decided.body).toMatchObject({ status: 'FAILED', failureReason: 'VELOCITY_LIMIT_EXCEEDED', transaction: { status: 'FAILED' } });
      await advanceClock(api, 60);
      expect(await balanceOf(customer.accountId)).toBe(1_000_000 - 4_000);
      expect((await agent.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 4_000 });
    });

    it('counts the actions matching the filters (totalCount) on every page of GET /agents/approvals and GET /agents/me/actions', async () => {
      const { agentId, agent, accountId, externalId, actionId } = await pendingAction();
      for (let i = 0; i < 2; i++) expect((await transferOut(agent, accountId, externalId, 1_000)).body.status).toBe('PENDING_APPROVAL');
      expect((await api.post(`/agents/${agentId}/actions/${actionId}/reject`, { reason: 'no' })).status).toBe(200);

      const first = await api.get(`/agents/approvals?agentId=${agentId}&limit=1`);
      expect(first.body).toMatchObject({ hasMore: true, totalCount: 2 });
      const next = await api.get(`/agents/approvals?agentId=${agentId}&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
      expect(next.body).toMatchObject({ hasMore: false, totalCount: 2 });
      expect((await agent.get('/agents/me/actions?limit=1')).body).toMatchObject({ hasMore: true, totalCount: 3 });
      expect((await agent.get('/agents/me/actions?status=REJECTED')).body).toMatchObject({ totalCount: 1, data: [{ id: actionId }] });
      expect((await agent.get('/agents/me/actions?status=APPROVED')).body).toMatchObject({ totalCount: 0, data: [] });
    });

    it("keeps another platform's agents and actions out of reach (404)", async () => {
      const { agentId, actionId } = await pendingAction();
      const other = await t.newPlatform();
      expect((await other.api.get(`/agents/${agentId}`)).status).toBe(404);
      expect((await other.api.patch(`/agents/${agentId}`, { isPaused: true })).status).toBe(404);
      expect((await other.api.post(`/agents/${agentId}/actions/${actionId}/approve`)).status).toBe(404);
      expect((await other.api.post(`/agents/${agentId}/actions/${actionId}/reject`, {})).status).toBe(404);
      expect((await other.api.get('/agents/approvals')).body.data).toEqual([]);
      expect((await other.api.get('/agents')).body.data).toEqual([]);
      // The action is still waiting for its own platform.
      expect((await api.get(`/agents/approvals?agentId=${agentId}`)).body.data.map((row: { id: string }) => row.id)).toEqual([actionId]);
    });
  });
});
