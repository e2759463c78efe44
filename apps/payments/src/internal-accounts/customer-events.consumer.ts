import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CUSTOMERS_EVENTS, PAYMENTS_CUSTOMERS_CONSUMER, tenantContext } from '@paykit/contracts';
import { Clock, DeadLetterStore } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEventBatches, ReadEvent } from '@paykit/transport';
import { CustomersClient } from '../counterparties/customers.client';
import { InternalAccountsService } from './internal-accounts.service';

type CustomerEvent = ReadEvent<typeof CUSTOMERS_EVENTS.customerCreated | typeof CUSTOMERS_EVENTS.customerUpdated>;

/**
 * Durable subscription to the customers' events: created customers get their internal accounts,
 * a batch of them at once (one ask for the platform's settings, one statement for the accounts,
 * one for their events). Delivery is at least once, and provisioning is idempotent, so a
 * redelivery changes nothing; a failure (e.g. customers unreachable) is retried by the bus.
 */
@Injectable()
export class CustomerEventsConsumer implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly customers: CustomersClient,
    private readonly accounts: InternalAccountsService,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consumeBatches(
      PAYMENTS_CUSTOMERS_CONSUMER,
      'customers.events.>',
      this.clock.inPlatformTimeBatches(
        this.deadLetters.guardBatch(
          PAYMENTS_CUSTOMERS_CONSUMER,
          handleEventBatches({
            [CUSTOMERS_EVENTS.customerCreated]: (events) => this.provision(events),
            // An update may bring the first email (the embedded wallet appears) or change it (the wallet follows).
            [CUSTOMERS_EVENTS.customerUpdated]: async (events) => {
              await this.provision(events);
              for (const event of events) {
                if (event.data.email) await this.accounts.updateWalletEmail(event.platformId, event.data.id, event.data.email);
              }
            },
          }),
        ),
      ),
    );
  }

  /** The events are of one platform (the clock hands each platform's events over apart). */
  private async provision(events: CustomerEvent[]): Promise<void> {
    const { platformId, eventId } = events[0];
    const settings = await this.customers.accountSettings(tenantContext(platformId, `event:${eventId}`));
    await this.accounts.provision(
      platformId,
      events.map((event) => ({ customerId: event.data.id, email: event.data.email })),
      settings,
    );
  }
}
