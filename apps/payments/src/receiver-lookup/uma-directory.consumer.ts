import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CUSTOMERS_EVENTS, PAYMENTS_UMA_DIRECTORY_CONSUMER } from '@paykit/contracts';
import { DeadLetterStore, Clock } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEventBatches, ReadEvent } from '@paykit/transport';
import { ReceiverLookupRepository } from './receiver-lookup.repository';

/**
 * Keeps the directory of this deployment's customers' UMA addresses from the customers' events
 * (durable, at least once; setting an address is idempotent; a batch is one statement), so a UMA
 * payment to one of them lands in their account instead of leaving the deployment.
 */
@Injectable()
export class UmaDirectoryConsumer implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly lookups: ReceiverLookupRepository,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consumeBatches(
      PAYMENTS_UMA_DIRECTORY_CONSUMER,
      'customers.events.>',
      this.clock.inPlatformTimeBatches(
        this.deadLetters.guardBatch(
          PAYMENTS_UMA_DIRECTORY_CONSUMER,
          handleEventBatches({
            [CUSTOMERS_EVENTS.customerCreated]: (events) => this.record(events),
            [CUSTOMERS_EVENTS.customerUpdated]: (events) => this.record(events),
          }),
        ),
      ),
    );
  }

  /** The events are of one platform (the clock hands each platform's events over apart). */
  private record(events: Array<ReadEvent<typeof CUSTOMERS_EVENTS.customerCreated | typeof CUSTOMERS_EVENTS.customerUpdated>>): Promise<void> {
    return this.lookups.setAddresses(
      events[0].platformId,
      events.map((event) => ({ customerId: event.data.id, umaAddress: event.data.umaAddress })),
    );
  }
}
