import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Clock, DeadLetterReplayer, DeadLetterStore, ParkRequest } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { ServiceClient } from '@paykit/transport';
import { WebhooksConfig } from '../config/webhooks-config';
import { WebhookConfigService } from '../webhook-config/webhook-config.service';
import { AttemptRecord, ClaimedDelivery, DeliveriesRepository, DELIVERY_WORKER, DueClaim, LeaseTerms, RecordedAttempt } from './deliveries.repository';
import { DeliveryFaults } from './delivery-faults';
import { DeliveryWorker } from './delivery.worker';
import { pollUntil } from '@paykit/testing';

/** No sandbox fault is set in these cases. */
const NO_FAULTS = { take: async () => undefined } as unknown as DeliveryFaults;

const MAX_ATTEMPTS = 3;

interface Row extends ClaimedDelivery {
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  nextAttemptAt: Date;
  leaseToken: string | null;
}

/** The delivery table's behaviour the worker relies on, in memory. */
class FakeDeliveries {
  readonly rows = new Map<string, Row>();
  readonly parked: Array<{ id: string; failure: Omit<ParkRequest, 'source' | 'consumer' | 'messageId' | 'subject' | 'platformId' | 'payload'> }> = [];
  claims = new Map<string, number>();

  add(id: string, platformId: string, endpointUrl: string): void {
    this.rows.set(id, {
      id,
      platformId,
      type: 'CUSTOMER.CREATED',
      body: JSON.stringify({ id }),
      endpointUrl,
      redeliverRequestedAt: null,
      roundFailures: 0,
      roundStartedAt: null,
      status: 'PENDING',
      nextAttemptAt: new Date(0),
      leaseToken: null,
    });
  }

  /** Claims run, whatever they leased. */
  claimCount = 0;

  async claimDue(terms: LeaseTerms): Promise<DueClaim> {
    this.claimCount += 1;
    const due = [...this.rows.values()].filter((row) => row.status === 'PENDING' && row.leaseToken === null && row.nextAttemptAt <= terms.now);
    const leased = due.slice(0, terms.limit);
    for (const row of leased) {
      row.leaseToken = terms.leaseToken;
      this.claims.set(row.id, (this.claims.get(row.id) ?? 0) + 1);
    }
    return { leased: leased.map((row) => ({ ...row })), waitingForRoom: due.length > leased.length };
  }

  /** Attempted and waiting for a retry: back in the table, unleased, due later. */
  awaitingRetry(id: string): boolean {
    const row = this.rows.get(id)!;
    return row.status === 'PENDING' && row.leaseToken === null && row.nextAttemptAt.getTime() > 0;
  }

  async recordAttempts(records: AttemptRecord[]): Promise<RecordedAttempt[]> {
    return records.map((record) => {
      const row = this.rows.get(record.deliveryId)!;
      row.leaseToken = null;
      row.status = record.next.status as Row['status'];
      if (record.next.nextAttemptAt) row.nextAttemptAt = record.next.nextAttemptAt;
      return { effect: 'MOVED', number: 1 };
    });
  }

  async release(id: string): Promise<void> {
    this.rows.get(id)!.leaseToken = null;
  }

  async postpone(id: string, leaseToken: string, retryAt: Date): Promise<void> {
    const row = this.rows.get(id)!;
    if (row.leaseToken !== leaseToken) return;
    row.leaseToken = null;
    row.nextAttemptAt = retryAt;
  }

  async park(delivery: ClaimedDelivery, leaseToken: string, _deadLetters: DeadLetterStore, failure: FakeDeliveries['parked'][number]['failure']): Promise<boolean> {
    const row = this.rows.get(delivery.id)!;
    if (row.leaseToken !== leaseToken) return false;
    Object.assign(row, { status: 'FAILED', leaseToken: null });
    this.parked.push({ id: delivery.id, failure });
    return true;
  }

  async revive(id: string, now: Date): Promise<void> {
    Object.assign(this.rows.get(id)!, { status: 'PENDING', nextAttemptAt: now, redeliverRequestedAt: now });
  }
}

