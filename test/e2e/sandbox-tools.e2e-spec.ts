/**
 * @distributed sandbox faults at the gateway edge and in the webhook worker, webhook replay
 * (webhooks.replay.*), the MCP server over HTTP, snapshots and resets across every service
 * (<service>.sandbox-state.*)
 *
 * The sandbox tools of issue 44, through HTTP in both modes: fault injection (an operation's next
 * N calls answer an error, then the platform recovers; the next N webhook attempts fail), webhook
 * replay by filter, the MCP server, and per-platform snapshots, restores and resets. Each is
 * sandbox-only: a production deployment answers 404 and its /openapi.json lists none of them.
 */
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { CUSTOMERS_SUBJECTS, InternalAccount } from '@paykit/contracts';
import { ApiClient } from '../support/api-client';
import { mxnExternalAccountBody } from '../support/payments-fixtures';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { assertSandboxPlatform, createPaykitMcpServer, httpPaykitApi } from '../../apps/gateway/src/mcp/paykit-mcp-server';
import { startWebhookListener } from '../../tools/webhooks-listen';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/** A loopback webhook receiver that keeps every request's headers and payload, in arrival order. */
class Receiver {
  readonly received: { headers: IncomingHttpHeaders; payload: { id: string; type: string; timestamp: string; data: { id: string } } }[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.received.push({ headers: request.headers, payload: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      response.writeHead(200).end('ok');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function regulatedPlatform(t: TestStack): Promise<{ api: ApiClient; platformId: string }> {
  const platform = await t.newPlatform();
  await t.stack.runtime.client.request(
    CUSTOMERS_SUBJECTS.updateConfig,
    { regulated: true },
    { platformId: platform.platformId, environment: 'sandbox', requestId: 'sandbox-tools' },
  );
  return platform;
}

async function newCustomer(api: ApiClient, fullName = 'Ada Lovelace'): Promise<string> {
  const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName, birthDate: '1990-04-12', email: 'ada@example.com', nationality: 'GB', address: ADDRESS });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function usdAccount(api: ApiClient, customerId: string): Promise<string> {
  return eventually(async () => {
    const listed = await api.get(`/customers/internal-accounts?customerId=${customerId}&currency=USD&type=INTERNAL_FIAT`);
    return (listed.body.data as InternalAccount[] | undefined)?.[0]?.id;
  });
}

/** A funded USD account and an MXN payee (CLABE suffix 001: the payout completes) of a new customer. */
async function payer(api: ApiClient, funds = 50_000): Promise<{ customerId: string; accountId: string; payeeId: string }> {
  const customerId = await newCustomer(api);
  const accountId = await usdAccount(api, customerId);
  expect((await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount: funds })).status).toBe(200);
  const payee = await api.post('/customers/external-accounts', { customerId, ...mxnExternalAccountBody('001') });
  expect(payee.status).toBe(201);
  return { customerId, accountId, payeeId: payee.body.id };
}

async function quote(api: ApiClient, accountId: string, payeeId: string, amount = 1_000): Promise<string> {
  const created = await api.post('/quotes', {
    source: { sourceType: 'ACCOUNT', accountId },
    destination: { destinationType: 'ACCOUNT', accountId: payeeId },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('Sandbox tools (sandbox deployment)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack();
  });

  afterAll(async () => {
    await t?.stop();
  });

  describe('POST /sandbox/faults', () => {
    it('fails exactly the next 2 quote executions with 503, then the platform recovers; other platforms are untouched', async () => {
      const { api } = await regulatedPlatform(t);
      const other = await regulatedPlatform(t);
      const { accountId, payeeId } = await payer(api);
      const created = await api.post('/sandbox/faults', { target: 'OPERATION', operation: 'POST /quotes/{quoteId}/execute', effect: 'ERROR', status: 503, count: 2 });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ target: 'OPERATION', operation: 'POST /quotes/{quoteId}/execute', effect: 'ERROR', status: 503, count: 2, remaining: 2 });

      // Another platform's executions are not faulted.
      const theirs = await payer(other.api);
      expect((await other.api.post(`/quotes/${await quote(other.api, theirs.accountId, theirs.payeeId)}/execute`, {})).status).toBe(200);

      const quoteId = await quote(api, accountId, payeeId);
      const answers = [];
      for (let i = 0; i < 3; i += 1) answers.push(await api.post(`/quotes/${quoteId}/execute`, {}));
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 200]);
      expect(answers[0].body).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', details: { injectedFault: created.body.id } });
      // A faulted call did not run: one execution, one transaction.
      expect(answers[2].body.status).toBe('PROCESSING');
      // Other operations were never faulted.
      expect((await api.get(`/quotes/${quoteId}`)).status).toBe(200);

      const listed = await api.get('/sandbox/faults');
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, remaining: 0 })]);
      expect((await api.delete(`/sandbox/faults/${created.body.id}`)).status).toBe(204);
      expect((await api.get('/sandbox/faults')).body).toEqual([]);
      expect((await api.delete(`/sandbox/faults/${created.body.id}`)).status).toBe(404);
    });

    it('times out, delays, matches a path prefix, and can be removed before it is spent', async () => {
      const { api } = await regulatedPlatform(t);
      const timeout = await api.post('/sandbox/faults', { target: 'OPERATION', pathPrefix: '/customers', effect: 'TIMEOUT', count: 1 });
      expect(timeout.status).toBe(201);
      const timedOut = await api.get('/customers');
      expect(timedOut.status).toBe(504);
      expect(timedOut.body).toMatchObject({ code: 'SERVICE_TIMEOUT', details: { injectedFault: timeout.body.id } });
      expect((await api.get('/customers')).status).toBe(200);

      const delay = await api.post('/sandbox/faults', { target: 'OPERATION', operation: 'GET /customers', effect: 'DELAY', delayMs: 200, count: 1 });
      const started = Date.now();
      expect((await api.get('/customers')).status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect((await api.get('/sandbox/faults')).body.find((fault: { id: string }) => fault.id === delay.body.id).remaining).toBe(0);

      const removed = await api.post('/sandbox/faults', { target: 'OPERATION', pathPrefix: '/', effect: 'ERROR', status: 500, count: 5 });
      // The fault routes themselves are never faulted, so a fault on every path stays removable.
      expect((await api.delete(`/sandbox/faults/${removed.body.id}`)).status).toBe(204);
      expect((await api.get('/customers')).status).toBe(200);
    });

    it('refuses an invalid fault, listing every invalid field', async () => {
      const { api } = await regulatedPlatform(t);
      const refused = await api.post('/sandbox/faults', { target: 'OPERATION', operation: 'FETCH quotes', effect: 'SLOW', status: 418, delayMs: -1, count: 0 });
      expect(refused.status).toBe(400);
      const fields = refused.body.details.errors.map((error: { field: string }) => error.field).sort();
      expect(fields).toEqual(['count', 'delayMs', 'effect', 'operation', 'status']);
      expect((await api.get('/sandbox/faults')).body).toEqual([]);
    });

    it('fails the next 2 webhook delivery attempts (recorded as answered 503, nothing sent), then deliveries recover', async () => {
      // Not regulated: each new customer is announced (CUSTOMER.KYC_PENDING).
      const { api } = await t.newPlatform();
      const receiver = new Receiver();
      try {
        expect((await api.patch('/config', { webhookEndpoint: await receiver.start() })).status).toBe(200);
        const fault = await api.post('/sandbox/faults', { target: 'WEBHOOK_DELIVERY', effect: 'ERROR', status: 503, count: 2 });
        expect(fault.status).toBe(201);
        const tested = await api.post('/sandbox/faults', { target: 'WEBHOOK_DELIVERY', effect: 'DELAY', delayMs: 5, count: 1 });
        expect(tested.status).toBe(400);

        const customers: string[] = [];
        for (const name of ['One', 'Two', 'Three']) {
          const customerId = await newCustomer(api, `Customer ${name}`);
          customers.push(customerId);
          // One at a time: each customer's first webhook has had its first attempt before the next.
          await eventually(async () => {
            const listed = await api.get(`/webhooks/deliveries?resourceId=${customerId}`);
            return listed.body.data.length > 0 && listed.body.data.every((delivery: { attemptCount: number }) => delivery.attemptCount > 0) ? true : undefined;
          });
        }
        // Every delivery of the three customers, with its attempts (test retries are scaled down).
        const deliveries = async () => {
          const listed = await Promise.all(customers.map(async (customerId) => (await api.get(`/webhooks/deliveries?resourceId=${customerId}`)).body.data));
          return Promise.all(listed.flat().map(async (delivery: { id: string }) => (await api.get(`/webhooks/deliveries/${delivery.id}`)).body));
        };
        const attempted = await deliveries();
        // Exactly two attempts failed (the first ones; a scaled retry may have taken the second), no other.
        const attempts = attempted.flatMap((delivery) => delivery.attempts as { statusCode: number; error?: string }[]);
        const faulted = attempts.filter((attempt) => attempt.statusCode === 503);
        expect(faulted).toHaveLength(2);
        expect(faulted.every((attempt) => attempt.error?.includes(fault.body.id))).toBe(true);
        expect(attempts.filter((attempt) => attempt.statusCode !== 503 && attempt.statusCode !== 200)).toEqual([]);
        expect((await api.get('/sandbox/faults')).body).toEqual([expect.objectContaining({ id: fault.body.id, target: 'WEBHOOK_DELIVERY', remaining: 0 })]);
        // The faulted attempts sent nothing; their retries go out on the usual schedule, and succeed.
        await advanceClock(api, 3600);
        await eventually(async () => ((await deliveries()).every((delivery) => delivery.status === 'SUCCEEDED') ? true : undefined));
        const sent = receiver.received.filter((webhook) => customers.includes(webhook.payload.data.id));
        expect(new Set(sent.map((webhook) => webhook.payload.id))).toEqual(new Set(attempted.map((delivery) => delivery.id)));
        expect((await api.delete(`/sandbox/faults/${fault.body.id}`)).status).toBe(204);
      } finally {
        await receiver.close();
      }
    });
  });

  describe('POST /sandbox/webhooks/replay', () => {
    it('sends exactly the filtered webhooks again, in their original order, each marked as a replay', async () => {
      const { api } = await t.newPlatform();
      const endpoint = new Receiver();
      const listener = new Receiver();
      try {
        expect((await api.patch('/config', { webhookEndpoint: await endpoint.start() })).status).toBe(200);
        const listenerUrl = await listener.start();
        const customers: string[] = [];
        for (const name of ['One', 'Two', 'Three']) customers.push(await newCustomer(api, `Replayed ${name}`));
        type Delivery = { id: string; type: string; resourceId: string; occurredAt: string; status: string };
        // Every webhook of the three delivered once, oldest first (the log lists newest first).
        const log = await eventually(async () => {
          const listed = (await api.get('/webhooks/deliveries?limit=100')).body.data as Delivery[];
          const ours = listed.filter((delivery) => customers.includes(delivery.resourceId));
          return customers.every((id) => ours.some((delivery) => delivery.resourceId === id)) && ours.every((delivery) => delivery.status === 'SUCCEEDED')
            ? ours.reverse()
            : undefined;
        });
        const original = endpoint.received.length;

        // By type and resource, to a listener.
        const byResource = await api.post('/sandbox/webhooks/replay', { types: ['CUSTOMER.KYC_PENDING'], resourceId: customers[0], url: listenerUrl });
        expect(byResource.status).toBe(202);
        const expected = log.filter((delivery) => delivery.type === 'CUSTOMER.KYC_PENDING' && delivery.resourceId === customers[0]);
        expect(expected.length).toBeGreaterThan(0);
        expect(byResource.body).toMatchObject({ url: listenerUrl, total: expected.length, filter: { types: ['CUSTOMER.KYC_PENDING'], resourceId: customers[0] } });
        const done = await eventually(async () => {
          const replay = await api.get(`/sandbox/webhooks/replays/${byResource.body.id}`);
          return replay.body.status === 'COMPLETED' ? replay.body : undefined;
        });
        expect(done).toMatchObject({ delivered: expected.length, failed: 0 });
        expect(listener.received.map((webhook) => webhook.payload.id)).toEqual(expected.map((delivery) => delivery.id));
        expect(listener.received.every((webhook) => webhook.headers['x-paykit-replay'] === byResource.body.id)).toBe(true);

        // By time range (the second and third customers' events), to the platform's endpoint, in the original order.
        const from = log.find((delivery) => delivery.resourceId === customers[1])!.occurredAt;
        const inRange = log.filter((delivery) => delivery.occurredAt >= from);
        const byTime = await api.post('/sandbox/webhooks/replay', { from });
        expect(byTime.status).toBe(202);
        expect(byTime.body.items.map((item: { deliveryId: string }) => item.deliveryId)).toEqual(inRange.map((delivery) => delivery.id));
        const replayed = await eventually(async () => (endpoint.received.length >= original + inRange.length ? endpoint.received.slice(original) : undefined));
        expect(replayed.map((webhook) => webhook.payload.id)).toEqual(inRange.map((delivery) => delivery.id));
        expect(replayed.every((webhook) => webhook.headers['x-paykit-replay'] === byTime.body.id)).toBe(true);
        // The delivery log is not changed by a replay.
        expect((await api.get(`/webhooks/deliveries/${inRange[0].id}`)).body.attemptCount).toBe(1);

        // `npm run webhooks:listen -- --replay --replay-resource <id>`: the listener asks for the replay to itself.
        const lines: string[] = [];
        const listening = await startWebhookListener({
          baseUrl: api.baseUrl,
          credentials: api.credentials!,
          port: 0,
          replay: { resourceId: customers[2] },
          print: (line) => lines.push(line),
        });
        try {
          const third = log.filter((delivery) => delivery.resourceId === customers[2]);
          const printed = await eventually(async () => {
            const marked = lines.filter((line) => line.includes(`(replay ${listening.replayId})`));
            return marked.length >= third.length ? marked : undefined;
          });
          expect(printed.map((line) => third.findIndex((delivery) => line.includes(delivery.id)))).toEqual(third.map((_, index) => index));
          expect(printed.every((line) => line.includes('signature verified'))).toBe(true);
        } finally {
          await listening.close();
        }

        expect((await api.post('/sandbox/webhooks/replay', { from, to: from })).status).toBe(400);
        expect((await api.get('/sandbox/webhooks/replays/WebhookReplay:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69')).status).toBe(404);
      } finally {
        await Promise.all([endpoint.close(), listener.close()]);
      }
    });
  });

  describe('MCP server', () => {
    /** A tool's JSON answer. */
    async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ status: number; body: any }> {
      const result = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
      return JSON.parse(result.content[0].text);
    }

    it('over HTTP ({base_url}/sandbox/mcp): an MCP client lists the tools and completes a payout through them', async () => {
      const { api } = await regulatedPlatform(t);
      const authorization = `Basic ${Buffer.from(`${api.credentials!.tokenId}:${api.credentials!.secret}`).toString('base64')}`;
      const client = new Client({ name: 'sandbox-tools-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${api.baseUrl}/sandbox/mcp`), { requestInit: { headers: { authorization } } }));
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
        expect(tools).toEqual(['advance_clock', 'describe_operation', 'execute', 'list_webhook_deliveries', 'run_simulator', 'search']);
        const found = JSON.parse(((await client.callTool({ name: 'search', arguments: { query: 'execute quote' } })) as { content: { text: string }[] }).content[0].text);
        expect(found[0].operation).toBe('POST /quotes/{quoteId}/execute');
        const described = JSON.parse(
          ((await client.callTool({ name: 'describe_operation', arguments: { operation: 'POST /quotes' } })) as { content: { text: string }[] }).content[0].text,
        );
        expect(described.requestBody.properties).toHaveProperty('lockedCurrencyAmount');

        // The payout, through the tools only.
        const customer = await call(client, 'execute', {
          operation: 'POST /customers',
          body: { customerType: 'INDIVIDUAL', fullName: 'Mcp Payer', birthDate: '1990-04-12', email: 'mcp@example.com', nationality: 'GB', address: ADDRESS },
        });
        expect(customer.status).toBe(201);
        const accountId = await eventually(async () => {
          const listed = await call(client, 'execute', {
            operation: 'GET /customers/internal-accounts',
            query: { customerId: customer.body.id, currency: 'USD', type: 'INTERNAL_FIAT' },
          });
          return listed.body.data[0]?.id as string | undefined;
        });
        expect(
          (await call(client, 'run_simulator', { simulator: 'POST /sandbox/internal-accounts/{accountId}/fund', pathParams: { accountId }, body: { amount: 10_000 } })).status,
        ).toBe(200);
        const payee = await call(client, 'execute', { operation: 'POST /customers/external-accounts', body: { customerId: customer.body.id, ...mxnExternalAccountBody('001') } });
        expect(payee.status).toBe(201);
        const quoted = await call(client, 'execute', {
          operation: 'POST /quotes',
          body: {
            source: { sourceType: 'ACCOUNT', accountId },
            destination: { destinationType: 'ACCOUNT', accountId: payee.body.id },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 5_000,
          },
        });
        expect(quoted.status).toBe(201);
        const executed = await call(client, 'execute', { operation: 'POST /quotes/{quoteId}/execute', pathParams: { quoteId: quoted.body.id }, body: {} });
        expect(executed.status).toBe(200);
        expect((await call(client, 'advance_clock', { seconds: 400 })).status).toBe(200);
        const settled = await eventually(async () => {
          const fetched = await call(client, 'execute', { operation: 'GET /transactions/{transactionId}', pathParams: { transactionId: executed.body.transactionId } });
          return fetched.body.status === 'COMPLETED' ? fetched.body : undefined;
        });
        expect(settled.id).toBe(executed.body.transactionId);
        const delivered = await call(client, 'list_webhook_deliveries', { resourceId: executed.body.transactionId });
        expect(delivered.status).toBe(200);

        // An API error is a tool error carrying the envelope; an unknown operation is refused before any call.
        const refused = (await client.callTool({ name: 'execute', arguments: { operation: 'GET /quotes/{quoteId}', pathParams: { quoteId: 'Quote:unknown' } } })) as {
          isError?: boolean;
          content: { text: string }[];
        };
        expect(refused.isError).toBe(true);
        expect(JSON.parse(refused.content[0].text).status).toBe(404);
        expect(((await client.callTool({ name: 'execute', arguments: { operation: 'GET /nowhere' } })) as { isError?: boolean }).isError).toBe(true);
      } finally {
        await client.close();
      }
    });

    it('refuses production tokens: 403 on the HTTP route, and `npm run mcp` (stdio) will not start with one', async () => {
      const production = await t.newPlatform('production');
      const authorization = `Basic ${Buffer.from(`${production.credentials.tokenId}:${production.credentials.secret}`).toString('base64')}`;
      const answer = await fetch(`${production.api.baseUrl}/sandbox/mcp`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(answer.status).toBe(403);
      await expect(assertSandboxPlatform(httpPaykitApi(production.api.baseUrl, production.credentials))).rejects.toThrow(/production token/);
    });

    it("the stdio server's tools (npm run mcp: the API over HTTP with the platform's token) answer an SDK client", async () => {
      const { api } = await t.newPlatform();
      const paykit = httpPaykitApi(api.baseUrl, api.credentials!);
      await assertSandboxPlatform(paykit);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = createPaykitMcpServer(paykit);
      await server.connect(serverSide);
      const client = new Client({ name: 'sandbox-tools-test', version: '1.0.0' });
      await client.connect(clientSide);
      try {
        expect((await client.listTools()).tools).toHaveLength(6);
        const advanced = await call(client, 'advance_clock', { seconds: 60 });
        expect(advanced).toMatchObject({ status: 200, body: { advancedSeconds: 60 } });
        expect(((await client.callTool({ name: 'run_simulator', arguments: { simulator: 'GET /customers' } })) as { isError?: boolean }).isError).toBe(true);
      } finally {
        await client.close();
        await server.close();
      }
    });
  });

  describe('POST /sandbox/snapshots, POST /sandbox/snapshots/{name}/restore, POST /sandbox/reset', () => {
    /** The platform's ledger, per ledger account: every account's postings and its stored totals agree, and each currency sums to zero. */
    async function ledgerTotals(platformId: string): Promise<{ accounts: number; currencies: Record<string, number> }> {
      const payments = t.stack.services.get('payments')!.get(DataSource);
      const rows = await payments.query<{ currency: string; total: string; entries: number }[]>(
        `SELECT l.currency_code AS currency, sum(p.amount)::text AS total, count(DISTINCT e.id)::int AS entries
           FROM journal_entry e JOIN posting p ON p.entry_id = e.id JOIN ledger_account l ON l.id = p.account_id
          WHERE e.platform_id = $1 GROUP BY 1`,
        [platformId],
      );
      return { accounts: rows.reduce((total, row) => total + row.entries, 0), currencies: Object.fromEntries(rows.map((row) => [row.currency, Number(row.total)])) };
    }

    it('a test suite restored to a snapshot between two runs gets identical results; other platforms are untouched; a reset empties the platform', async () => {
      const { api, platformId } = await regulatedPlatform(t);
      const other = await regulatedPlatform(t);
      const theirs = await newCustomer(other.api, 'Other Platform');
      const { customerId, accountId, payeeId } = await payer(api, 20_000);
      await advanceClock(api, 60);
      const saved = await api.post('/sandbox/snapshots', { name: 'start' });
      expect(saved.status).toBe(201);
      expect(saved.body).toMatchObject({ name: 'start', rows: { customers: expect.any(Number), payments: expect.any(Number) } });
      const ledgerAtStart = await ledgerTotals(platformId);

      /** The suite: a payout run to completion, and what it observes (no ids: they are new each run). */
      async function suite() {
        const quoteId = await quote(api, accountId, payeeId, 5_000);
        const executed = await api.post(`/quotes/${quoteId}/execute`, {});
        expect(executed.status).toBe(200);
        await advanceClock(api, 400);
        const transaction = await eventually(async () => {
          const fetched = await api.get(`/transactions/${executed.body.transactionId}`);
          return fetched.body.status === 'COMPLETED' ? fetched.body : undefined;
        }, 20_000);
        const customers = (await api.get('/customers')).body.data.map((customer: { fullName: string }) => customer.fullName);
        return {
          status: transaction.status,
          sent: transaction.sentAmount,
          received: transaction.receivedAmount,
          balance: (await api.get(`/internal-accounts/${accountId}`)).body.balance,
          quotes: (await api.get('/transactions')).body.data.length,
          clock: (await api.get('/sandbox/clock')).body.advancedSeconds,
          customers,
        };
      }

      const first = await suite();
      const restored = await api.post('/sandbox/snapshots/start/restore');
      expect(restored.status).toBe(200);
      // As saved: the money back, the clock back, the run's transaction gone, the ledger as it was.
      expect((await api.get(`/internal-accounts/${accountId}`)).body.balance.amount).toBe(20_000);
      expect((await api.get('/sandbox/clock')).body.advancedSeconds).toBe(60);
      expect((await api.get('/transactions')).body.data).toEqual([]);
      expect(await ledgerTotals(platformId)).toEqual(ledgerAtStart);
      const second = await suite();
      expect(second).toEqual(first);
      expect(Object.values((await ledgerTotals(platformId)).currencies).every((total) => total === 0)).toBe(true);

      // Another platform saw none of it.
      expect((await other.api.get(`/customers/${theirs}`)).status).toBe(200);
      expect((await other.api.get('/sandbox/clock')).body.advancedSeconds).toBe(0);

      expect((await api.get('/sandbox/snapshots')).body).toEqual([expect.objectContaining({ name: 'start' })]);
      expect((await api.post('/sandbox/snapshots/nothing-saved/restore')).status).toBe(404);
      expect((await api.post('/sandbox/snapshots', { name: '../bad name' })).status).toBe(400);

      const reset = await api.post('/sandbox/reset');
      expect(reset.status).toBe(200);
      expect((await api.get(`/customers/${customerId}`)).status).toBe(404);
      expect((await api.get('/customers')).body.data).toEqual([]);
      expect((await api.get('/sandbox/clock')).body.advancedSeconds).toBe(0);
      expect(await ledgerTotals(platformId)).toEqual({ accounts: 0, currencies: {} });
      // Snapshots outlive a reset, and the platform works on from an empty state.
      expect((await api.post('/sandbox/snapshots/start/restore')).status).toBe(200);
      expect((await api.get(`/customers/${customerId}`)).status).toBe(200);
      expect((await other.api.get(`/customers/${theirs}`)).status).toBe(200);
      expect((await api.delete('/sandbox/snapshots/start')).status).toBe(204);
    });

    it("takes the platform's agents with it: a reset removes them and stops their tokens at once, a restore brings both back", async () => {
      const { api } = await regulatedPlatform(t);
      const customerId = await newCustomer(api);
      const policy = { permissions: ['VIEW_TRANSACTIONS'], defaultExecutionMode: 'AUTO', spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 } };
      const agent = await api.post('/agents', { name: 'Snapshot agent', customerId, policy });
      expect(agent.status).toBe(201);
      const redeemed = await api.post(`/agents/device-codes/${agent.body.deviceCode.code}/redeem`, undefined, { auth: null });
      const asAgent = { auth: null, headers: { authorization: `Bearer ${redeemed.body.accessToken}` } };
      // Verified once, so the gateway caches the token: the reset must drop it from the cache too.
      expect((await api.get('/agents/me', asAgent)).status).toBe(200);
      expect((await api.post('/sandbox/snapshots', { name: 'with-agent' })).status).toBe(201);

      expect((await api.post('/sandbox/reset')).status).toBe(200);
      expect((await api.get('/agents')).body.data).toEqual([]);
      expect((await api.get('/agents/me', asAgent)).status).toBe(401);

      expect((await api.post('/sandbox/snapshots/with-agent/restore')).status).toBe(200);
      expect((await api.get('/agents')).body.data).toEqual([expect.objectContaining({ id: agent.body.agent.id, customerId })]);
      expect((await api.get('/agents/me', asAgent)).body).toMatchObject({ id: agent.body.agent.id, isConnected: true });
    });

    it('seeds known customers and balances, after a reset when asked; refuses a bad seed whole', async () => {
      const { api } = await regulatedPlatform(t);
      await newCustomer(api, 'Before The Seed');
      const person = (fullName: string) => ({ customerType: 'INDIVIDUAL', fullName, birthDate: '1990-04-12', email: 'seed@example.com', nationality: 'GB', address: ADDRESS });
      const seeded = await api.post('/sandbox/seed', {
        reset: true,
        customers: [{ customer: person('Seeded Alice'), balances: [{ currency: 'USD', amount: 25_000 }] }, { customer: person('Seeded Bob') }],
      });
      expect(seeded.status).toBe(200);
      expect(seeded.body.customers).toHaveLength(2);
      const [alice] = seeded.body.customers;
      expect(alice.accounts).toEqual([{ currency: 'USD', accountId: expect.any(String), amount: 25_000 }]);
      expect((await api.get(`/internal-accounts/${alice.accounts[0].accountId}`)).body.balance.amount).toBe(25_000);
      const names = (await api.get('/customers')).body.data.map((customer: { fullName: string }) => customer.fullName).sort();
      expect(names).toEqual(['Seeded Alice', 'Seeded Bob']);

      const refused = await api.post('/sandbox/seed', { customers: [{ customer: person('Bad Amount'), balances: [{ currency: 'usd', amount: -5 }] }] });
      expect(refused.status).toBe(400);
      expect(refused.body.details.errors.map((error: { field: string }) => error.field).sort()).toEqual(['customers.0.balances.0.amount', 'customers.0.balances.0.currency']);
      expect((await api.get('/customers')).body.data).toHaveLength(2);
    });
  });
});

