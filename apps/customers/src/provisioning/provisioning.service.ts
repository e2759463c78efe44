import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import {
  CallerContext,
  CUSTOMERS_ACCOUNTS_PROVISIONED_CONSUMER,
  CUSTOMERS_WALLETS_PROVISIONED_CONSUMER,
  CustomerProvisioning,
  PAYMENTS_EVENTS,
  ProvisioningPartStatus,
  WALLET_AUTH_EVENTS,
} from '@paykit/contracts';
import { Clock, DeadLetterStore } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEventBatches } from '@paykit/transport';
import { CustomersService } from '../customers/customers.service';
import { ProvisioningRepository, ProvisioningRow } from './provisioning.repository';

/**
 * "Ready means ready": a new customer's internal accounts (payments) and embedded wallet with its
 * EMAIL_OTP credential (wallet-auth) are made after the customer is created, from its event. This
 * service follows their own events (one per customer each) so a platform can ask whether they
 * exist before funding an account or issuing a card. Delivery is at least once and the two
 * streams are not ordered with each other: each event is an idempotent, order-free upsert, and a
 * batch of them one statement.
 */
@Injectable()
export class ProvisioningService implements OnApplicationBootstrap {
  constructor(
    private readonly provisioning: ProvisioningRepository,
    private readonly customers: CustomersService,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Each platform's events of a batch arrive apart (the clock's split), so each handler call is one platform's.
    await this.bus.consumeBatches(
      CUSTOMERS_ACCOUNTS_PROVISIONED_CONSUMER,
      PAYMENTS_EVENTS.customerAccountsProvisioned,
      this.clock.inPlatformTimeBatches(
        this.deadLetters.guardBatch(
          CUSTOMERS_ACCOUNTS_PROVISIONED_CONSUMER,
          handleEventBatches({
            [PAYMENTS_EVENTS.customerAccountsProvisioned]: (events) =>
              this.provisioning.recordAccounts(
                events[0].platformId,
                events.map((event) => ({ customerId: event.data.customerId, walletExpected: event.data.walletAccountId !== undefined })),
              ),
          }),
        ),
      ),
    );
    await this.bus.consumeBatches(
      CUSTOMERS_WALLETS_PROVISIONED_CONSUMER,
      WALLET_AUTH_EVENTS.walletProvisioned,
      this.clock.inPlatformTimeBatches(
        this.deadLetters.guardBatch(
          CUSTOMERS_WALLETS_PROVISIONED_CONSUMER,
          handleEventBatches({
            [WALLET_AUTH_EVENTS.walletProvisioned]: (events) =>
              this.provisioning.recordWallets(
                events[0].platformId,
                events.map((event) => event.data.customerId),
              ),
          }),
        ),
      ),
    );
  }

  /** GET /customers/{id}/provisioning; 404 USER_NOT_FOUND as for GET /customers/{id}. */
  async get(ctx: CallerContext, customerId: string): Promise<CustomerProvisioning> {
    const customer = await this.customers.require(ctx, customerId);
    return toProvisioning(customer.id, await this.provisioning.find(ctx.platformId, customer.id));
  }
}

export function toProvisioning(customerId: string, row: ProvisioningRow | null): CustomerProvisioning {
  const accountsReadyAt = row?.accountsReadyAt ?? null;
  const walletReadyAt = row?.walletReadyAt ?? null;
  // Whether a wallet is owed is known from the accounts' event; until then it is pending.
  const walletOwed = accountsReadyAt === null || row?.walletExpected === true;
  const embeddedWallet: ProvisioningPartStatus = walletReadyAt ? 'READY' : walletOwed ? 'PENDING' : 'NOT_REQUIRED';
  const ready = accountsReadyAt !== null && embeddedWallet !== 'PENDING';
  const readyAt = ready ? new Date(Math.max(accountsReadyAt.getTime(), row?.walletExpected && walletReadyAt ? walletReadyAt.getTime() : 0)) : null;
  return {
    customerId,
    status: ready ? 'READY' : 'PENDING',
    internalAccounts: accountsReadyAt ? 'READY' : 'PENDING',
    embeddedWallet,
    ...(readyAt ? { readyAt: readyAt.toISOString() } : {}),
  };
}
