import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DistributedResources } from '@paykit/testing';
import { ApiClient } from '../support/api-client';
import { checkResponsesAgainstServedDocument } from '../support/openapi-conformance';
import { eventually, migratedDistributedResources } from '../support/test-stack';
import { AppProcesses, killableStackEnv, freePort, PrivateNats, SlowReceiver } from './process-stack';

/** Pause after a refused request in the customer producer. */
const REFUSED_PAUSE_MS = 50;

/**
 * Webhooks through a crash of their process, dropped database connections and a NATS restart,
 * with the apps as real processes on a NATS server of this spec's own. After each fault: every
 * customer created has exactly one delivery record, delivered and verified by the receiver.
 */
describe('Webhooks through crashes and outages (apps as processes)', () => {
  let nats: PrivateNats;
  let resources: DistributedResources;
  let apps: AppProcesses;
  let receiver: SlowReceiver;
  let api: ApiClient;
  let stopChecking: (() => void) | undefined;
  let webhooksDb: Client;
  let customersDb: Client;

  beforeAll(async () => {
    nats = await PrivateNats.start();
    resources = await migratedDistributedResources();
    apps = new AppProcesses(killableStackEnv(resources, nats.url));
    const port = await freePort();
    const credentials = { tokenId: 'tok_webhookfaults01', secret: randomBytes(32).toString('base64url') };
    api = new ApiClient(`http://127.0.0.1:${port}/2025-10-13`, credentials);
    apps.start('webhooks');
    apps.start('customers');
    apps.start('gateway', { PORT: String(port), HOST: '127.0.0.1', SANDBOX_TOKEN_ID: credentials.tokenId, SANDBOX_TOKEN_SECRET: credentials.secret });
    // Deliveries take 150 ms to be answered, so some are always in flight while events flow.
    receiver = await SlowReceiver.asEndpointOf(api, 150);
    stopChecking = await checkResponsesAgainstServedDocument(`http://127.0.0.1:${port}`, '/2025-10-13');
    webhooksDb = new Client({ connectionString: resources.env.WEBHOOKS_DATABASE_URL });
    customersDb = new Client({ connectionString: resources.env.CUSTOMERS_DATABASE_URL });
    await Promise.all([webhooksDb.connect(), customersDb.connect()]);
  }, 90_000);

  afterAll(async () => {
    stopChecking?.();
    await webhooksDb?.end();
    await customersDb?.end();
    await apps?.stopAll();
    await nats?.remove();
    await resources?.drop();
    await receiver?.close();
  });

  /** Producers still running: a test that fails stops its own in afterEach, so the next test starts with none. */
  const producers: Array<{ stop(): Promise<number> }> = [];

  afterEach(async () => {
    await Promise.all(producers.splice(0).map((producer) => producer.stop()));
  });

  /**
   * Creates customers one after another until stopped; a request that fails meanwhile is not
   * retried. After a refusal the next request waits REFUSED_PAUSE_MS: pacing while a service is
   * down (so the loop does not spin), not a wait for an outcome; no assertion depends on it.
   */
  function produceCustomers(): { created(): number; refused(): number; stop(): Promise<number> } {
    let stopped = false;
    let created = 0;
    let refused = 0;
    const loop = (async () => {
      while (!stopped) {
        const response = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' }).catch(() => undefined);
        if (response?.status === 201) created += 1;
        else {
          refused += 1;
          await new Promise((resolve) => setTimeout(resolve, REFUSED_PAUSE_MS));
        }
      }
    })();
    const producer = {
      created: () => created,
      refused: () => refused,
      async stop() {
        stopped = true;
        await loop;
        return created;
      },
    };
    producers.push(producer);
    return producer;
  }

  /**
   * Every customer in the customers database (including any whose HTTP answer a fault cut off)
   * has exactly one delivery, SUCCEEDED, and the receiver verified it.
   */
  async function expectEveryCustomerDeliveredOnce(): Promise<void> {
    const state = async () => {
      const customers = (await customersDb.query<{ id: string }>('SELECT id FROM customer')).rows.map((row) => row.id);
      const deliveries = (
        await webhooksDb.query<{ id: string; resource_id: string; status: string }>(`SELECT id, resource_id, status FROM webhook_delivery WHERE type = 'CUSTOMER.KYC_PENDING'`)
      ).rows;
      const received = receiver.ids();
      const done = deliveries.length >= customers.length && deliveries.every((d) => d.status === 'SUCCEEDED' && received.has(d.id));
      return { customers, deliveries, received, done };
    };
    const settled = await eventually(
      async () => {
        const now = await state();
        return now.done ? now : undefined;
      },
      // Events a killed process had taken come back after the bus's ack wait (10 s), then wait
      // for a restarted app and a delivery lease: room for that on a loaded machine.
      45_000,
      200,
    ).catch(async (error: Error) => {
      // What is missing, to tell a lost event from a slow one.
      const { customers, deliveries, received } = await state();
      const byStatus = deliveries.reduce<Record<string, number>>((counts, d) => ({ ...counts, [d.status]: (counts[d.status] ?? 0) + 1 }), {});
      const unreceived = deliveries.filter((d) => !received.has(d.id)).length;
      throw new Error(`${error.message}: ${customers.length} customers, deliveries ${JSON.stringify(byStatus)}, ${unreceived} not received`);
    });
    expect(settled.deliveries.map((d) => d.resource_id).sort()).toEqual(settled.customers.sort());
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  }

  it('loses nothing when the webhooks process is killed (SIGKILL) mid-stream: its leases expire and are taken again', async () => {
    const producer = produceCustomers();
    await eventually(async () => (receiver.received.length >= 10 && receiver.inFlight > 0 ? true : undefined), 60_000, 5);
    const cutOff = receiver.inFlight;
    await apps.stop('webhooks', 'SIGKILL');
    // Customers created while the webhooks process is down, then while it starts again.
    const atKill = producer.created();
    await eventually(async () => (producer.created() >= atKill + 3 ? true : undefined), 60_000);
    apps.start('webhooks');
    const atStart = producer.created();
    await eventually(async () => (producer.created() >= atStart + 3 ? true : undefined), 60_000);
    expect(await producer.stop()).toBeGreaterThan(10);
    await expectEveryCustomerDeliveredOnce();
    // The attempts in flight at the kill were made again, same payload id, after their lease expired.
    expect(cutOff).toBeGreaterThan(0);
    const copies = new Map<string, number>();
    for (const { id } of receiver.received) copies.set(id, (copies.get(id) ?? 0) + 1);
    expect([...copies.values()].filter((count) => count > 1).length).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it("loses nothing when the webhooks service's database connections are killed mid-stream", async () => {
    const producer = produceCustomers();
    await eventually(async () => (receiver.inFlight > 0 ? true : undefined), 60_000, 5);
    const database = new URL(resources.env.WEBHOOKS_DATABASE_URL).pathname.slice(1);
    // This spec's own connection to that database stays.
    const { rows } = await webhooksDb.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const own = rows[0].pid;
    /** The service's connections now (client backends only: autovacuum workers come and go). */
    const serviceConnections = async () =>
      (await webhooksDb.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> $2 AND backend_type = 'client backend'`, [database, own])).rows.map(
        (row) => row.pid,
      );
    const killed = new Set<number>();
    for (let round = 0; round < 3; round += 1) {
      // Cut once the service has connected again: a terminated backend stays listed for a moment
      // after pg_terminate_backend returns, so only a connection not cut before counts.
      const cut = await eventually(async () => {
        const fresh = (await serviceConnections()).filter((pid) => !killed.has(pid));
        const { rows: terminated } = await webhooksDb.query<{ pid: number }>('SELECT pid FROM unnest($1::int[]) AS pid WHERE pg_terminate_backend(pid)', [fresh]);
        return terminated.length > 0 ? terminated : undefined;
      }, 60_000);
      for (const { pid } of cut) killed.add(pid);
    }
    // Customers keep coming after the last cut.
    const afterCuts = producer.created();
    await eventually(async () => (producer.created() >= afterCuts + 3 ? true : undefined), 60_000);
    expect(await producer.stop()).toBeGreaterThan(5);
    await expectEveryCustomerDeliveredOnce();
  }, 90_000);

  it.each([
    ['stopped (SIGTERM)', 'SIGTERM'],
    ['killed (SIGKILL)', 'SIGKILL'],
  ] as const)(
    'loses nothing when NATS is %s mid-stream and started again on the same port and store',
    async (_, signal) => {
      const producer = produceCustomers();
      await eventually(async () => (receiver.inFlight > 0 ? true : undefined), 60_000, 5);
      const refusedBefore = producer.refused();
      await nats.stop(signal);
      // NATS comes back once the outage has been felt: a client's request was refused (after the
      // gateway's RPC timeout at most).
      await eventually(async () => (producer.refused() > refusedBefore ? true : undefined), 30_000, 50);
      await nats.restart();
      const before = receiver.received.length;
      // The apps reconnect by themselves: customers are created and delivered again.
      await eventually(async () => (receiver.received.length > before + 5 ? true : undefined), 60_000, 50);
      expect(await producer.stop()).toBeGreaterThan(5);
      await expectEveryCustomerDeliveredOnce();
    },
    120_000,
  );
});
