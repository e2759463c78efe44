import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { WEBHOOKS_CONFIG, WebhooksConfig } from '../../apps/webhooks/src/config/webhooks-config';
import { JITTER, nominalRetryDelayMs } from '../../apps/webhooks/src/deliveries/retry-schedule';
import { InboxService } from '../../apps/webhooks/src/inbox/inbox.service';
import { eventually, startTestStack, TestStack } from '../support/test-stack';
import { syntheticEvent } from './webhooks.support';

/**
 * The end of the retry schedule. With SANDBOX_TIME_SCALE 0.00001 the 24-hour window lasts
 * 864 ms, so a receiver that never recovers sees its delivery given up within a second.
 */
describe('Webhooks: giving up after about 24 hours of retries', () => {
  let t: TestStack;
  let server: Server;
  let status = 500;
  const received: Array<{ id: string; version: number }> = [];

  beforeAll(async () => {
    t = await startTestStack({ env: { SANDBOX_TIME_SCALE: '0.00001' } });
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
    // How many retries fit in 864 ms depends on the machine; what the schedule promises does not.
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
