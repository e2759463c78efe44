import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { DataSource } from 'typeorm';
import { DomainEvent, EVENT_SCHEMA_VERSION, uuidv7 } from '@paykit/contracts';
import { closePgliteHosts, DeadLetterEntity, deadLetterQueries, DeadLetterStore, serviceDataSourceOptions } from '@paykit/persistence';
import { RuntimeConfig } from '@paykit/runtime';
import { freshPgliteDataDir, NATS_TEST_URL, removeDataDir } from '@paykit/testing';
import { JetStreamEventBus } from '@paykit/transport';
import { eventually } from '../support/test-stack';

const MAX_ATTEMPTS = 3;

function widgetEvent(resourceId: string, version: number, platformId = 'Platform:1'): DomainEvent {
  return {
    eventId: uuidv7(),
    subject: 'poison-test.events.widget.changed',
    occurredAt: new Date().toISOString(),
    platformId,
    schemaVersion: EVENT_SCHEMA_VERSION,
    resourceId,
    data: { id: resourceId, version },
  };
}

/** A JetStream durable consumer with the dead-letter guard, against the real NATS server. */
describe('JetStream consumer with dead letters', () => {
  const config = {
    mode: 'embedded',
    sandboxTimeScale: 1,
    // Retries far enough apart that another resource's events visibly pass them on a loaded machine.
    deadLetters: { maxAttempts: MAX_ATTEMPTS, backoffMs: 250 },
  } as RuntimeConfig;
  const namespace = `poison${randomBytes(4).toString('hex')}`;
  const buses: JetStreamEventBus[] = [];
  let dataDir: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    dataDir = freshPgliteDataDir();
    dataSource = new DataSource(serviceDataSourceOptions({ ...config, embeddedDataDir: dataDir }, { service: 'cards', entities: [], migrations: [] }));
    await dataSource.initialize();
  });

  afterAll(async () => {
    for (const bus of buses) await bus.close();
    const nc = await connect({ servers: [NATS_TEST_URL] });
    await (await nc.jetstreamManager()).streams.delete(`${namespace.toUpperCase()}_EVENTS`).catch(() => undefined);
    await nc.close();
    await dataSource.destroy();
    await closePgliteHosts();
    removeDataDir(dataDir);
  });

  function newBus(): JetStreamEventBus {
    const bus = new JetStreamEventBus({ url: NATS_TEST_URL, namespace, connectionName: 'dead-letters-spec' });
    buses.push(bus);
    return bus;
  }

  it("parks a poison event after the bounded retries and acknowledges it; other resources and platforms flow meanwhile, its resource's later events after it; a replay runs it once", async () => {
    const deadLetters = new DeadLetterStore(dataSource, config);
    const bus = newBus();
    const label = (event: DomainEvent): string => `${event.resourceId}${(event.data as { version: number }).version}`;
    const poison = widgetEvent('P', 1);
    // Published before the consumer starts, so they arrive together.
    for (const event of [poison, widgetEvent('Q', 1, 'Platform:2'), widgetEvent('P', 2), widgetEvent('Q', 2, 'Platform:2')]) await bus.publish(event);
    const handled: string[] = [];
    const handler = async (event: DomainEvent): Promise<void> => {
      if (event.eventId === poison.eventId) {
        handled.push('P1 failed');
        throw new TypeError("Cannot read properties of undefined (reading 'descriptor')");
      }
      handled.push(label(event));
    };
    await bus.consume('poison', 'poison-test.events.>', deadLetters.guard('poison', handler), { concurrency: 4 });
    await eventually(async () => (handled.includes('P2') && handled.includes('Q2') ? true : undefined), 10_000);
    expect(handled.filter((entry) => entry.startsWith('P'))).toEqual([...Array(MAX_ATTEMPTS).fill('P1 failed'), 'P2']);
    expect(handled.filter((entry) => entry.startsWith('Q'))).toEqual(['Q1', 'Q2']);
    // Another resource does not wait for the poison's retries.
    expect(handled.indexOf('Q2')).toBeLessThan(handled.lastIndexOf('P1 failed'));
    const letter = await dataSource.getRepository(DeadLetterEntity).findOneByOrFail({ messageId: poison.eventId });
    expect(letter).toMatchObject({ source: 'event-consumer', consumer: 'poison', resourceKey: 'P', platformId: 'Platform:1', attempts: MAX_ATTEMPTS });

    // Acknowledged, not left for redelivery: a new consumer process on the durable sees only what is published next.
    await bus.close();
    buses.splice(buses.indexOf(bus), 1);
    const next = newBus();
    const after: string[] = [];
    await next.consume(
      'poison',
      'poison-test.events.>',
      deadLetters.guard('poison', async (event) => void after.push(label(event))),
    );
    await next.publish(widgetEvent('M', 1));
    await eventually(async () => (after.includes('M1') ? true : undefined), 10_000);
    expect(after).toEqual(['M1']);

    // The operator's replay hands it to the consumer once more.
    await deadLetterQueries.requestReplay(dataSource, letter.id);
    expect(await deadLetters.replayRequested()).toBe(1);
    expect(after).toEqual(['M1', 'P1']);
  }, 30_000);
});
