import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, Customer, CUSTOMERS_SUBJECTS, EXTERNAL_ACCOUNTS_SUBJECTS, isScaRegulated } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';

/** The customer an SCA call is about: only SCA-regulated customers (an address in the EEA, `isScaRegulated`) have SCA; anyone else answers 409. */
@Injectable()
export class ScaCustomers {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** The customer, if SCA-regulated; 404 when unknown (the customers service's), 409 when not subject to SCA. */
  async regulated(ctx: CallerContext, customerId: string): Promise<Customer> {
    const customer = await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, ctx);
    if (!isScaRegulated(customer.address)) {
      throw new ServiceError('CONFLICT', `SCA is not required for customer ${customerId} (it has no address in the EEA)`, { reason: 'SCA_NOT_REQUIRED' });
    }
    return customer;
  }

  async beneficiaryOwner(ctx: CallerContext, externalAccountId: string): Promise<Customer> {
    const account = await this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.getAccount, { externalAccountId }, ctx);
    if (!account.customerId) throw new ServiceError('CONFLICT', `External account ${externalAccountId} is the platform's: SCA is not required`, { reason: 'SCA_NOT_REQUIRED' });
    return this.regulated(ctx, account.customerId);
  }
}
