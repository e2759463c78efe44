import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { Client } from 'pg';
import { DistributedResources } from '@paykit/testing';
import { ApiClient } from '../support/api-client';
import { checkResponsesAgainstServedDocument } from '../support/openapi-conformance';
import { eventually, migratedDistributedResources } from '../support/test-stack';
import { AppProcesses, killableStackEnv, freePort, PrivateNats, SlowReceiver } from './process-stack';

/**
 * Replicas run together correctly: three cards processes and two webhooks processes (the other
 * apps one each) against one NATS server and one PostgreSQL, as the Kubernetes production overlay
 * runs them. Simulator calls spread over the cards replicas; every delayed outcome (issuance 005,
 * descriptor 005) takes effect once; and when one cards replica and one webhooks replica are
 * killed (SIGKILL) mid-load, no card transaction, ledger hold or webhook is lost or doubled.
 * Assertions are on outcomes and order, never on timing.
 */
const CARDS = ['cards-1', 'cards-2', 'cards-3'];
const WEBHOOKS = ['webhooks-1', 'webhooks-2'];
const USDC = { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 };
const CARDHOLDERS = 3;
const AMOUNT = 1_000;

interface Authorization {
  cardId: string;
  descriptor: string;
  status: number;
  id?: string;
}

describe('Replicas: three cards and two webhooks processes (apps as processes)', () => {
  let nats: PrivateNats;
  let resources: DistributedResources;
  let apps: AppProcesses;
  let receiver: SlowReceiver;
  let api: ApiClient;
  let stopChecking: (() => void) | undefined;
  const db: Record<'cards' | 'payments' | 'webhooks', Client> = {} as never;
  /** Cards issued active at once, and cards issued with a platformCardId ending 005 (ACTIVE ~30 s later, scaled). */
  const activeCards: string[] = [];
  const delayedCards: string[] = [];
  const answered: Authorization[] = [];
  /** Each process's probe port, where it also serves its metrics. */
  const healthPorts: Record<string, number> = {};

  beforeAll(async () => {
    nats = await PrivateNats.start();
    resources = await migratedDistributedResources();
    apps = new AppProcesses(killableStackEnv(resources, nats.url));
    const port = await freePort();
    const credentials = { tokenId: 'tok_replicas00001', secret: randomBytes(32).toString('base64url') };
    api = new ApiClient(`http://127.0.0.1:${port}/2025-10-13`, credentials);
    const replica = async (app: string, name: string, extra: Record<string, string> = {}) => {
      const healthPort = await freePort();
      healthPorts[name] = healthPort;
      apps.start(app, { HEALTH_PORT: String(healthPort), ...extra }, name);
    };
    // Each cards replica logs every message it handles (debug), to tell which one answered.
    for (const name of CARDS) await replica('cards', name, { LOG_LEVEL: 'debug' });
    for (const name of WEBHOOKS) await replica('webhooks', name);
    for (const app of ['customers', 'external-accounts', 'payments', 'wallet-auth']) await replica(app, app);
    await replica('gateway', 'gateway', { PORT: String(port), HOST: '127.0.0.1', SANDBOX_TOKEN_ID: credentials.tokenId, SANDBOX_TOKEN_SECRET: credentials.secret });
    // Every process ready by its own probe, as Kubernetes would wait for them.
    await apps.untilReady(healthPorts, 90_000);
    stopChecking = await checkResponsesAgainstServedDocument(`http://127.0.0.1:${port}`, '/2025-10-13');

    receiver = await SlowReceiver.asEndpointOf(api, 20);
    for (const name of ['cards', 'payments', 'webhooks'] as const) {
      db[name] = new Client({ connectionString: resources.env[`${name.toUpperCase()}_DATABASE_URL`] });
      await db[name].connect();
    }

    for (let holder = 0; holder < CARDHOLDERS; holder += 1) {
      const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Replica Holder', email: `replica-${holder}@example.com` });
      expect(customer.status).toBe(201);
      expect((await api.post('/verifications', { customerId: customer.body.id })).status).toBeLessThan(300);
      const wallet = await eventually(
        async () => {
          const listed = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&type=EMBEDDED_WALLET`);
          return listed.body?.data?.[0]?.id as string | undefined;
        },
        30_000,
        100,
      );
      expect((await api.post(`/sandbox/internal-accounts/${wallet}/fund`, { amount: 1_000_000_000 })).status).toBeLessThan(300);
      const issue = async (platformCardId: string) => {
        const card = await eventually(
          async () => {
            const response = await api.post('/cards', { cardholderId: customer.body.id, platformCardId, form: 'VIRTUAL', fundingSources: [wallet] });
            return response.status === 201 ? response : undefined;
          },
          30_000,
          200,
        );
        return card.body as { id: string; state: string };
      };
      activeCards.push((await issue(`replica-${holder}-a-100`)).id, (await issue(`replica-${holder}-b-100`)).id);
      for (const suffix of ['c', 'd']) {
        const card = await issue(`replica-${holder}-${suffix}-005`);
        expect(card.state).toBe('PROCESSING');
        delayedCards.push(card.id);
      }
    }
  }, 180_000);

  afterAll(async () => {
    stopChecking?.();
    for (const client of Object.values(db)) await client?.end();
    await apps?.stopAll();
    await receiver?.close();
    await nats?.remove();
    await resources?.drop();
  });

  /** Authorizations from `workers` callers at once, `count` in all, over the active cards; every fourth has a descriptor ending 005 (pulled later). */
  async function authorize(count: number, workers: number, onProgress?: (done: number) => void): Promise<Authorization[]> {
    const results: Authorization[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < count) {
          const index = next++;
          const cardId = activeCards[index % activeCards.length];
          const descriptor = index % 4 === 0 ? `REPLICA STORE ${index} 005` : `REPLICA STORE ${index} 100`;
          const response = await api
            .post(`/sandbox/cards/${cardId}/simulate/authorization`, { amount: AMOUNT, currency: USDC, merchant: { descriptor, mcc: '5411', country: 'US' } })
            .catch(() => undefined);
          results.push({ cardId, descriptor, status: response?.status ?? 0, id: response?.status === 202 ? response.body.id : undefined });
          onProgress?.(results.length);
        }
      }),
    );
    answered.push(...results);
    return results;
  }

  /** Simulator messages each cards replica has handled so far, from its own log. */
  function handledByReplica(): Record<string, number> {
    return Object.fromEntries(
      CARDS.map((name) => [
        name,
        readFileSync(apps.logOf(name), 'utf8')
          .split('\n')
          .filter((line) => line.includes('"subject":"cards.sandbox.authorization"') && line.includes('message handled')).length,
      ]),
    );
  }

  it('issues the 005 cards PROCESSING and activates each once, whichever replica runs the job', async () => {
    const activated = await eventually(
      async () => {
        const { rows } = await db.cards.query<{ id: string; state: string }>('SELECT id, state FROM card WHERE id = ANY($1)', [delayedCards]);
        return rows.length === delayedCards.length && rows.every((row) => row.state === 'ACTIVE') ? rows : undefined;
      },
      30_000,
      100,
    );
    expect(activated).toHaveLength(delayedCards.length);
    const jobs = (await db.cards.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM scheduled_job WHERE dedupe_key LIKE '%:activate' GROUP BY status`))
      .rows;
    expect(jobs).toEqual([{ status: 'DONE', n: delayedCards.length }]);
  }, 60_000);

  it('spreads simulator calls over the three cards replicas', async () => {
    const before = handledByReplica();
    const results = await authorize(150, 12);
    expect(results.every((result) => result.status === 202)).toBe(true);
    // Each replica's log lines are written asynchronously: counted once all have arrived.
    const handled = await eventually(
      async () => {
        const after = handledByReplica();
        const counts = CARDS.map((name) => after[name] - before[name]);
        return counts.reduce((sum, n) => sum + n, 0) >= results.length ? counts : undefined;
      },
      10_000,
      100,
    );
    expect(handled.reduce((sum, n) => sum + n, 0)).toBe(results.length);
    // NATS queue groups pick a member at random per message: each replica takes a real share.
    for (const n of handled) expect(n).toBeGreaterThanOrEqual(10);
  }, 90_000);

  it('loses and doubles nothing when a cards replica and a webhooks replica are killed mid-load', async () => {
    let killed: Promise<void> | undefined;
    const results = await authorize(360, 12, (done) => {
      if (done === 90 && !killed) killed = Promise.all([apps.stop('cards-1', 'SIGKILL'), apps.stop('webhooks-1', 'SIGKILL')]).then(() => undefined);
    });
    await killed;
    // Most calls were answered; those the killed replica held failed (504 or 503), not more.
    expect(results.filter((result) => result.status === 202).length).toBeGreaterThan(results.length / 2);
    for (const result of results) expect([202, 503, 504]).toContain(result.status);
    await expectConsistent();
  }, 150_000);

  it("serves what the autoscaler's queries read (deploy/k8s KEDA prometheus triggers), at zero once everything is worked off", async () => {
    const scaled = (
      loadAll(readFileSync(join(__dirname, '..', '..', 'deploy', 'k8s', 'components', 'keda', 'scaled-objects.yaml'), 'utf8')) as Array<{
        metadata: { name: string };
        spec: { triggers: Array<{ type: string; metadata: { query?: string } }> };
      }>
    ).filter(Boolean);
    for (const app of ['cards', 'webhooks'] as const) {
      const queries = scaled
        .find((object) => object.metadata.name === app)!
        .spec.triggers.filter((trigger) => trigger.type === 'prometheus')
        .map((trigger) => trigger.metadata.query!);
      expect(queries.length).toBeGreaterThan(0);
      // A replica still running (the test before killed each app's first).
      const replica = [...CARDS, ...WEBHOOKS].find((name) => name.startsWith(app) && apps.process(name)?.exitCode === null && apps.process(name)?.signalCode === null)!;
      const exposition = await (await fetch(`http://127.0.0.1:${healthPorts[replica]}/metrics`)).text();
      for (const query of queries) {
        // The queries are max(<metric>{<label>="<value>",...}): the series a scrape of the app gives Prometheus.
        const [, metric, matchers = ''] = /^max\((\w+)(?:\{(.*)\})?\)$/.exec(query) ?? [];
        expect(metric).toBeDefined();
        const wanted = matchers.split(',').filter(Boolean);
        const values = exposition
          .split('\n')
          .filter((line) => line.startsWith(`${metric}{`) || line.startsWith(`${metric} `))
          .filter((line) => wanted.every((matcher) => line.includes(matcher)))
          .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
        expect({ query, values: values.length > 0 ? values : 'no such series' }).toEqual({ query, values: values.map(() => 0) });
      }
    }
  });

  /** Once the stack settles: every answered authorization exists, each delayed pull ran once, every hold belongs to its card transaction, every event was delivered once. */
  async function expectConsistent(): Promise<void> {
    const settled = await eventually(
      async () => {
        const pending = (await db.cards.query<{ n: number }>(`SELECT count(*)::int AS n FROM card_transaction WHERE status = 'PENDING'`)).rows[0].n;
        const outbox = (await db.cards.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_event')).rows[0].n;
        // Jobs include the interruption jobs of authorizations the killed replica never recorded (due 3 RPC timeouts later).
        const jobs = (await db.cards.query<{ n: number }>(`SELECT count(*)::int AS n FROM scheduled_job WHERE status IN ('PENDING', 'RUNNING')`)).rows[0].n;
        const undelivered = (await db.webhooks.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_delivery WHERE status <> 'SUCCEEDED'`)).rows[0].n;
        const recordedRows = (await db.cards.query<{ id: string; merchant: { descriptor: string } }>('SELECT id, merchant FROM card_transaction')).rows;
        const recorded = new Set(recordedRows.map((row) => row.id));
        const unrecordedHolds = (await db.payments.query<{ reference: string }>(`SELECT reference FROM hold WHERE status = 'PENDING'`)).rows.filter(
          (hold) => !recorded.has(hold.reference),
        ).length;
        // Published is not yet received: events a killed webhooks replica held come back to the
        // other one only when their ack wait ends, and not in order with the same resource's later
        // events, so every recorded transaction's AUTHORIZED (and a 005 one's PENDING) must have
        // reached the webhooks service (exactly once, checked below).
        const announced = new Set(
          (
            await db.webhooks.query<{ resource_id: string; type: string }>(
              `SELECT resource_id, type FROM webhook_delivery WHERE type IN ('CARD_TRANSACTION.AUTHORIZED', 'CARD_TRANSACTION.PENDING')`,
            )
          ).rows.map((row) => `${row.resource_id} ${row.type}`),
        );
        const unannounced = recordedRows.filter(
          (row) => !announced.has(`${row.id} CARD_TRANSACTION.AUTHORIZED`) || (row.merchant.descriptor.endsWith('005') && !announced.has(`${row.id} CARD_TRANSACTION.PENDING`)),
        ).length;
        return pending === 0 && outbox === 0 && jobs === 0 && undelivered === 0 && unrecordedHolds === 0 && unannounced === 0 ? true : undefined;
      },
      90_000,
      250,
    ).catch(async (error: Error) => {
      const state = await db.cards.query(`SELECT status, count(*)::int AS n FROM card_transaction GROUP BY status`);
      const deliveries = await db.webhooks.query(`SELECT status, count(*)::int AS n FROM webhook_delivery GROUP BY status`);
      throw new Error(`${error.message}: card transactions ${JSON.stringify(state.rows)}, deliveries ${JSON.stringify(deliveries.rows)}`);
    });
    expect(settled).toBe(true);

    const transactions = (
      await db.cards.query<{ id: string; status: string; hold_id: string | null; merchant: { descriptor: string } }>('SELECT id, status, hold_id, merchant FROM card_transaction')
    ).rows;
    const byId = new Map(transactions.map((row) => [row.id, row]));
    // Not lost: every answered authorization is recorded, once (ids are unique).
    const answeredIds = answered.filter((result) => result.id).map((result) => result.id!);
    expect(new Set(answeredIds).size).toBe(answeredIds.length);
    for (const id of answeredIds) expect(byId.has(id)).toBe(true);
    // Funds are ample: every recorded authorization ended CONFIRMED, 005 ones after their pull.
    expect(transactions.filter((row) => row.status !== 'CONFIRMED')).toEqual([]);
    const pulls = (await db.cards.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM scheduled_job WHERE dedupe_key LIKE '%:pull' GROUP BY status`)).rows;
    expect(pulls).toEqual([{ status: 'DONE', n: transactions.filter((row) => row.merchant.descriptor.endsWith('005')).length }]);

    // The ledger: one hold per card transaction, the one it records, open; no hold without its
    // card transaction (a killed replica's hold is released or belongs to a recorded transaction).
    const holds = (await db.payments.query<{ id: string; reference: string; status: string; caller_key: string }>(`SELECT id, reference, status, caller_key FROM hold`)).rows;
    const openHolds = holds.filter((hold) => hold.status === 'PENDING');
    expect(openHolds.filter((hold) => !byId.has(hold.reference))).toEqual([]);
    expect(new Set(openHolds.map((hold) => hold.reference)).size).toBe(openHolds.length);
    for (const row of transactions) {
      const own = holds.filter((hold) => hold.reference === row.id);
      expect(own).toEqual([expect.objectContaining({ id: row.hold_id, status: 'PENDING', caller_key: `${row.id}:hold` })]);
    }

    // Webhooks: one delivery per event (resource and type), delivered and verified; each card
    // transaction's CONFIRMED announced once (005 ones PENDING first), each 005 card's activation once.
    const deliveries = (
      await db.webhooks.query<{ id: string; resource_id: string; type: string; status: string }>(
        `SELECT id, resource_id, type, status FROM webhook_delivery WHERE resource_id LIKE 'Card%'`,
      )
    ).rows;
    const perEvent = new Map<string, number>();
    for (const delivery of deliveries) perEvent.set(`${delivery.resource_id} ${delivery.type}`, (perEvent.get(`${delivery.resource_id} ${delivery.type}`) ?? 0) + 1);
    expect([...perEvent].filter(([, n]) => n > 1)).toEqual([]);
    for (const row of transactions) {
      expect(perEvent.get(`${row.id} CARD_TRANSACTION.AUTHORIZED`)).toBe(1);
      expect(perEvent.get(`${row.id} CARD_TRANSACTION.PENDING`)).toBe(row.merchant.descriptor.endsWith('005') ? 1 : undefined);
    }
    for (const cardId of delayedCards) expect(perEvent.get(`${cardId} CARD.STATE_CHANGE`)).toBe(1);
    const received = receiver.ids();
    expect(deliveries.filter((delivery) => !received.has(delivery.id))).toEqual([]);
    expect(receiver.received.every((webhook) => webhook.verified)).toBe(true);
  }
});
