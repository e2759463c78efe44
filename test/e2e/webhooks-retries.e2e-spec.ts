import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../../apps/webhooks/src/config/webhooks-config';
import { JITTER, nominalRetryDelayMs } from '../../apps/webhooks/src/deliveries/retry-schedule';
import { InboxService } from '../../apps/webhooks/src/inbox/inbox.service';
import { CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';
import { syntheticEvent } from './webhooks.support';

/**
 * The end of the retry schedule. With SANDBOX_TIME_SCALE 0.000001 the 7-day window lasts
 * 605 ms, so a receiver that never recovers sees its delivery given up within a second.
 */
describe('Webhooks: giving up after 7 days of retries', () => {
  let t: TestStack;
  let server: Server;
  let status = 500;
  const received: Array<{ id: string; version: number }> = [];

  beforeAll(async () => {
    t = await startTestStack({ env: { SANDBOX_TIME_SCALE: '0.000001' } });
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const payload = JSON.parse(body);
        received.push({ id: payload.id, version: payload.data.version });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await t?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('marks a delivery FAILED once the window closes, lets the resource move on, and redelivers it on demand', async () => {
    const platform = await t.newPlatform();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    expect((await platform.api.patch('/config', { webhookEndpoint: url })).status).toBe(200);
    const inbox = t.stack.services.get('webhooks')!.get(InboxService);
    const resourceId = `Widget:${randomUUID()}`;
    const event = (version: number, occurredAt: Date) => syntheticEvent(platform.platformId, resourceId, occurredAt, version);
    const now = Date.now();
    await inbox.receive([event(1, new Date(now))]);
    await inbox.receive([event(2, new Date(now + 1))]);

    const failed = await eventually(async () => {
      const list = await platform.api.get(`/webhooks/deliveries?status=FAILED`);
      return list.body.data[0] ? (await platform.api.get(`/webhooks/deliveries/${list.body.data[0].id}`)).body : undefined;
    }, 10_000);
    expect(failed).toMatchObject({ status: 'FAILED', lastStatusCode: 500, lastError: 'Receiver answered HTTP 500' });
    expect(failed).not.toHaveProperty('nextAttemptAt');
    // How many retries fit in 605 ms depends on the machine; what the schedule promises does not.
    expect(failed.attempts.length).toBeGreaterThanOrEqual(2);
    expect(failed.attempts.every((a: any) => a.statusCode === 500 && !a.succeeded && a.trigger === 'SCHEDULED')).toBe(true);
    const times: number[] = failed.attempts.map((a: any) => Date.parse(a.attemptedAt));
    const policy = t.stack.services.get('webhooks')!.get<symbol, WebhooksConfig>(WEBHOOKS_CONFIG);
    const windowEnd = times[0] + policy.retryWindowMs * policy.timeScale;
    // Never early: each retry waits at least its nominal delay less the jitter, or until the window's end.
    times.slice(1).forEach((time, i) => {
      const earliest = Math.min(times[i] + nominalRetryDelayMs(policy, i + 1) * policy.timeScale * (1 - JITTER), windowEnd);
      expect(time).toBeGreaterThanOrEqual(Math.floor(earliest) - 1);
    });
    // The last attempt is the window's end, and nothing starts after the one that found it closed.
    expect(times[times.length - 1]).toBeGreaterThanOrEqual(windowEnd - 1);
    expect(times.filter((time) => time > windowEnd).length).toBeLessThanOrEqual(1);
    expect(failed.payload.data.version).toBe(1);

    // The resource's next event waited for the first to give up; now the receiver recovers.
    status = 200;
    const second = await eventually(async () => {
      const list = await platform.api.get(`/webhooks/deliveries?status=SUCCEEDED`);
      return list.body.data[0];
    }, 10_000);
    expect(second.resourceId).toBe(resourceId);
    const firstVersion2 = received.findIndex((r) => r.version === 2);
    expect(received.slice(0, firstVersion2).every((r) => r.version === 1)).toBe(true);

    const attemptsBefore = failed.attempts.length;
    // An hour of the platform's clock: any retry still scheduled would run now (the advance answers once it has).
    expect((await platform.api.post('/sandbox/clock/advance', { seconds: 3600 })).status).toBe(200);
    expect((await platform.api.get(`/webhooks/deliveries/${failed.id}`)).body.attempts).toHaveLength(attemptsBefore);

    const redelivered = await platform.api.post(`/webhooks/deliveries/${failed.id}/redeliver`);
    expect(redelivered.status).toBe(202);
    const recovered = await eventually(async () => {
      const detail = (await platform.api.get(`/webhooks/deliveries/${failed.id}`)).body;
      return detail.status === 'SUCCEEDED' ? detail : undefined;
    });
    expect(recovered.attempts).toHaveLength(attemptsBefore + 1);
    expect(recovered.attempts[attemptsBefore]).toMatchObject({ trigger: 'MANUAL', statusCode: 200, succeeded: true });
  });
});

/**
 * A receiver that refuses every connection, with real-time retries (a minute away): each failure
 * frees a slot without a claim of its own, so only the worker knowing that deliveries still wait
 * for room gets a backlog larger than the platform's slots attempted before the idle poll
 * (a minute in embedded mode).
 */
describe('Webhooks: a receiver that refuses connections', () => {
  let t: TestStack;
  let healthy: Server;
  const healthyReceived: string[] = [];

  beforeAll(async () => {
    t = await startTestStack({ env: { SANDBOX_TIME_SCALE: '1' } });
    healthy = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        healthyReceived.push(JSON.parse(body).data.id);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => healthy.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await t?.stop();
    healthy?.closeAllConnections();
    await new Promise((resolve) => healthy?.close(resolve));
  });

  it("attempts a backlog larger than the platform's slots at once, then another platform's webhooks go out as usual", async () => {
    const refusing = await t.newPlatform();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await refusing.api.patch('/config', { webhookEndpoint: `http://127.0.0.1:${closedPort}/hooks` })).status).toBe(200);
    const other = await t.newPlatform();
    expect((await other.api.patch('/config', { webhookEndpoint: `http://127.0.0.1:${(healthy.address() as AddressInfo).port}/hooks` })).status).toBe(200);

    const inbox = t.stack.services.get('webhooks')!.get(InboxService);
    const slots = t.stack.services.get('webhooks')!.get<symbol, WebhooksConfig>(WEBHOOKS_CONFIG).maxConcurrencyPerPlatform;
    const eventOf = (platformId: string) => syntheticEvent(platformId, `Widget:${randomUUID()}`, new Date(), 1);
    await inbox.receive(Array.from({ length: slots * 2 + 5 }, () => eventOf(refusing.platformId)));
    const attempted = await eventually(async () => {
      const log = (await refusing.api.get('/webhooks/deliveries?limit=100')).body.data;
      return log.length === slots * 2 + 5 && log.every((delivery: any) => delivery.attemptCount === 1) ? log : undefined;
    });
    // Each waits a minute for its first retry.
    expect(attempted.every((delivery: any) => delivery.status === 'PENDING' && Date.parse(delivery.nextAttemptAt) > Date.now() + 30_000)).toBe(true);

    const others = Array.from({ length: 5 }, () => eventOf(other.platformId));
    await inbox.receive(others);
    await eventually(async () => (healthyReceived.length === others.length ? true : undefined));
    expect(healthyReceived.sort()).toEqual(others.map((event) => event.resourceId).sort());
  });
});

/**
 * The guide's retry policy (mintlify/snippets/webhooks.mdx, "Retry Policy"), on the platform's
 * test clock: real-time delays (SANDBOX_TIME_SCALE 1), so nothing is retried until the clock is
 * advanced, and each advance answers once the retries it made due have started.
 */
describe("Webhooks: the guide's retry policy", () => {
  const MINUTE = 60_000;
  let t: TestStack;
  let server: Server;
  /** What the receiver answers, by the payload's `data.id` (then by type); 500 otherwise. */
  const statusById = new Map<string, number>();
  const statusByType = new Map<string, number>();
  const received: Array<{ id: string; type: string; dataId?: string }> = [];

  beforeAll(async () => {
    t = await startTestStack({ env: { SANDBOX_TIME_SCALE: '1' } });
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const payload = JSON.parse(body);
        received.push({ id: payload.id, type: payload.type, dataId: payload.data?.id });
        response.writeHead(statusById.get(payload.data?.id) ?? statusByType.get(payload.type) ?? 500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await t?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function platformWithReceiver() {
    const platform = await t.newPlatform();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    expect((await platform.api.patch('/config', { webhookEndpoint: url })).status).toBe(200);
    return platform;
  }

  /** The delivery about `resourceId` of `type`, once it has made `attempts` attempts (and recorded the last). */
  async function deliveryOf(platform: { api: TestStack['api'] }, resourceId: string, type: string, attempts: number, status?: string) {
    return eventually(async () => {
      const list = await platform.api.get(`/webhooks/deliveries?resourceId=${encodeURIComponent(resourceId)}`);
      const found = list.body.data?.find((delivery: any) => delivery.type === type);
      if (!found || found.attemptCount !== attempts || (status && found.status !== status)) return undefined;
      return (await platform.api.get(`/webhooks/deliveries/${found.id}`)).body;
    });
  }

  it('retries a 500 with exponential backoff capped at 30 minutes, and gives up once 7 days have passed', async () => {
    const platform = await platformWithReceiver();
    const inbox = t.stack.services.get('webhooks')!.get(InboxService);
    const resourceId = `Widget:${randomUUID()}`;
    await inbox.receive([syntheticEvent(platform.platformId, resourceId, new Date(), 1)]);

    let delivery = await deliveryOf(platform, resourceId, 'WIDGET.CHANGED', 1);
    expect(delivery).toMatchObject({ status: 'PENDING', lastStatusCode: 500 });
    // 1, 2, 4, 8, 16 minutes (±20 %), then 30 minutes at most, ever: each advance of 30 minutes brings exactly one retry.
    const nominal = [1, 2, 4, 8, 16, 30, 30];
    for (const [index, minutes] of nominal.entries()) {
      const last = Date.parse(delivery.attempts[index].attemptedAt);
      const wait = Date.parse(delivery.nextAttemptAt) - last;
      expect(wait).toBeGreaterThanOrEqual(minutes * MINUTE * (1 - JITTER) - 1);
      expect(wait).toBeLessThanOrEqual(Math.min(30, minutes * (1 + JITTER)) * MINUTE + 1);
      await advanceClock(platform.api, 30 * 60);
      delivery = await deliveryOf(platform, resourceId, 'WIDGET.CHANGED', index + 2);
      expect(delivery.status).toBe('PENDING');
      // Not before its time (attempts are in the platform's time).
      expect(Date.parse(delivery.attempts[index + 1].attemptedAt) - last).toBeGreaterThanOrEqual(wait - 1);
    }
    expect(delivery.attempts.every((a: any) => a.statusCode === 500 && a.trigger === 'SCHEDULED')).toBe(true);

    // 7 days after the first attempt: the retry then due is the last one.
    await advanceClock(platform.api, 7 * 24 * 3600);
    const failed = await deliveryOf(platform, resourceId, 'WIDGET.CHANGED', nominal.length + 2, 'FAILED');
    expect(failed).not.toHaveProperty('nextAttemptAt');
    expect(Date.parse(failed.attempts[failed.attempts.length - 1].attemptedAt) - Date.parse(failed.attempts[0].attemptedAt)).toBeGreaterThanOrEqual(7 * 24 * 60 * MINUTE);
    await advanceClock(platform.api, 24 * 3600);
    expect((await platform.api.get(`/webhooks/deliveries/${failed.id}`)).body.attempts).toHaveLength(nominal.length + 2);
  });

  it('does not retry a delivery the receiver answers 409 (it already has it)', async () => {
    const platform = await platformWithReceiver();
    const inbox = t.stack.services.get('webhooks')!.get(InboxService);
    const resourceId = `Widget:${randomUUID()}`;
    statusById.set(resourceId, 409);
    await inbox.receive([syntheticEvent(platform.platformId, resourceId, new Date(), 1)]);

    const delivery = await deliveryOf(platform, resourceId, 'WIDGET.CHANGED', 1, 'FAILED');
    expect(delivery).toMatchObject({ lastStatusCode: 409 });
    expect(delivery).not.toHaveProperty('nextAttemptAt');
    await advanceClock(platform.api, 24 * 3600);
    expect((await platform.api.get(`/webhooks/deliveries/${delivery.id}`)).body.attempts).toHaveLength(1);
    expect(received.filter((r) => r.dataId === resourceId)).toHaveLength(1);
  });

  it('never retries a TEST webhook', async () => {
    const platform = await platformWithReceiver();
    const sent = await platform.api.post('/sandbox/webhooks/test');
    expect([sent.status, sent.body.code, sent.body.details?.statusCode]).toEqual([400, 'WEBHOOK_DELIVERY_ERROR', 500]);
    // A TEST event that reached the delivery queue is not retried either.
    const inbox = t.stack.services.get('webhooks')!.get(InboxService);
    const resourceId = `Widget:${randomUUID()}`;
    await inbox.receive([{ ...syntheticEvent(platform.platformId, resourceId, new Date(), 1), webhookType: 'TEST' }]);
    const delivery = await deliveryOf(platform, resourceId, 'TEST', 1, 'FAILED');
    expect(delivery).toMatchObject({ lastStatusCode: 500 });

    await advanceClock(platform.api, 24 * 3600);
    expect((await platform.api.get(`/webhooks/deliveries/${delivery.id}`)).body.attempts).toHaveLength(1);
    // The sandbox test event (its data has no id: only this test sends one) and the queued one, each once.
    expect(received.filter((r) => r.type === 'TEST' && r.dataId === undefined)).toHaveLength(1);
    expect(received.filter((r) => r.dataId === resourceId)).toHaveLength(1);
  });

  it("never retries an incoming payment's PENDING webhook, and retries its later ones", async () => {
    const platform = await platformWithReceiver();
    // Regulated platforms' customers start APPROVED: they may receive at once.
    await t.stack.runtime.client.request(
      CUSTOMERS_SUBJECTS.updateConfig,
      { regulated: true },
      { platformId: platform.platformId, environment: 'sandbox', requestId: 'webhook-retries' },
    );
    const customer = await platform.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
    expect(customer.status).toBe(201);
    const payment = await eventually(async () => {
      const response = await platform.api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.uma.money',
        customerId: customer.body.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 900,
      });
      return response.status === 200 ? response.body : undefined;
    });
    const pending = await deliveryOf(platform, payment.id, 'INCOMING_PAYMENT.PENDING', 1, 'FAILED');
    expect(pending).toMatchObject({ lastStatusCode: 500 });
    expect(pending).not.toHaveProperty('nextAttemptAt');

    // The platform decides through the API instead; the COMPLETED webhook that follows is retried as usual.
    expect((await platform.api.post(`/transactions/${payment.id}/approve`, { receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } })).status).toBe(200);
    const completed = await deliveryOf(platform, payment.id, 'INCOMING_PAYMENT.COMPLETED', 1, 'PENDING');
    expect(completed.nextAttemptAt).toEqual(expect.any(String));
    await advanceClock(platform.api, 3600);
    await deliveryOf(platform, payment.id, 'INCOMING_PAYMENT.COMPLETED', 2);
    expect((await platform.api.get(`/webhooks/deliveries/${pending.id}`)).body.attempts).toHaveLength(1);
    expect(received.filter((r) => r.dataId === payment.id && r.type === 'INCOMING_PAYMENT.PENDING')).toHaveLength(1);
  });
});
