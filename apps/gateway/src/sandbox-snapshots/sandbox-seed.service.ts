import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CUSTOMERS_SUBJECTS, PAYMENTS_SUBJECTS, SeededCustomer, SeedSandboxRequest, SeedSandboxResult } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { SandboxSnapshotsService } from './sandbox-snapshots.service';
import { Clock } from '@paykit/persistence';

/** How long a seeded customer's internal account may take to be provisioned (payments opens it on the customer's event). */
const PROVISIONING_WAIT_MS = 15_000;
const PROVISIONING_POLL_MS = 50;

/**
 * Seeds a platform's sandbox from a file or a request: customers created as `POST /customers`
 * creates them, their internal accounts funded as `POST /sandbox/internal-accounts/{id}/fund`
 * funds them, in order, optionally after a reset. The same service calls a client would make,
 * so a seeded platform is one any client could have built.
 */
@Injectable()
export class SandboxSeedService {
  constructor(
    private readonly snapshots: SandboxSnapshotsService,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  async seed(caller: CallerContext, request: SeedSandboxRequest): Promise<SeedSandboxResult> {
    if (request.reset) await this.snapshots.reset(caller);
    const customers: SeededCustomer[] = [];
    for (const seed of request.customers) {
      const customer = await this.services.request(CUSTOMERS_SUBJECTS.createCustomer, seed.customer, caller);
      const accounts: SeededCustomer['accounts'] = [];
      for (const balance of seed.balances ?? []) {
        const accountId = await this.accountOf(caller, customer.id, balance.currency);
        await this.services.request(PAYMENTS_SUBJECTS.fundInternalAccount, { accountId, amount: balance.amount }, caller);
        accounts.push({ currency: balance.currency, accountId, amount: balance.amount });
      }
      customers.push({ id: customer.id, accounts });
    }
    return { customers };
  }

  /** The customer's internal account of `currency`, once provisioned (bounded wait: it opens on the customer's event). */
  private async accountOf(caller: CallerContext, customerId: string, currency: string): Promise<string> {
    const deadline = Clock.real().getTime() + PROVISIONING_WAIT_MS;
    for (;;) {
      const page = await this.services.request(PAYMENTS_SUBJECTS.listInternalAccounts, { owner: 'CUSTOMER', customerId, currency, limit: 1 }, caller);
      if (page.data[0]) return page.data[0].id;
      if (Clock.real().getTime() > deadline) {
        throw ServiceError.invalidField('customers.balances.currency', `Customer ${customerId} has no ${currency} internal account (is ${currency} among its currencies?)`);
      }
      await new Promise((resolve) => setTimeout(resolve, PROVISIONING_POLL_MS));
    }
  }
}
