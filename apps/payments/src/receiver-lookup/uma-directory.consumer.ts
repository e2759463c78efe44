import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CUSTOMERS_EVENTS, PAYMENTS_UMA_DIRECTORY_CONSUMER } from '@paykit/contracts';
import { DeadLetterStore, Clock } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEvents } from '@paykit/transport';
import { ReceiverLookupRepository } from './receiver-lookup.repository';

/**
 * Keeps the directory of this deployment's customers' UMA addresses from the customers' events
 * (durable, at least once; setting an address is idempotent), so a UMA payment to one of them
 * lands in their account instead of leaving the deployment.
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
    await this.bus.consume(
      PAYMENTS_UMA_DIRECTORY_CONSUMER,
      'customers.events.>',
      this.clock.inPlatformTime(
        this.deadLetters.guard(
          PAYMENTS_UMA_DIRECTORY_CONSUMER,
          handleEvents({
            [CUSTOMERS_EVENTS.customerCreated]: (event) => this.lookups.setAddress(event.platformId, event.data.id, event.data.umaAddress),
            [CUSTOMERS_EVENTS.customerUpdated]: (event) => this.lookups.setAddress(event.platformId, event.data.id, event.data.umaAddress),
          }),
        ),
      ),
    );
  }
}
