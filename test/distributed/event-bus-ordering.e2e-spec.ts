import { randomBytes } from 'node:crypto';
import { connect } from 'nats';
import { DomainEvent, EVENT_SCHEMA_VERSION, uuidv7 } from '@paykit/contracts';
import { NATS_TEST_URL } from '@paykit/testing';
import { JetStreamEventBus } from '@paykit/transport';
import { eventually } from '../support/test-stack';

function widgetEvent(resourceId: string, version: number): DomainEvent {
  return {
    eventId: uuidv7(),
    subject: 'bus-test.events.widget.changed',
    occurredAt: new Date().toISOString(),
    platformId: 'Platform:bus-test',
    schemaVersion: EVENT_SCHEMA_VERSION,
    resourceId,
    data: { id: resourceId, version },
  };
}

/** The JetStream bus against the real NATS server: what a consumer sees when its handler fails. */
describe(JetStreamEventBus.name, () => {
  const buses: JetStreamEventBus[] = [];
  const namespaces: string[] = [];

  afterAll(async () => {
    for (const bus of buses) await bus.close();
    const nc = await connect({ servers: [NATS_TEST_URL] });
    const jsm = await nc.jetstreamManager();
    for (const namespace of namespaces) await jsm.streams.delete(`${namespace.toUpperCase()}_EVENTS`).catch(() => undefined);
    await nc.close();
  });

  /** A bus on a stream of its own. */
  function newBus(): JetStreamEventBus {
    const namespace = `bus${randomBytes(4).toString('hex')}`;
    namespaces.push(namespace);
    const bus = new JetStreamEventBus({ url: NATS_TEST_URL, namespace, connectionName: 'event-bus-ordering-spec' });
    buses.push(bus);
    return bus;
  }

  describe('consume', () => {
    it.each([1, 8])(
      'with concurrency %i, retries a failed event before any later event of its resource, other resources flowing',
      async (concurrency) => {
        const bus = newBus();
        // Published before the consumer starts, so they arrive together. A1 fails once; A2 and A3
        // must wait for it. B's events are about another resource.
        for (const [resource, version] of [
          ['A', 1],
          ['B', 1],
          ['A', 2],
          ['B', 2],
          ['A', 3],
          ['B', 3],
        ] as const) {
          await bus.publish(widgetEvent(resource, version));
        }
        const handled: string[] = [];
        let failedOnce = false;
        const handler = async (event: DomainEvent): Promise<void> => {
          const label = `${event.resourceId}${(event.data as { version: number }).version}`;
          if (label === 'A1' && !failedOnce) {
            failedOnce = true;
            handled.push('A1 failed');
            throw new Error('database unavailable');
          }
          handled.push(label);
        };
        await bus.consume('ordering', 'bus-test.events.>', handler, { concurrency });
        await eventually(async () => (handled.length === 7 ? true : undefined), 10_000);
        expect(handled.filter((label) => label.startsWith('A'))).toEqual(['A1 failed', 'A1', 'A2', 'A3']);
        expect(handled.filter((label) => label.startsWith('B'))).toEqual(['B1', 'B2', 'B3']);
        // With room for both resources, B's events do not wait for A's retry.
        if (concurrency > 1) expect(handled.indexOf('B3')).toBeLessThan(handled.indexOf('A1'));
        // Each event acknowledged once: nothing comes back before a later marker event is handled.
        await bus.publish(widgetEvent('C', 1));
        await eventually(async () => (handled.includes('C1') ? true : undefined), 10_000);
        expect(handled).toHaveLength(8);
      },
      20_000,
    );

    it('gives back every message it holds when it closes, so the next consumer gets them first and in order', async () => {
      const stopping = newBus();
      const namespace = namespaces[namespaces.length - 1];
      // This consumer never manages to handle anything (its service is stopping).
      let attempts = 0;
      await stopping.consume(
        'handover',
        'bus-test.events.>',
        () => {
          attempts += 1;
          return Promise.reject(new Error('The service is stopping'));
        },
        { concurrency: 2 },
      );
      for (const [resource, version] of [
        ['A', 1],
        ['B', 1],
        ['A', 2],
        ['B', 2],
        ['A', 3],
      ] as const)
        await stopping.publish(widgetEvent(resource, version));
      // It holds messages (it has tried them) when it closes.
      await eventually(async () => (attempts >= 2 ? true : undefined), 5_000);
      await stopping.close();
      buses.splice(buses.indexOf(stopping), 1);

      const next = new JetStreamEventBus({ url: NATS_TEST_URL, namespace, connectionName: 'event-bus-ordering-spec' });
      buses.push(next);
      const handled: string[] = [];
      const started = Date.now();
      await next.consume('handover', 'bus-test.events.>', async (event) => {
        handled.push(`${event.resourceId}${(event.data as { version: number }).version}`);
      });
      await eventually(async () => (handled.length === 5 ? true : undefined), 9_000);
      expect(handled).toEqual(['A1', 'B1', 'A2', 'B2', 'A3']);
      // Within the ack wait (10 s): given back, not left to expire.
      expect(Date.now() - started).toBeLessThan(8_000);
    });

    it('narrows an existing durable consumer to a new subject filter, keeping its place', async () => {
      const before = newBus();
      const namespace = namespaces[namespaces.length - 1];
      const seen: string[] = [];
      await before.consume('narrowing', 'bus-test.events.>', async (event) => {
        seen.push(`${event.subject} ${event.resourceId}`);
      });
      await before.publish(widgetEvent('A', 1));
      await eventually(async () => (seen.length === 1 ? true : undefined), 5_000);
      await before.close();
      buses.splice(buses.indexOf(before), 1);

      // A new version of the service asks only for the widget's changes.
      const after = new JetStreamEventBus({ url: NATS_TEST_URL, namespace, connectionName: 'event-bus-ordering-spec' });
      buses.push(after);
      await after.publish({ ...widgetEvent('B', 1), subject: 'bus-test.events.gadget.changed' });
      await after.publish(widgetEvent('C', 1));
      await after.consume('narrowing', 'bus-test.events.widget.changed', async (event) => {
        seen.push(`${event.subject} ${event.resourceId}`);
      });
      // A marker published last: anything delivered again or unfiltered would come before it.
      await after.publish(widgetEvent('D', 1));
      await eventually(async () => (seen.length >= 3 && seen.includes('bus-test.events.widget.changed D') ? true : undefined), 5_000);
      // A was not delivered again, and the gadget event was not delivered at all.
      expect(seen).toEqual(['bus-test.events.widget.changed A', 'bus-test.events.widget.changed C', 'bus-test.events.widget.changed D']);
    });
  });

  describe('consumeBatches', () => {
    const label = (event: DomainEvent): string => `${event.resourceId}${(event.data as { version: number }).version}`;

    it('hands over the waiting events in stream order, at most maxBatch at a time, and acknowledges each batch once', async () => {
      const bus = newBus();
      // Published before the consumer starts, so they are waiting together.
      for (let version = 1; version <= 7; version += 1) await bus.publish(widgetEvent(version % 2 === 0 ? 'B' : 'A', version));
      const batches: string[][] = [];
      await bus.consumeBatches('batches', 'bus-test.events.>', async (events) => void batches.push(events.map(label)), { maxBatch: 3 });
      await eventually(async () => (batches.flat().length === 7 ? true : undefined), 10_000);
      expect(batches.flat()).toEqual(['A1', 'B2', 'A3', 'B4', 'A5', 'B6', 'A7']);
      expect(Math.max(...batches.map((batch) => batch.length))).toBeLessThanOrEqual(3);
      // Nothing comes back: a marker published last is the only event of the next batch.
      await bus.publish(widgetEvent('C', 1));
      await eventually(async () => (batches.flat().includes('C1') ? true : undefined), 10_000);
      expect(batches.flat()).toEqual(['A1', 'B2', 'A3', 'B4', 'A5', 'B6', 'A7', 'C1']);
    });

    it('retries a failed batch whole before any later event', async () => {
      const bus = newBus();
      for (const [resource, version] of [
        ['A', 1],
        ['B', 1],
        ['A', 2],
      ] as const)
        await bus.publish(widgetEvent(resource, version));
      const handled: string[] = [];
      let failedOnce = false;
      await bus.consumeBatches('batch-retry', 'bus-test.events.>', async (events) => {
        if (!failedOnce) {
          failedOnce = true;
          handled.push(`failed ${events.map(label).join(' ')}`);
          throw new Error('database unavailable');
        }
        handled.push(...events.map(label));
      });
      await bus.publish(widgetEvent('B', 2));
      await eventually(async () => (handled.includes('B2') ? true : undefined), 10_000);
      const failed = handled[0].replace('failed ', '').split(' ');
      // The failed batch comes again first, as it was, then what followed it.
      expect(handled.slice(1, 1 + failed.length)).toEqual(failed);
      expect(handled.slice(1)).toEqual(['A1', 'B1', 'A2', 'B2']);
    });
  });
});
