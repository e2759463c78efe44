import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CallerContext, CUSTOMERS_EVENTS, PAYMENTS_CUSTOMERS_CONSUMER, tenantContext } from '@paykit/contracts';
import { Clock, DeadLetterStore } from '@paykit/persistence';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { EVENT_BUS, EventBus, handleEvents, ReadEvent } from '@paykit/transport';
import { CustomersClient } from '../counterparties/customers.client';
import { InternalAccountsService } from './internal-accounts.service';

/**
 * Durable subscription to the customers' events: a created customer gets its internal
 * accounts. Delivery is at least once, and provisioning is idempotent, so a redelivery
 * changes nothing; a failure (e.g. customers unreachable) is retried by the bus.
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
    await this.bus.consume(
      PAYMENTS_CUSTOMERS_CONSUMER,
      'customers.events.>',
      this.clock.inPlatformTime(
        this.deadLetters.guard(
          PAYMENTS_CUSTOMERS_CONSUMER,
          handleEvents({
            [CUSTOMERS_EVENTS.customerCreated]: (event) => this.provision(event),
            // An update may bring the first email (the embedded wallet appears) or change it (the wallet follows).
            [CUSTOMERS_EVENTS.customerUpdated]: async (event) => {
              await this.provision(event);
              if (event.data.email) await this.accounts.updateWalletEmail(event.platformId, event.data.id, event.data.email);
            },
          }),
        ),
      ),
    );
  }

  private async provision(event: ReadEvent<typeof CUSTOMERS_EVENTS.customerCreated | typeof CUSTOMERS_EVENTS.customerUpdated>): Promise<void> {
    const ctx = tenantContext(event.platformId, `event:${event.eventId}`);
    const settings = await this.customers.accountSettings(ctx);
    await this.accounts.provision({ platformId: event.platformId, customerId: event.data.id, email: event.data.email }, settings);
  }
}
