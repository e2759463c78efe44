import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CallerContext, Customer, CUSTOMERS_EVENTS, DomainEvent, PAYMENTS_CUSTOMERS_CONSUMER } from '@paykit/contracts';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { EVENT_BUS, EventBus } from '@paykit/transport';
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
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
    private readonly customers: CustomersClient,
    private readonly accounts: InternalAccountsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(PAYMENTS_CUSTOMERS_CONSUMER, 'customers.events.>', (event) => this.receive(event));
  }

  async receive(event: DomainEvent): Promise<void> {
    if (event.subject !== CUSTOMERS_EVENTS.customerCreated && event.subject !== CUSTOMERS_EVENTS.customerUpdated) return;
    const customer = event.data as Customer;
    const ctx: CallerContext = { platformId: event.platformId, environment: this.config.deployment, requestId: `event:${event.eventId}` };
    const settings = await this.customers.accountSettings(ctx);
    // An update may bring the first email (the embedded wallet appears) or change it (the wallet follows).
    await this.accounts.provision({ platformId: event.platformId, customerId: customer.id, email: customer.email }, settings);
    if (event.subject === CUSTOMERS_EVENTS.customerUpdated && customer.email) {
      await this.accounts.updateWalletEmail(event.platformId, customer.id, customer.email);
    }
  }
}
