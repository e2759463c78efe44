import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, Customer, CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';

/** What payments asks the customers service: who the customer is, whether it may move money, which currencies a platform supports. */
@Injectable()
export class CustomersClient {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** A customer may move money once its KYC (individual) or KYB (business) is APPROVED. */
  async assertReady(ctx: CallerContext, customerId: string): Promise<Customer> {
    const customer = await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, ctx);
    const status = customer.customerType === 'BUSINESS' ? customer.kybStatus : customer.kycStatus;
    if (status !== 'APPROVED') {
      throw new ServiceError('USER_NOT_READY', `Customer ${customerId} cannot move money until its ${customer.customerType === 'BUSINESS' ? 'KYB' : 'KYC'} is APPROVED`, {
        customerId,
        status: status ?? null,
      });
    }
    return customer;
  }

  async supportedCurrencies(ctx: CallerContext): Promise<string[]> {
    const config = await this.services.request(CUSTOMERS_SUBJECTS.getConfig, {}, ctx);
    return config.supportedCurrencies.map((currency) => currency.currencyCode);
  }
}