describe('Sandbox tools (production deployment)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({ env: { DEPLOYMENT_ENV: 'production', WEBHOOK_KEY_ENCRYPTION_KEY: '11'.repeat(32), PAYMENTS_KEY_ENCRYPTION_KEY: '22'.repeat(32) } });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('has none of them: 404 on every route whatever the token, none in /openapi.json, and `npm run mcp` will not start', async () => {
    const routes: [string, string][] = [
      ['POST', '/sandbox/faults'],
      ['GET', '/sandbox/faults'],
      ['DELETE', '/sandbox/faults/SandboxFault:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
      ['POST', '/sandbox/webhooks/replay'],
      ['GET', '/sandbox/webhooks/replays/WebhookReplay:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69'],
      ['POST', '/sandbox/mcp'],
      ['POST', '/sandbox/snapshots'],
      ['GET', '/sandbox/snapshots'],
      ['POST', '/sandbox/snapshots/start/restore'],
      ['DELETE', '/sandbox/snapshots/start'],
      ['POST', '/sandbox/reset'],
      ['POST', '/sandbox/seed'],
    ];
    const production = await t.newPlatform('production');
    for (const client of [t.api, production.api]) {
      for (const [method, path] of routes) {
        const answer = method === 'GET' ? await client.get(path) : method === 'DELETE' ? await client.delete(path) : await client.post(path, {});
        expect([method, path, answer.status]).toEqual([method, path, 404]);
      }
    }
    const document = (await (await fetch(`${t.stack.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/sandbox'))).toEqual([]);
    await expect(assertSandboxPlatform(httpPaykitApi(t.api.baseUrl, t.credentials))).rejects.toThrow(/production deployment/);
  });
});
