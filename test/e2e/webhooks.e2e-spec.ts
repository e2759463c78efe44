/**
 * @distributed webhooks: the durable JetStream consumer, deliveries and a consumer restart
 */
import { createPublicKey, createVerify, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createRootLogger, createServiceRuntime, ServiceRuntime, startServiceApp } from '@paykit/runtime';
import { InboxService } from '../../apps/webhooks/src/inbox/inbox.service';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../../apps/webhooks/src/config/webhooks-config';
import { WebhooksAppModule } from '../../apps/webhooks/src/app.module';
import { startWebhookListener } from '../../tools/webhooks-listen';
import { EVENT_BUS, EventBus } from '@paykit/transport';
import { ApiClient } from '../support/api-client';
import { syntheticEvent } from './webhooks.support';
import { eventually, startTestStack, TestStack } from '../support/test-stack';

// Everything the services log while this file runs, to prove no key or signature is ever written.
const logLines: string[] = [];
createRootLogger({
  level: 'debug',
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  }),
});
// Short enough that the hanging-receiver cases finish within a test; the default (10 s) is unit-tested.
// Through the stack's environment: the webhooks service reads its settings from the runtime's, not process.env.
const DELIVERY_TIMEOUT_MS = '3000';

type Behaviour = (request: IncomingMessage, response: ServerResponse, attempt: number) => void;

interface Received {
  rawBody: Buffer;
  headers: IncomingMessage['headers'];
  payload: { id: string; type: string; timestamp: string; data: any };
  /** Checked exactly as INTEROP.md shows a platform doing it. */
  verified: boolean;
  at: number;
}

const ok: Behaviour = (_, response) => response.writeHead(200).end('ok');
const answer =
  (status: number, headers: Record<string, string> = {}): Behaviour =>
  (_, response) =>
    response.writeHead(status, headers).end();
const closeConnection: Behaviour = (request) => request.socket.destroy();
const hang: Behaviour = () => undefined;

/** A platform's webhook receiver on loopback that verifies every signature with node:crypto. */
class Receiver {
  readonly received: Received[] = [];
  publicKeyPem = '';
  behaviour: Behaviour = ok;
  private readonly attemptsById = new Map<string, number>();
  private readonly sockets = new Set<import('node:net').Socket>();

