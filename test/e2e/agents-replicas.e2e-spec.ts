/**
 * @distributed gateway: agents and API tokens cached by two gateway replicas over one database (invalidation by LISTEN/NOTIFY)
 */
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { AuthInvalidations } from '../../apps/gateway/src/auth/auth-invalidations';
import { ApiClient, ApiResponse } from '../support/api-client';
import { SecondGateway, startSecondGateway } from '../support/second-gateway';
import { eventually, stackMode, startTestStack, TestStack } from '../support/test-stack';

const ALL_AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];

/**
 * The gateway's credential caches (agents, API tokens) across two replicas over one database: a
 * change through one is refused on the other as soon as it is notified. A second gateway needs
 * PostgreSQL and NATS beside the first, so this file runs in distributed mode only; the agents'
 * behaviour is agents.e2e-spec.ts.
 */
const describeDistributed = stackMode() === 'distributed' ? describe : describe.skip;

/** Calls as an agent: the AgentAuth bearer token only. */
function asAgent(api: ApiClient, token: string): { get(path: string): Promise<ApiResponse> } {
  return { get: (path) => api.get(path, { auth: null, headers: { authorization: `Bearer ${token}` } }) };
}

describeDistributed('Credential caches across gateway replicas', () => {
  let t: TestStack;
  let api: ApiClient;

  beforeAll(async () => {
    t = await startTestStack();
    api = (await t.newPlatform()).api;
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** An agent for a new customer, connected: its device code redeemed. */
  async function connectedAgent(): Promise<{ agentId: string; accessToken: string }> {
    const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
    expect(customer.status).toBe(201);
    const policy = { permissions: ALL_AGENT_PERMISSIONS, defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 50_000 } };
    const created = await api.post('/agents', { name: 'Payroll bot', customerId: customer.body.id, policy });
    expect(created.status).toBe(201);
    const redeemed = await api.post(`/agents/device-codes/${created.body.deviceCode.code}/redeem`, undefined, { auth: null });
    expect(redeemed.status).toBe(200);
    return { agentId: created.body.agent.id, accessToken: redeemed.body.accessToken };
  }

  describe('two gateway replicas over one database', () => {
    let replica: SecondGateway | undefined;
    let second: NestFastifyApplication | undefined;
    let secondBase = '';

    beforeAll(async () => {
      replica = await startSecondGateway(t);
      second = replica.app;
      secondBase = replica.baseUrl;
    });

    afterAll(async () => {
      await replica?.stop();
    });

    /** The second replica has verified (and cached) the credential: it answered it twice. */
    async function warm(call: () => Promise<ApiResponse>): Promise<void> {
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
    }

    /**
     * A write to the gateway's database that no replica is told of (no NOTIFY): the second
     * replica still answering as before shows it answers from its cache.
     */
    const silently = (sql: string, params: unknown[]) => second!.get(DataSource).query(sql, params);

    /**
     * The other replica hears of a change through its LISTEN connection, a few milliseconds after
     * the write's commit; on a loaded machine a request sent at once may still be read before the
     * notification. Well under the caches' lifetimes (agents 5 s, tokens 30 s), so refusing
     * proves the notification arrived.
     */
    const refusedThere = <T extends { status: number }>(read: () => Promise<T>, status: number) =>
      eventually(async () => {
        const answer = await read();
        return answer.status === status ? answer : undefined;
      }, 2_000);

    beforeEach(async () => {
      // Its caches are off until its invalidation listener is connected.
      if (second) await eventually(async () => second!.get(AuthInvalidations).isListening || undefined);
    });

    it('a change to an agent made through one replica counts on the other as soon as it is notified, though its cache held the agent', async () => {
      const { agentId, accessToken } = await connectedAgent();
      const there = asAgent(new ApiClient(secondBase, api.credentials), accessToken);
      const read = () => there.get('/agents/me/internal-accounts');

      await warm(read);
      await silently(`UPDATE agent SET is_paused = true WHERE id = $1`, [agentId]);
      expect((await read()).status).toBe(200);
      await silently(`UPDATE agent SET is_paused = false WHERE id = $1`, [agentId]);
      expect((await api.patch(`/agents/${agentId}`, { isPaused: true })).status).toBe(200);
      expect((await refusedThere(read, 401)).status).toBe(401);
      expect((await api.patch(`/agents/${agentId}`, { isPaused: false })).status).toBe(200);
      await warm(read);

      // A policy change: the permission taken away is missing there once it is notified.
      expect((await api.patch(`/agents/${agentId}/policy`, { permissions: ['CREATE_TRANSFERS'] })).status).toBe(200);
      const refused = await refusedThere(read, 403);
      expect(refused.status).toBe(403);
      expect(refused.body.details).toMatchObject({ requiredPermission: 'VIEW_TRANSACTIONS' });
      expect((await api.patch(`/agents/${agentId}/policy`, { permissions: ALL_AGENT_PERMISSIONS })).status).toBe(200);
      await warm(read);

      expect((await api.delete(`/agents/${agentId}`)).status).toBe(204);
      expect((await refusedThere(read, 401)).status).toBe(401);
    });

    it('an API token deleted through one replica stops on the other as soon as it is notified, though its cache held it', async () => {
      const created = await api.post('/tokens', { name: 'Short-lived', permissions: ['VIEW'] });
      expect(created.status).toBe(201);
      const there = new ApiClient(secondBase, { tokenId: created.body.clientId, secret: created.body.clientSecret });
      const read = () => there.get('/customers');
      await warm(read);
      await silently(`UPDATE api_token SET revoked_at = now() WHERE id = $1`, [created.body.clientId]);
      expect((await read()).status).toBe(200);
      await silently(`UPDATE api_token SET revoked_at = NULL WHERE id = $1`, [created.body.clientId]);
      expect((await api.delete(`/tokens/${created.body.id}`)).status).toBe(204);
      expect((await refusedThere(read, 401)).status).toBe(401);
    });
  });
});
