import { DomainEvent } from '@paykit/contracts';
import { InProcessEventBus } from './event-bus';
import { InProcessBroker } from './in-process-broker';

function widgetEvent(resourceId: string, version: number): DomainEvent {
  return {
    eventId: `${resourceId}-${version}`,
    subject: 'bus-test.events.widget.changed',
    occurredAt: new Date().toISOString(),
    platformId: 'Platform:bus-test',
    schemaVersion: 1,
    resourceId,
    data: { version },
  };
}

describe(InProcessEventBus.name, () => {
  describe('publish', () => {
    it("fails the publishes queued behind a failed one, so a resource's later events never overtake it", async () => {
      const bus = new InProcessEventBus(new InProcessBroker());
      const handled: string[] = [];
      let failedOnce = false;
      await bus.consume('ordering', 'bus-test.events.>', async (event) => {
        if (event.eventId === 'A-1' && !failedOnce) {
          failedOnce = true;
          throw new Error('database unavailable');
        }
        handled.push(event.eventId);
      });
      const events = [widgetEvent('A', 1), widgetEvent('B', 1), widgetEvent('A', 2)];
      // As the outbox relay does: a batch at once, then again from the first failure.
      const first = await Promise.allSettled(events.map((event) => bus.publish(event)));
      expect(first.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(handled).toEqual([]);
      await Promise.all(events.map((event) => bus.publish(event)));
      expect(handled).toEqual(['A-1', 'B-1', 'A-2']);
    });
  });

  describe('consumeBatches', () => {
    it('hands a batch consumer the events published together as one batch (at most maxBatch), next to the one-at-a-time consumers', async () => {
      const bus = new InProcessEventBus(new InProcessBroker());
      const batches: string[][] = [];
      const oneByOne: string[] = [];
      await bus.consumeBatches('batches', 'bus-test.events.>', async (events) => void batches.push(events.map((event) => event.eventId)), { maxBatch: 2 });
      await bus.consume('singles', 'bus-test.events.>', async (event) => void oneByOne.push(event.eventId));
      const events = [widgetEvent('A', 1), widgetEvent('B', 1), widgetEvent('A', 2)];
      await Promise.all(events.map((event) => bus.publish(event)));
      expect(batches).toEqual([['A-1', 'B-1'], ['A-2']]);
      expect(oneByOne).toEqual(['A-1', 'B-1', 'A-2']);
    });

    it("fails the publishes from a failed batch's first event on; the relay's retry delivers them again, in order", async () => {
      const bus = new InProcessEventBus(new InProcessBroker());
      const batches: string[][] = [];
      let failedOnce = false;
      await bus.consumeBatches(
        'batches',
        'bus-test.events.>',
        async (events) => {
          if (events.some((event) => event.eventId === 'A-2') && !failedOnce) {
            failedOnce = true;
            throw new Error('database unavailable');
          }
          batches.push(events.map((event) => event.eventId));
        },
        { maxBatch: 2 },
      );
      const events = [widgetEvent('A', 1), widgetEvent('B', 1), widgetEvent('A', 2), widgetEvent('B', 2)];
      const first = await Promise.allSettled(events.map((event) => bus.publish(event)));
      expect(first.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
      await Promise.all(events.slice(2).map((event) => bus.publish(event)));
      expect(batches).toEqual([
        ['A-1', 'B-1'],
        ['A-2', 'B-2'],
      ]);
    });
  });
});
