import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { DomainEvent, EVENT_SCHEMA_VERSION, uuidv7 } from '@paykit/contracts';
import { JetStreamEventBus } from '@paykit/transport';
import { freePort } from '../processes/process-stack';
import { eventually } from '../support/test-stack';

/**
 * Replicated events (NATS_STREAM_REPLICAS=3): a cluster of three NATS servers, started here on
 * loopback ports, one killed (the stream's leader, SIGKILL) while events are being published and
 * consumed. Every event published must reach the consumer, none is stored twice. The publisher
 * retries a failed publish with the same event, as the outbox relay does (msgID = eventId).
 */
const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
const EVENTS = 1200;
const KILL_AFTER = 400;
const IN_FLIGHT = 40;

interface ClusterMember {
  name: string;
  port: number;
  process: ChildProcess;
}

function event(index: number): DomainEvent {
  const resourceId = `widget-${index % 50}`;
  return {
    eventId: uuidv7(),
    subject: 'cluster-test.events.widget.changed',
    occurredAt: new Date().toISOString(),
    platformId: 'Platform:cluster-test',
    schemaVersion: EVENT_SCHEMA_VERSION,
    resourceId,
    data: { id: resourceId, index },
  };
}

(existsSync(NATS_SERVER) ? describe : describe.skip)('JetStream on a cluster of three NATS servers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-nats-cluster-'));
  const members: ClusterMember[] = [];
  const buses: JetStreamEventBus[] = [];
  const stream = { replicas: 3, consumerReplicas: 3, storage: 'file' as const, retention: 'limits' as const, maxAgeSeconds: 3600 };

  beforeAll(async () => {
    const clientPorts = [await freePort(), await freePort(), await freePort()];
    const routePorts = [await freePort(), await freePort(), await freePort()];
    const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`).join(',');
    for (const [index, port] of clientPorts.entries()) {
      const name = `n${index + 1}`;
      const child = spawn(
        NATS_SERVER,
        [
          '-a',
          '127.0.0.1',
          '-p',
          String(port),
          '-n',
          name,
          '-js',
          '-sd',
          join(dir, name),
          '--cluster_name',
          'paykit-spec',
          '--cluster',
          `nats://127.0.0.1:${routePorts[index]}`,
          '--routes',
          routes,
        ],
        { stdio: 'ignore' },
      );
      members.push({ name, port, process: child });
    }
  });

  afterAll(async () => {
    for (const bus of buses) await bus.close().catch(() => undefined);
    for (const member of members) member.process.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no event when the stream leader is killed mid-load', async () => {
    const url = members.map((member) => `nats://127.0.0.1:${member.port}`).join(',');
    const newBus = (): JetStreamEventBus => {
      const bus = new JetStreamEventBus({ url, namespace: 'clusterspec', connectionName: 'nats-cluster-spec', stream });
      buses.push(bus);
      return bus;
    };
    const publisher = newBus();
    // The cluster elects its JetStream leader a few seconds after start: the first publish (which creates the stream) waits for it.
    await eventually(
      () =>
        publisher.publish(event(-1)).then(
          () => true,
          () => undefined,
        ),
      30_000,
    );

    const received = new Set<string>();
    const consumer = newBus();
    await consumer.consume('cluster-spec', 'cluster-test.events.>', async (delivered) => void received.add(delivered.eventId), { concurrency: 8 });

    const nc = await connect({ servers: url.split(','), name: 'nats-cluster-spec-admin' });
    const jsm = await nc.jetstreamManager();
    const info = await jsm.streams.info('CLUSTERSPEC_EVENTS');
    expect(info.config.num_replicas).toBe(3);
    expect(info.cluster?.replicas ?? []).toHaveLength(2);
    const leader = members.find((member) => member.name === info.cluster?.leader)!;
    expect(leader).toBeDefined();

    // Published as the relay does: each event retried with itself until the stream has it.
    const events = Array.from({ length: EVENTS }, (_, index) => event(index));
    let next = 0;
    let published = 0;
    let retries = 0;
    const publishNext = async (): Promise<void> => {
      for (let index = next++; index < events.length; index = next++) {
        while (
          !(await publisher.publish(events[index]).then(
            () => true,
            () => false,
          ))
        ) {
          retries += 1;
          // Retried once the stream answers again (a leader elected among the servers left), not after a fixed pause.
          await eventually(() => jsm.streams.info('CLUSTERSPEC_EVENTS').then((state) => (state.cluster?.leader ? true : undefined)), 30_000);
        }
        published += 1;
        if (published === KILL_AFTER) leader.process.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, publishNext));
    expect(leader.process.killed).toBe(true);

    const expected = new Set(events.map((one) => one.eventId));
    await eventually(async () => ([...expected].every((id) => received.has(id)) ? true : undefined), 60_000);
    // Stored once each (the repeats of retried publishes were dropped by their message id), the
    // first event included; the consumer's position survived the leader change (nothing missed).
    const after = await eventually(() => jsm.streams.info('CLUSTERSPEC_EVENTS').then((state) => (state.cluster?.leader !== leader.name ? state : undefined)), 30_000);
    expect(after.state.messages).toBe(EVENTS + 1);
    process.stdout.write(`nats-cluster: ${EVENTS} events, leader ${leader.name} killed after ${KILL_AFTER}, ${retries} publishes retried, ${received.size} received\n`);
    await nc.close();
  });
});
