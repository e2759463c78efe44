import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { createDistributedResources, DistributedResources } from '@paykit/testing';
import { eventually } from '../support/test-stack';
import { AppProcesses, freePort, PrivateNats, probe, TcpProxy } from './process-stack';

/**
 * What an orchestrator relies on when it starts replicas: several processes of one service
 * starting together against an empty database migrate it exactly once (advisory lock), and each
 * process's readiness (`HEALTH_PORT`, `/readyz`) is false while its NATS or its database is
 * unreachable, true again once they are back, while liveness holds throughout.
 */

/** The readiness probe's answer once it turns 503. */
function unready(port: number) {
  return eventually(
    async () => {
      const answer = await probe(port);
      return answer?.status === 503 ? answer : undefined;
    },
    20_000,
    100,
  );
}
describe('Replicas starting together, and their probes (apps as processes)', () => {
  let nats: PrivateNats;
  let resources: DistributedResources;
  let apps: AppProcesses;
  let proxy: TcpProxy;
  let cardsDb: Client;

  beforeAll(async () => {
    nats = await PrivateNats.start();
    resources = await createDistributedResources();
    const databaseUrl = new URL(resources.env.CARDS_DATABASE_URL);
    // The cards processes reach their (empty) database through a proxy this spec can cut.
    proxy = await TcpProxy.start({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) });
    databaseUrl.hostname = '127.0.0.1';
    databaseUrl.port = String(proxy.port);
    apps = new AppProcesses({ ...resources.env, NATS_URL: nats.url, CARDS_DATABASE_URL: databaseUrl.toString(), LOG_LEVEL: 'info', SANDBOX_TIME_SCALE: '0.001' });
    cardsDb = new Client({ connectionString: resources.env.CARDS_DATABASE_URL });
    await cardsDb.connect();
  }, 60_000);

  afterAll(async () => {
    await cardsDb?.end();
    await apps?.stopAll();
    await proxy?.cut();
    await nats?.remove();
    await resources?.drop();
  });

  const ports: number[] = [];
  const names = ['cards-1', 'cards-2', 'cards-3'];

  it('migrates an empty database exactly once when three replicas start at the same moment', async () => {
    expect((await cardsDb.query(`SELECT to_regclass('migrations') AS t`)).rows[0].t).toBeNull();
    for (let i = 0; i < names.length; i += 1) ports.push(await freePort());
    // Spawned in one synchronous run: the three reach their database together.
    for (let i = 0; i < names.length; i += 1) apps.start('cards', { HEALTH_PORT: String(ports[i]) }, names[i]);
    await apps.untilReady(Object.fromEntries(names.map((name, i) => [name, ports[i]])), 90_000);

    const applied = (await cardsDb.query<{ name: string; runs: number }>('SELECT name, count(*)::int AS runs FROM migrations GROUP BY name ORDER BY name')).rows;
    expect(applied.map((row) => row.name)).toEqual(expect.arrayContaining(['CreatePlumbingTables1732233600000', 'CreateCards1732300600000']));
    expect(applied.every((row) => row.runs === 1)).toBe(true);
    // None of them saw a migration fail (a race shows up as "already exists" or a duplicate key).
    for (const name of names) expect(readFileSync(apps.logOf(name), 'utf8')).not.toMatch(/already exists|duplicate key|QueryFailedError|Migration .* failed/i);
  }, 120_000);

  it('is unready while NATS is down and ready again once it is back; liveness holds', async () => {
    const port = ports[0];
    expect((await probe(port))?.body).toEqual({ status: 'ready', checks: { nats: 'ok', database: 'ok' } });
    await nats.stop('SIGKILL');
    const down = await unready(port);
    expect(down.body.status).toBe('unavailable');
    expect(down.body.checks?.nats).not.toBe('ok');
    expect(down.body.checks?.database).toBe('ok');
    expect((await probe(port, '/livez'))?.status).toBe(200);

    await nats.restart();
    await eventually(async () => ((await probe(port))?.status === 200 ? true : undefined), 30_000, 100);
  }, 60_000);

  it('is unready while its database is unreachable and ready again once it is back; liveness holds', async () => {
    const port = ports[1];
    expect((await probe(port))?.status).toBe(200);
    await proxy.cut();
    const down = await unready(port);
    expect(down.body.checks?.database).not.toBe('ok');
    expect(down.body.checks?.nats).toBe('ok');
    expect((await probe(port, '/livez'))?.status).toBe(200);

    await proxy.restore();
    await eventually(async () => ((await probe(port))?.status === 200 ? true : undefined), 30_000, 100);
  }, 60_000);

  it('turns unready as soon as it is asked to stop, then exits cleanly', async () => {
    const port = ports[2];
    const child = apps.process('cards-3')!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    // Either the stopping answer is seen, or the process was already gone (it stops quickly when idle).
    const answer = await probe(port);
    if (answer) expect(answer.status).toBe(503);
    expect(await exited).toBe(0);
  }, 30_000);
});