describe(`${DeliveryWorker.name}: a delivery that cannot be attempted`, () => {
  let receiver: Server;
  let endpoint: string;
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push((JSON.parse(body) as { id: string }).id);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });

  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("is postponed with backoff, then parked (FAILED and a dead letter) after the bounded retries; other platforms' deliveries go out; a replay makes it due again once", async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    // The poisoned platform's key opens as something that cannot sign (a public key): an error of ours, every time.
    const keys = new Map<string, KeyObject>([
      ['Platform:poisoned', publicKey],
      ['Platform:fine', privateKey],
    ]);
    const deliveries = new FakeDeliveries();
    deliveries.add('Webhook:poison', 'Platform:poisoned', endpoint);
    deliveries.add('Webhook:fine', 'Platform:fine', endpoint);
    const replayers = new Map<string, DeadLetterReplayer>();
    const deadLetters = {
      policy: { maxAttempts: MAX_ATTEMPTS, backoffMs: 5 },
      onReplay: (source: string, consumer: string, replayer: DeadLetterReplayer) => replayers.set(`${source}/${consumer}`, replayer),
    } as unknown as DeadLetterStore;
    const config = {
      deliveryTimeoutMs: 2_000,
      leaseMarginMs: 1_000,
      maxConcurrencyPerPlatform: 4,
      maxConcurrency: 8,
      retryWindowMs: 60_000,
      firstRetryDelayMs: 10,
      maxRetryDelayMs: 100,
      timeScale: 1,
    } as WebhooksConfig;
    const worker = new DeliveryWorker(
      deliveries as unknown as DeliveriesRepository,
      { signingKey: async (platformId: string) => keys.get(platformId)! } as unknown as WebhookConfigService,
      config,
      {} as ServiceClient,
      deadLetters,
      // No platform's clock is advanced here: every offset is zero.
      { offsetMs: async () => 0, onAdvance: () => undefined } as unknown as Clock,
      NO_FAULTS,
    );
    worker.onApplicationBootstrap();
    try {
      // The poison is parked and the fine one delivered, in whichever order the machine runs them.
      await pollUntil(() => deliveries.parked.length === 1 && deliveries.rows.get('Webhook:fine')!.status === 'SUCCEEDED');
      expect(received).toEqual(['Webhook:fine']);
      expect(deliveries.rows.get('Webhook:poison')!.status).toBe('FAILED');
      expect(deliveries.claims.get('Webhook:poison')).toBe(MAX_ATTEMPTS);
      expect(deliveries.parked[0]).toMatchObject({ id: 'Webhook:poison', failure: { attempts: MAX_ATTEMPTS } });

      // The key is repaired; the operator replays the dead letter: delivered once.
      keys.set('Platform:poisoned', privateKey);
      await replayers.get(`webhook-delivery/${DELIVERY_WORKER}`)!({ messageId: 'Webhook:poison' } as never);
      await pollUntil(() => received.includes('Webhook:poison'));
      await pollUntil(() => deliveries.rows.get('Webhook:poison')!.status === 'SUCCEEDED');
      expect(received.filter((id) => id === 'Webhook:poison')).toHaveLength(1);
    } finally {
      await worker.beforeApplicationShutdown();
    }
  });
});

describe(`${DeliveryWorker.name}: a receiver that fails fast`, () => {
  let receiver: Server;
  let endpoint: string;
  /** Deliveries the receiver accepts; it answers 500 to every other. */
  const accepted = new Set<string>();

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => response.writeHead(accepted.has((JSON.parse(body) as { id: string }).id) ? 200 : 500).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });

  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  function startWorker(deliveries: FakeDeliveries, maxConcurrency: number): DeliveryWorker {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const config = {
      deliveryTimeoutMs: 2_000,
      leaseMarginMs: 1_000,
      maxConcurrencyPerPlatform: maxConcurrency,
      maxConcurrency,
      retryWindowMs: 3_600_000,
      // No retry comes due while a case runs: every claim counted is one the worker chose to make.
      firstRetryDelayMs: 600_000,
      maxRetryDelayMs: 600_000,
      timeScale: 1,
    } as WebhooksConfig;
    const worker = new DeliveryWorker(
      deliveries as unknown as DeliveriesRepository,
      { signingKey: async () => privateKey } as unknown as WebhookConfigService,
      config,
      {} as ServiceClient,
      { policy: { maxAttempts: MAX_ATTEMPTS, backoffMs: 5 }, onReplay: () => undefined } as unknown as DeadLetterStore,
      { offsetMs: async () => 0, onAdvance: () => undefined } as unknown as Clock,
      NO_FAULTS,
      // Embedded mode's idle poll (a minute): no claim comes from it while a case runs.
      { mode: 'embedded' } as RuntimeConfig,
    );
    worker.onApplicationBootstrap();
    return worker;
  }

  it('claims once for a backlog that fits, not once per failure; a delivered webhook claims again (its resource may have a next one)', async () => {
    const deliveries = new FakeDeliveries();
    const ids = Array.from({ length: 20 }, (_, index) => `Webhook:failing-${index}`);
    for (const id of ids) deliveries.add(id, 'Platform:a', endpoint);
    deliveries.add('Webhook:accepted', 'Platform:a', endpoint);
    accepted.add('Webhook:accepted');
    const worker = startWorker(deliveries, 32);
    try {
      await pollUntil(() => ids.every((id) => deliveries.awaitingRetry(id)) && deliveries.rows.get('Webhook:accepted')!.status === 'SUCCEEDED');
      // The first claim leased all 21; only the delivered one set off another.
      await pollUntil(() => deliveries.claimCount >= 2);
      expect(deliveries.claimCount).toBe(2);
    } finally {
      await worker.beforeApplicationShutdown();
    }
  });

  it('claims again as slots free while due deliveries wait for room, until every one is attempted', async () => {
    const deliveries = new FakeDeliveries();
    const ids = Array.from({ length: 20 }, (_, index) => `Webhook:waiting-${index}`);
    for (const id of ids) deliveries.add(id, 'Platform:b', endpoint);
    const worker = startWorker(deliveries, 4);
    try {
      await pollUntil(() => ids.every((id) => deliveries.awaitingRetry(id)));
      expect(ids.every((id) => deliveries.claims.get(id) === 1)).toBe(true);
    } finally {
      await worker.beforeApplicationShutdown();
    }
  });
});
