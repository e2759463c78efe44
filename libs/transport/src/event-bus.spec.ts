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
});
