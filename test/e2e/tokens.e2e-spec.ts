import { request as httpRequest } from 'node:http';
import { API_VERSION } from '@paykit/contracts';
import { ApiClient, Credentials } from '../support/api-client';
import { stackMode, startTestStack, TestStack } from '../support/test-stack';

type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';

/** Operations that manage configuration, tokens or customers need MANAGE; other reads VIEW, other writes TRANSACT. */
const MANAGE_OPERATIONS = new Set([
  'PATCH /config',
  'POST /customers',
  'POST /customers/bulk/csv',
  'PATCH /customers/{customerId}',
  'DELETE /customers/{customerId}',
  'POST /customers/{customerId}/kyc-link',
  'POST /customers/{customerId}/verify-email',
  'POST /customers/{customerId}/verify-email/confirm',
  'POST /customers/{customerId}/verify-phone',
  'POST /customers/{customerId}/verify-phone/confirm',
  'POST /webhooks/deliveries/{deliveryId}/redeliver',
  // Sandbox snapshots replace the platform's whole state, and seeds create customers.
  'POST /sandbox/snapshots',
  'POST /sandbox/snapshots/{name}/restore',
  'DELETE /sandbox/snapshots/{name}',
  'POST /sandbox/reset',
  'POST /sandbox/seed',
  'POST /tokens',
  'GET /tokens',
  'GET /tokens/{tokenId}',
  'DELETE /tokens/{tokenId}',
  'POST /agents',
  'GET /agents',
  'GET /agents/approvals',
  'GET /agents/{agentId}',
  'PATCH /agents/{agentId}',
  'DELETE /agents/{agentId}',
  'PATCH /agents/{agentId}/policy',
  'POST /agents/{agentId}/device-codes',
  'POST /agents/{agentId}/actions/{actionId}/approve',
  'POST /agents/{agentId}/actions/{actionId}/reject',
  'GET /agents/device-codes/{code}/status',
]);

function expectedPermission(method: string, path: string): Permission {
  if (MANAGE_OPERATIONS.has(`${method} ${path}`)) return 'MANAGE';
  return method === 'GET' ? 'VIEW' : 'TRANSACT';
}

/**
 * The sweep calls every operation with placeholder ids and empty bodies to see who answers 403,
 * so it goes around the suite's response-conformance check (installed on fetch): what the routes
 * answer to such garbage past the guard is their own specs' business.
 */