  private readonly server: Server = createServer((request, response) => this.handle(request, response));

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    receiver.server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  ofResource(resourceId: string): Received[] {
    return this.received.filter((r) => r.payload.data?.id === resourceId);
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const payload = JSON.parse(rawBody.toString('utf8'));
      const { s } = JSON.parse(String(request.headers['x-service-signature']));
      const verified = createVerify('SHA256').update(rawBody).verify(this.publicKeyPem, Buffer.from(s, 'base64'));
      const attempt = (this.attemptsById.get(payload.id) ?? 0) + 1;
      this.attemptsById.set(payload.id, attempt);
      this.received.push({ rawBody, headers: request.headers, payload, verified, at: Date.now() });
      this.behaviour(request, response, attempt);
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const ada = { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' };

describe('Webhooks: signed, durable, at-least-once delivery', () => {
  let t: TestStack;
  const receivers: Receiver[] = [];
  const extraRuntimes: ServiceRuntime[] = [];

  beforeAll(async () => {
    t = await startTestStack({ env: { RPC_TIMEOUT_MS: '4000', WEBHOOK_DELIVERY_TIMEOUT_MS: DELIVERY_TIMEOUT_MS } });
  });

  afterAll(async () => {
    await t?.stop();
    for (const runtime of extraRuntimes) {
      await runtime.client.close();
      await runtime.eventBus.close();
    }
    for (const receiver of receivers) await receiver.close();
  });

  /** A new platform with its own receiver configured as its endpoint. */
  async function platformWithReceiver(): Promise<{ api: ApiClient; platformId: string; receiver: Receiver }> {
    const platform = await t.newPlatform();
    const receiver = await Receiver.start();
    receivers.push(receiver);
    const patched = await platform.api.patch('/config', { webhookEndpoint: receiver.url });
    expect(patched.status).toBe(200);
    receiver.publicKeyPem = patched.body.webhookPublicKey;
    return { ...platform, receiver };
  }

  async function createCustomer(api: ApiClient, body: Record<string, unknown> = ada): Promise<any> {
    const created = await api.post('/customers', body);
    expect(created.status).toBe(201);
    return created.body;
  }

  async function deliveryOf(api: ApiClient, resourceId: string, predicate: (d: any) => boolean = () => true): Promise<any> {
    return eventually(async () => {
      const list = await api.get(`/webhooks/deliveries?resourceId=${encodeURIComponent(resourceId)}`);
      const found = list.body.data?.find(predicate);
      if (!found) return undefined;
      return (await api.get(`/webhooks/deliveries/${found.id}`)).body;
    });
  }

  describe('configuration (GET and PATCH /config)', () => {
    it('serves a P-256 public key (PEM, SPKI) next to the customers part, and never a private key', async () => {
      const response = await t.api.get('/config');
      expect(response.status).toBe(200);
      expect(response.body.supportedCurrencies).toEqual(expect.any(Array));
      expect(response.body.webhookPublicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
      const key = createPublicKey(response.body.webhookPublicKey);
      expect(key.asymmetricKeyType).toBe('ec');
      expect(key.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
      expect(JSON.stringify(response.body)).not.toMatch(/PRIVATE/);
      expect((await t.api.get('/config')).body.webhookPublicKey).toBe(response.body.webhookPublicKey);
    });

    it('gives each platform its own key pair', async () => {
      const other = await t.newPlatform();
      const [mine, theirs] = await Promise.all([t.api.get('/config'), other.api.get('/config')]);
      expect(theirs.body.webhookPublicKey).not.toBe(mine.body.webhookPublicKey);
    });

    it.each([
      ['https with a path', 'https://platform.example.com/webhooks/paykit'],
      ['http on loopback with a port', 'http://127.0.0.1:4242/hooks'],
      ['localhost', 'http://localhost:3000/webhooks'],
    ])('accepts %s as webhookEndpoint and answers the whole configuration', async (_, url) => {
      const response = await t.api.patch('/config', { webhookEndpoint: url });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ webhookEndpoint: url, webhookPublicKey: expect.any(String), supportedCurrencies: expect.any(Array) });
      expect((await t.api.get('/config')).body.webhookEndpoint).toBe(url);
    });

    it.each([
      ['another scheme', 'ftp://platform.example.com/hooks'],
      ['credentials in the URL', 'https://user:secret@platform.example.com/hooks'],
      ['a user name in the URL', 'https://user@platform.example.com/hooks'],
      ['no scheme', 'platform.example.com/hooks'],
      ['not a URL', 'not a url'],
      ['a number', 42],
    ])('refuses %s with 400 INVALID_INPUT naming webhookEndpoint', async (_, value) => {
      const response = await t.api.patch('/config', { webhookEndpoint: value });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      expect(response.body.details.errors).toEqual([expect.objectContaining({ field: 'webhookEndpoint' })]);
    });

    it('reports the url format constraint and refuses unknown fields', async () => {
      const response = await t.api.patch('/config', { webhookEndpoint: 'ftp://x.example.com', surprise: 1 });
      expect(response.status).toBe(400);
      const byField = Object.fromEntries(response.body.details.errors.map((e: { field: string }) => [e.field, e]));
      expect(byField.webhookEndpoint.constraint).toEqual({ format: 'url' });
      expect(byField.surprise.message).toMatch(/not a recognised field/);
    });

    it('removes the endpoint with null', async () => {
      await t.api.patch('/config', { webhookEndpoint: 'https://platform.example.com/hooks' });
      const response = await t.api.patch('/config', { webhookEndpoint: null });
      expect(response.status).toBe(200);
      expect(response.body).not.toHaveProperty('webhookEndpoint');
    });
  });

  describe('delivery', () => {
    it('POSTs each event signed, as {id, type, timestamp, data} with data exactly as GET returns the resource', async () => {
      const { api, receiver } = await platformWithReceiver();
      const customer = await createCustomer(api);
      const [received] = await eventually(async () => (receiver.ofResource(customer.id).length > 0 ? receiver.ofResource(customer.id) : undefined));
      expect(received.verified).toBe(true);
      expect(received.headers['content-type']).toBe('application/json');
      expect(JSON.parse(String(received.headers['x-service-signature']))).toEqual({ v: '1', s: expect.any(String) });
      expect(Object.keys(received.payload)).toEqual(['id', 'type', 'timestamp', 'data']);
      expect(received.payload).toEqual({
        id: expect.stringMatching(/^Webhook:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        type: 'CUSTOMER.KYC_PENDING',
        timestamp: expect.any(String),
        data: (await api.get(`/customers/${customer.id}`)).body,
      });
      expect(new Date(received.payload.timestamp).toISOString()).toBe(received.payload.timestamp);

      const delivery = await deliveryOf(api, customer.id, (d) => d.status === 'SUCCEEDED');
      expect(delivery).toMatchObject({ id: received.payload.id, type: 'CUSTOMER.KYC_PENDING', resourceId: customer.id, status: 'SUCCEEDED', attemptCount: 1, lastStatusCode: 200 });
      expect(delivery.payload).toEqual(received.payload);
      expect(delivery.attempts).toEqual([
        { number: 1, trigger: 'SCHEDULED', attemptedAt: expect.any(String), endpoint: receiver.url, statusCode: 200, latencyMs: expect.any(Number), succeeded: true },
      ]);
    });

    it("a signature made with another platform's key, or over other bytes, does not verify", async () => {
      const first = await platformWithReceiver();
      const second = await platformWithReceiver();
      const customer = await createCustomer(first.api);
      const [received] = await eventually(async () => (first.receiver.ofResource(customer.id).length > 0 ? first.receiver.ofResource(customer.id) : undefined));
      const { s } = JSON.parse(String(received.headers['x-service-signature']));
      const verify = (pem: string, body: Buffer) => createVerify('SHA256').update(body).verify(pem, Buffer.from(s, 'base64'));
      expect(verify(first.receiver.publicKeyPem, received.rawBody)).toBe(true);
      expect(verify(second.receiver.publicKeyPem, received.rawBody)).toBe(false);
      expect(verify(first.receiver.publicKeyPem, Buffer.from(received.rawBody.toString('utf8').replace('KYC_PENDING', 'KYC_APPROVED')))).toBe(false);
    });

    it('keeps two platforms apart: separate endpoints and keys, no cross-delivery', async () => {
      const a = await platformWithReceiver();
      const b = await platformWithReceiver();
      const aCustomers = await Promise.all([1, 2, 3].map(() => createCustomer(a.api)));
      const bCustomers = await Promise.all([1, 2].map(() => createCustomer(b.api)));
      await eventually(async () => (a.receiver.received.length >= 3 && b.receiver.received.length >= 2 ? true : undefined));
      // Nothing left to send on either platform: a cross-delivery would have been received by now.
      for (const platform of [a, b]) {
        await eventually(async () => ((await platform.api.get('/webhooks/deliveries?status=PENDING')).body.data.length === 0 ? true : undefined));
      }
      expect(a.receiver.received.map((r) => r.payload.data.id).sort()).toEqual(aCustomers.map((c) => c.id).sort());
      expect(b.receiver.received.map((r) => r.payload.data.id).sort()).toEqual(bCustomers.map((c) => c.id).sort());
      expect([...a.receiver.received, ...b.receiver.received].every((r) => r.verified)).toBe(true);
      const aLog = await a.api.get(`/webhooks/deliveries/${b.receiver.received[0].payload.id}`);
      expect(aLog.status).toBe(404);
    });

    it('creates exactly one delivery per event id however often the bus delivers it', async () => {
      const { api, platformId, receiver } = await platformWithReceiver();
      const event = syntheticEvent(platformId, `Widget:${randomUUID()}`, new Date(), 1);
      const inbox = t.stack.services.get('webhooks')!.get(InboxService);
      // Side by side, twice within one batch, and again afterwards.
      await Promise.all([inbox.receive([event]), inbox.receive([event, event]), inbox.receive([event])]);
      await inbox.receive([event]);
      await eventually(async () => (receiver.ofResource(event.resourceId).length > 0 ? true : undefined));
      // Every receive above has returned, so every delivery it made is in the log: none of them is still to send.
      await eventually(async () => ((await api.get(`/webhooks/deliveries?resourceId=${event.resourceId}&status=PENDING`)).body.data.length === 0 ? true : undefined));
      expect(receiver.ofResource(event.resourceId)).toHaveLength(1);
      const log = await api.get(`/webhooks/deliveries?resourceId=${event.resourceId}`);
      expect(log.body.data).toHaveLength(1);
    });

    // The growing retry delays are tested on the platform's test clock: test/e2e/test-clock.e2e-spec.ts.

    it.each([
      ['closes the connection', closeConnection, /^Connection failed: other side closed/],
      ['hangs past the timeout', hang, /^Timed out after 3000 ms$/],
      ['redirects', answer(302, { location: 'http://127.0.0.1:1/' }), /^Receiver answered HTTP 302$/],
    ])('records an attempt whose receiver %s as failed and retries it', async (_, behaviour, error) => {
      const { api, receiver } = await platformWithReceiver();
      receiver.behaviour = (request, response, attempt) => (attempt === 1 ? behaviour(request, response, attempt) : ok(request, response, attempt));
      const customer = await createCustomer(api);
      const delivery = await deliveryOf(api, customer.id, (d) => d.status === 'SUCCEEDED');
      expect(delivery.attempts).toHaveLength(2);
      expect(delivery.attempts[0]).toMatchObject({ succeeded: false, error: expect.stringMatching(error) });
      expect(delivery.attempts[1]).toMatchObject({ succeeded: true, statusCode: 200 });
    });

    it('records a refused connection and keeps retrying', async () => {
      const platform = await t.newPlatform();
      const closed = await Receiver.start();
      const url = closed.url;
      await closed.close();
      await platform.api.patch('/config', { webhookEndpoint: url });
      const customer = await createCustomer(platform.api);
      const delivery = await deliveryOf(platform.api, customer.id, (d) => d.attemptCount >= 2);
      expect(delivery.status).toBe('PENDING');
      expect(delivery.nextAttemptAt).toEqual(expect.any(String));
      expect(delivery.attempts[0]).toMatchObject({ succeeded: false, endpoint: url, error: expect.stringMatching(/ECONNREFUSED/) });
      expect(delivery.attempts[0]).not.toHaveProperty('statusCode');
    });

    it('records a failed TLS handshake (https to a plain HTTP receiver) as a failed attempt and keeps retrying', async () => {
      const platform = await t.newPlatform();
      const plain = await Receiver.start();
      receivers.push(plain);
      const url = plain.url.replace('http:', 'https:');
      expect((await platform.api.patch('/config', { webhookEndpoint: url })).status).toBe(200);
      const customer = await createCustomer(platform.api);
      const delivery = await deliveryOf(platform.api, customer.id, (d) => d.attemptCount >= 2);
      expect(delivery).toMatchObject({ status: 'PENDING', nextAttemptAt: expect.any(String), lastError: expect.stringMatching(/^Connection failed: .*(SSL|TLS|EPROTO)/) });
      expect(delivery.attempts[0]).toMatchObject({ succeeded: false, endpoint: url, error: expect.stringMatching(/^Connection failed: .*(SSL|TLS|EPROTO)/) });
      expect(delivery.attempts[0]).not.toHaveProperty('statusCode');
      // The handshake failed before any request was made.
      expect(plain.received).toEqual([]);
    });

    it("delivers a resource's events in the order they happened, each waiting for the previous one", async () => {
      const { api, platformId, receiver } = await platformWithReceiver();
      const resourceId = `Widget:${randomUUID()}`;
      receiver.behaviour = (_, response, attempt) => {
        const version = receiver.received[receiver.received.length - 1].payload.data.version;
        return version === 1 && attempt <= 2 ? response.writeHead(503).end() : response.writeHead(200).end();
      };
      const inbox = t.stack.services.get('webhooks')!.get(InboxService);
      const start = Date.now();
      for (const version of [1, 2, 3]) await inbox.receive([syntheticEvent(platformId, resourceId, new Date(start + version), version)]);
      // Every delivery SUCCEEDED: no attempt is left to come, so what the receiver got is final.
      await eventually(async () => {
        const log = await api.get(`/webhooks/deliveries?resourceId=${resourceId}`);
        return log.body.data.length === 3 && log.body.data.every((d: any) => d.status === 'SUCCEEDED') ? true : undefined;
      });
      expect(receiver.ofResource(resourceId).map((r) => r.payload.data.version)).toEqual([1, 1, 1, 2, 3]);
    });

    it("never lets one platform's hanging receiver hold up another platform's deliveries", async () => {
      const stuck = await platformWithReceiver();
      // Attempts held open at once by the hanging receiver (an attempt that times out closes its request).
      let open = 0;
      let mostOpen = 0;
      stuck.receiver.behaviour = (_, response) => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        response.on('close', () => (open -= 1));
      };
      const healthy = await platformWithReceiver();
      const inbox = t.stack.services.get('webhooks')!.get(InboxService);
      const limit = t.stack.services.get('webhooks')!.get<symbol, WebhooksConfig>(WEBHOOKS_CONFIG).maxConcurrencyPerPlatform;
      const eventsOf = (platformId: string, count: number) => Array.from({ length: count }, (_, i) => syntheticEvent(platformId, `Widget:${randomUUID()}`, new Date(), i));
      // More than the per-platform concurrency limit, all hanging.
      await inbox.receive(eventsOf(stuck.platformId, limit + 8));
      await eventually(async () => (stuck.receiver.received.length >= limit ? true : undefined));
      const healthyEvents = eventsOf(healthy.platformId, 5);
      await inbox.receive(healthyEvents);
      await eventually(async () => (healthy.receiver.received.length >= 5 ? true : undefined));
      expect(healthy.receiver.received.map((r) => r.payload.data.id).sort()).toEqual(healthyEvents.map((e) => e.resourceId).sort());
      // Meanwhile the stuck platform never had more than its limit of attempts open (attempts that
      // timed out on a slow machine gave their slot to another of its deliveries, not to more).
      expect(mostOpen).toBe(limit);
      const stuckLog = await stuck.api.get('/webhooks/deliveries?limit=100');
      expect(stuckLog.body.data).toHaveLength(limit + 8);
      expect(stuckLog.body.data.filter((d: any) => d.status !== 'PENDING')).toEqual([]);
      stuck.receiver.behaviour = ok;
    });

    it('records an event of a platform without an endpoint as SKIPPED; redelivery sends it once one is set', async () => {
      const platform = await t.newPlatform();
      const customer = await createCustomer(platform.api);
      const skipped = await deliveryOf(platform.api, customer.id);
      expect(skipped).toMatchObject({ status: 'SKIPPED', attemptCount: 0, attempts: [] });

      const refused = await platform.api.post(`/webhooks/deliveries/${skipped.id}/redeliver`);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('WEBHOOK_ENDPOINT_NOT_SET');

      const receiver = await Receiver.start();
      receivers.push(receiver);
      receiver.publicKeyPem = (await platform.api.patch('/config', { webhookEndpoint: receiver.url })).body.webhookPublicKey;
      const redelivered = await platform.api.post(`/webhooks/deliveries/${skipped.id}/redeliver`);
      expect(redelivered.status).toBe(202);
      expect(redelivered.body).toMatchObject({ id: skipped.id, status: 'PENDING' });
      const delivered = await deliveryOf(platform.api, customer.id, (d) => d.status === 'SUCCEEDED');
      expect(delivered.attempts).toEqual([expect.objectContaining({ number: 1, trigger: 'MANUAL', succeeded: true })]);
      expect(receiver.received[0]).toMatchObject({ verified: true, payload: { id: skipped.id } });
    });
  });

  describe('delivery log and redelivery', () => {
    let platform: { api: ApiClient; platformId: string; receiver: Receiver };
    let customers: any[];

    beforeAll(async () => {
      platform = await platformWithReceiver();
      customers = [];
      for (let i = 0; i < 5; i += 1) customers.push(await createCustomer(platform.api));
      await eventually(async () => {
        const list = await platform.api.get('/webhooks/deliveries?status=SUCCEEDED&limit=100');
        return list.body.data.length === 5 ? true : undefined;
      });
    });

    it('lists deliveries newest first, paginated with a cursor', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await platform.api.get(`/webhooks/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.data.map((d: any) => d.resourceId));
        cursor = page.body.hasMore ? page.body.nextCursor : undefined;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(customers.map((c) => c.id).reverse());
    });

    it.each([
      ['type', 'type=CUSTOMER.KYC_PENDING', 5],
      ['another type', 'type=CARD.STATE_CHANGE', 0],
      ['status', 'status=SUCCEEDED', 5],
      ['another status', 'status=FAILED', 0],
    ])('filters by %s', async (_, query, count) => {
      const response = await platform.api.get(`/webhooks/deliveries?${query}&limit=100`);
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(count);
    });

    it('filters by resource id', async () => {
      const response = await platform.api.get(`/webhooks/deliveries?resourceId=${customers[2].id}`);
      expect(response.body.data.map((d: any) => d.resourceId)).toEqual([customers[2].id]);
    });

    it.each([
      ['limit=0', 'limit', { minimum: 1 }],
      ['limit=101', 'limit', { maximum: 100 }],
      ['status=LOST', 'status', { enum: ['PENDING', 'SUCCEEDED', 'FAILED', 'SKIPPED'] }],
      ['type=customer', 'type', { pattern: expect.any(String) }],
      ['cursor=bogus', 'cursor', undefined],
      // d9223372036854775808: one past the largest sequence a page can end on.
      [`cursor=${Buffer.from('d9223372036854775808').toString('base64url')}`, 'cursor', undefined],
      ['color=red', 'color', undefined],
    ])('refuses %s with 400 naming the field', async (query, field, constraint) => {
      const response = await platform.api.get(`/webhooks/deliveries?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_INPUT');
      const error = response.body.details.errors.find((e: any) => e.field === field);
      expect(error).toBeDefined();
      if (constraint) expect(error.constraint).toEqual(constraint);
    });

    it('redelivers on demand with the same payload id, recorded as a MANUAL attempt', async () => {
      const original = await deliveryOf(platform.api, customers[0].id);
      const response = await platform.api.post(`/webhooks/deliveries/${original.id}/redeliver`);
      expect(response.status).toBe(202);
      expect(response.body).toMatchObject({ id: original.id, status: 'PENDING', nextAttemptAt: expect.any(String) });
      const again = await deliveryOf(platform.api, customers[0].id, (d) => d.attemptCount === 2 && d.status === 'SUCCEEDED');
      expect(again.attempts.map((a: any) => a.trigger)).toEqual(['SCHEDULED', 'MANUAL']);
      const copies = platform.receiver.ofResource(customers[0].id);
      expect(copies).toHaveLength(2);
      expect(copies[1].payload).toEqual(copies[0].payload);
      expect(copies[1].rawBody.equals(copies[0].rawBody)).toBe(true);
      expect(copies[1].verified).toBe(true);
    });

    it.each([
      ['an unknown id', 'Webhook:00000000-0000-7000-8000-000000000000'],
      ['a malformed id', 'not-a-webhook'],
    ])('answers 404 REFERENCE_NOT_FOUND for %s', async (_, id) => {
      for (const response of [await platform.api.get(`/webhooks/deliveries/${id}`), await platform.api.post(`/webhooks/deliveries/${id}/redeliver`)]) {
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
      }
    });

    it("answers another platform's delivery exactly like an unknown one", async () => {
      const other = await t.newPlatform();
      const delivery = await deliveryOf(platform.api, customers[1].id);
      for (const response of [await other.api.get(`/webhooks/deliveries/${delivery.id}`), await other.api.post(`/webhooks/deliveries/${delivery.id}/redeliver`)]) {
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('REFERENCE_NOT_FOUND');
      }
      expect((await other.api.get('/webhooks/deliveries')).body.data).toEqual([]);
    });
  });

  describe('POST /sandbox/webhooks/test', () => {
    it('answers 400 WEBHOOK_ENDPOINT_NOT_SET without an endpoint', async () => {
      const platform = await t.newPlatform();
      const response = await platform.api.post('/sandbox/webhooks/test');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 400, code: 'WEBHOOK_ENDPOINT_NOT_SET' });
    });

    it('sends a signed TEST event now and answers with what the receiver answered', async () => {
      const { api, receiver } = await platformWithReceiver();
      receiver.behaviour = answer(202);
      const response = await api.post('/sandbox/webhooks/test');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        url: receiver.url,
        response_status: 202,
        response_body: expect.any(String),
        id: expect.stringMatching(/^Webhook:/),
        type: 'TEST',
        endpoint: receiver.url,
        statusCode: 202,
        latencyMs: expect.any(Number),
      });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]).toMatchObject({ verified: true, payload: { id: response.body.id, type: 'TEST', timestamp: expect.any(String) } });
      expect((await api.get('/webhooks/deliveries')).body.data).toEqual([]);
    });