function rawCall(url: string, method: string, credentials: Credentials, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: `Basic ${Buffer.from(`${credentials.tokenId}:${credentials.secret}`).toString('base64')}` };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // Not JSON.
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('API tokens', () => {
  let t: TestStack;
  const issue = async (permissions: Permission[], name = `token ${permissions.join('+')}`): Promise<{ body: any; credentials: Credentials }> => {
    const response = await t.api.post('/tokens', { name, permissions });
    expect(response.status).toBe(201);
    return { body: response.body, credentials: { tokenId: response.body.clientId, secret: response.body.clientSecret } };
  };

  beforeAll(async () => {
    t = await startTestStack();
  });
  afterAll(async () => {
    await t.stop();
  });

  it('creates a token, shows its secret once, lists, gets and deletes it; a deleted token stops working at once', async () => {
    const created = await issue(['VIEW'], 'reporting');
    expect(created.body).toEqual({
      id: expect.stringMatching(/^Token:/),
      name: 'reporting',
      permissions: ['VIEW'],
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const client = t.api.withCredentials(created.credentials);
    expect((await client.get('/customers')).status).toBe(200);

    const fetched = await t.api.get(`/tokens/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.clientSecret).toBeUndefined();
    expect(fetched.body).toMatchObject({ id: created.body.id, name: 'reporting', permissions: ['VIEW'], clientId: created.body.clientId });

    const listed = await t.api.get('/tokens?name=reporting');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((row: any) => row.id)).toEqual([created.body.id]);
    expect(listed.body.data[0].clientSecret).toBeUndefined();

    expect((await t.api.delete(`/tokens/${created.body.id}`)).status).toBe(204);
    expect((await client.get('/customers')).status).toBe(401);
    expect((await t.api.get(`/tokens/${created.body.id}`)).body.code).toBe('TOKEN_NOT_FOUND');
    expect((await t.api.delete(`/tokens/${created.body.id}`)).status).toBe(404);
  });

  it('paginates the list newest first with the cursor, and filters by creation time', async () => {
    const prefix = `page-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await issue(['VIEW'], `${prefix}-${i}`)).body.id);
    const seen: string[] = [];
    const totals: number[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await t.api.get(`/tokens?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((row: any) => row.id));
      totals.push(page.body.totalCount);
      if (!page.body.hasMore) break;
      cursor = page.body.nextCursor;
    }
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    // Every page counts every live token of the filter.
    expect(new Set(totals)).toEqual(new Set([seen.length]));
    const future = await t.api.get(`/tokens?createdAfter=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
    expect(future.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it.each([
    ['no permissions', { name: 'x', permissions: [] }, ['permissions']],
    ['an unknown permission', { name: 'x', permissions: ['ADMIN'] }, ['permissions']],
    ['no name and no permissions', {}, ['name', 'permissions']],
  ])('refuses %s with 400 listing every bad field', async (_, body, fields) => {
    const response = await t.api.post('/tokens', body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_INPUT');
    const named = JSON.stringify(response.body.details);
    for (const field of fields) expect(named).toContain(field);
  });

  it("answers 404 TOKEN_NOT_FOUND for another platform's token", async () => {
    const other = await t.newPlatform();
    const theirs = await other.api.post('/tokens', { name: 'theirs', permissions: ['VIEW'] });
    expect(theirs.status).toBe(201);
    expect((await t.api.get(`/tokens/${theirs.body.id}`)).body.code).toBe('TOKEN_NOT_FOUND');
    expect((await t.api.delete(`/tokens/${theirs.body.id}`)).status).toBe(404);
    expect((await t.api.get('/tokens')).body.data.map((row: any) => row.id)).not.toContain(theirs.body.id);
  });

  it('a token without MANAGE cannot issue tokens (403 FORBIDDEN naming the permission)', async () => {
    const viewer = await issue(['VIEW', 'TRANSACT']);
    const response = await t.api.withCredentials(viewer.credentials).post('/tokens', { name: 'escalate', permissions: ['MANAGE'] });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'FORBIDDEN', details: { requiredPermission: 'MANAGE' } });
  });

  // The sweep runs in embedded mode only: it calls every operation of the document four times.
  const sweep = stackMode() === 'embedded' ? it : it.skip;
  sweep('every operation of the OpenAPI document answers 403 exactly where the token lacks its permission, and never a 5xx', async () => {
    const root = new ApiClient(t.stack.url);
    const document = (await root.get('/openapi.json', { auth: null })).body;
    const operations: { method: string; path: string }[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const operation = item[method];
        const security: Record<string, unknown>[] = operation?.security ?? document.security ?? [];
        // Agent operations take the agent's bearer, not API tokens: test/e2e/agents.e2e-spec.ts sweeps their policy permissions.
        if (!operation || !security.length || security.some((scheme) => 'AgentAuth' in scheme)) continue;
        operations.push({ method: method.toUpperCase(), path });
      }
    }
    expect(operations.length).toBeGreaterThan(40);
    const sets: Permission[][] = [['VIEW'], ['TRANSACT'], ['MANAGE'], ['VIEW', 'TRANSACT', 'MANAGE']];
    const mismatches: string[] = [];
    for (const permissions of sets) {
      const { credentials } = await issue(permissions);
      for (const { method, path } of operations) {
        const apiPath = path.replace(`/${API_VERSION}`, '');
        const concrete = `/${API_VERSION}${apiPath.replace(/\{[^}]+\}/g, 'Unknown:00000000-0000-7000-8000-000000000000')}`;
        const response = await rawCall(t.stack.url + concrete, method, credentials, method === 'GET' || method === 'DELETE' ? undefined : {});
        const needed = expectedPermission(method, apiPath);
        const refusedForPermission = response.status === 403 && response.body?.code === 'FORBIDDEN' && response.body?.details?.requiredPermission !== undefined;
        const shouldRefuse = !permissions.includes(needed);
        // Placeholder ids and empty bodies are bad input: whatever the permission, never a 5xx.
        if (response.status >= 500) mismatches.push(`${permissions.join('+')} ${method} ${apiPath}: ${response.status} ${JSON.stringify(response.body)}`);
        if (shouldRefuse !== refusedForPermission || (refusedForPermission && response.body.details.requiredPermission !== needed)) {
          mismatches.push(`${permissions.join('+')} ${method} ${apiPath}: ${response.status} ${JSON.stringify(response.body?.details ?? {})}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