    it.each([
      ['answers 500', answer(500), { statusCode: 500, error: 'Receiver answered HTTP 500' }],
      ['closes the connection', closeConnection, { error: expect.stringMatching(/^Connection failed: other side closed/) }],
      ['hangs', hang, { error: expect.stringMatching(/^Timed out after \d+ ms$/) }],
    ])('answers 400 WEBHOOK_DELIVERY_ERROR when the receiver %s', async (_, behaviour, details) => {
      const { api, receiver } = await platformWithReceiver();
      receiver.behaviour = behaviour;
      const response = await api.post('/sandbox/webhooks/test');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'WEBHOOK_DELIVERY_ERROR', details: { endpoint: receiver.url, latencyMs: expect.any(Number), ...details } });
    });

    it('is refused with a production token (403)', async () => {
      const production = await t.newPlatform('production');
      const response = await production.api.post('/sandbox/webhooks/test');
      expect(response.status).toBe(403);
    });
  });

  describe('durability', () => {
    it('delivers every event exactly once in the log across a restart of the webhooks service, events still flowing', async () => {
      const { api, receiver } = await platformWithReceiver();
      const created: string[] = [];
      const produce = async (count: number) => {
        for (let i = 0; i < count; i += 1) created.push((await createCustomer(api)).id);
      };
      await produce(8);
      const flowing = produce(12);
      const stopping = t.stack.services.get('webhooks')!;
      const oldBus = stopping.get<symbol, EventBus>(EVENT_BUS);
      await stopping.close();
      // As when its process exits: its JetStream subscription ends (embedded: the process's one broker stays).
      if (t.mode === 'distributed') await oldBus.close();
      // Events made while no webhooks service runs at all.
      await produce(2);
      const broker = t.mode === 'embedded' ? (t.stack.runtime.client as unknown as { transport: { unwrap(): never } }).transport.unwrap() : undefined;
      const runtime = createServiceRuntime(t.stack.config, 'webhooks', { broker });
      extraRuntimes.push(runtime);
      t.stack.services.set('webhooks', await startServiceApp('webhooks', WebhooksAppModule, runtime, { broker }));
      await flowing;
      await produce(5);

      await eventually(async () => (created.every((id) => receiver.ofResource(id).length > 0) ? true : undefined), 20_000);
      const log = await api.get('/webhooks/deliveries?limit=100');
      expect(log.body.data).toHaveLength(created.length);
      expect(new Set(log.body.data.map((d: any) => d.resourceId))).toEqual(new Set(created));
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      // At least once: a copy cut off by the restart may arrive twice, always with the same payload id.
      for (const id of created) expect(new Set(receiver.ofResource(id).map((r) => r.payload.id)).size).toBe(1);
    }, 40_000);
  });

  describe('npm run webhooks:listen', () => {
    it('sets itself as the endpoint, verifies every signature and prints each event', async () => {
      const platform = await t.newPlatform();
      const lines: string[] = [];
      const listener = await startWebhookListener({ baseUrl: platform.api.baseUrl, credentials: platform.credentials, port: 0, print: (line) => lines.push(line) });
      try {
        expect((await platform.api.get('/config')).body.webhookEndpoint).toBe(listener.url);
        const customer = await createCustomer(platform.api);
        await eventually(async () => (lines.some((line) => line.includes(customer.id)) ? true : undefined));
        const line = lines.find((l) => l.includes(customer.id))!;
        expect(line).toContain('CUSTOMER.KYC_PENDING');
        expect(line).toContain('signature verified');
        const test = await platform.api.post('/sandbox/webhooks/test');
        expect(test.status).toBe(200);
        expect(lines.some((l) => l.includes(' TEST') && l.includes('signature verified'))).toBe(true);

        const forged = await fetch(listener.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-signature': JSON.stringify({ v: '1', s: 'AAAA' }) },
          body: '{"id":"Webhook:x","type":"CUSTOMER.KYC_APPROVED","timestamp":"2025-01-01T00:00:00.000Z","data":{"id":"Customer:forged"}}',
        });
        expect(forged.status).toBe(400);
        expect(lines.some((l) => l.includes('Customer:forged') && l.includes('SIGNATURE INVALID'))).toBe(true);
      } finally {
        await listener.close();
      }
      expect((await platform.api.get('/config')).body).not.toHaveProperty('webhookEndpoint');
    });
  });

  describe('secrets', () => {
    it('never logs a private key or a signature', async () => {
      const signatures = receivers.flatMap((r) => r.received.map((x) => JSON.parse(String(x.headers['x-service-signature'])).s as string));
      expect(signatures.length).toBeGreaterThan(10);
      expect(logLines.length).toBeGreaterThan(0);
      const logs = logLines.join('');
      expect(logs).not.toMatch(/PRIVATE KEY/);
      for (const signature of signatures) expect(logs).not.toContain(signature);
    });

    it('documents the webhook endpoints in the OpenAPI document', async () => {
      const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
      expect(document.paths['/config'].patch).toBeDefined();
      expect(document.paths['/webhooks/deliveries'].get).toBeDefined();
      expect(document.paths['/webhooks/deliveries/{deliveryId}'].get).toBeDefined();
      expect(document.paths['/webhooks/deliveries/{deliveryId}/redeliver'].post).toBeDefined();
      expect(document.paths['/sandbox/webhooks/test'].post).toBeDefined();
      const config = JSON.stringify(document.components.schemas);
      expect(config).toContain('webhookPublicKey');
    });
  });
});
