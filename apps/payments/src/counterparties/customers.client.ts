import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CustomerInfoFieldName, CustomerRequirements, CUSTOMERS_SUBJECTS, FeeConfig } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';

/** What the platform's configuration (owned by customers) says about the internal accounts to provision. */
export interface PlatformAccountSettings {
  currencyCodes: string[];
  embeddedWalletsEnabled: boolean;
}

/** What payments asks the customers service: who the customer is, whether it may move money, which accounts a platform's customers get. */
@Injectable()
export class CustomersClient {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /**
   * A customer may move money in a currency once it has every field the currency's provider
   * requires (else the customers service answers 400 MISSING_MANDATORY_USER_INFO) and its KYC
   * (individual) or KYB (business) is APPROVED (else 403 USER_NOT_READY). `payerDataFields` (what a
   * receiver asked for) must be on the customer too (else 400 MISSING_MANDATORY_USER_INFO). The
   * answer carries the platform's fee configs.
   */
  async assertReady(ctx: CallerContext, customerId: string, currencyCode: string, payerDataFields: CustomerInfoFieldName[] = []): Promise<CustomerRequirements> {
    const customer = await this.services.request(
      CUSTOMERS_SUBJECTS.checkRequirements,
      { customerId, currencyCode, ...(payerDataFields.length > 0 ? { payerDataFields } : {}) },
      ctx,
    );
    const status = customer.customerType === 'BUSINESS' ? customer.kybStatus : customer.kycStatus;
    if (status !== 'APPROVED') {
      throw new ServiceError('USER_NOT_READY', `Customer ${customerId} cannot move money until its ${customer.customerType === 'BUSINESS' ? 'KYB' : 'KYC'} is APPROVED`, {
        customerId,
        status: status ?? null,
      });
    }
    return customer;
  }

  /**
   * The platform's own id of a customer (`platformCustomerId`), stored on the customer's
   * transactions so the `platformCustomerId` filter of `GET /transactions` finds them. A customer
   * service that does not tell it (it always does today) leaves the customer id standing in, as
   * for transfers.
   */
  async platformCustomerIdOf(ctx: CallerContext, customerId: string): Promise<string> {
    const customer = await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, ctx);
    return customer.platformCustomerId || customerId;
  }

  /** The platform's active fee configs (for prices without a customer to check). */
  async feeConfigs(ctx: CallerContext): Promise<FeeConfig[]> {
    return (await this.services.request(CUSTOMERS_SUBJECTS.getConfig, {}, ctx)).feeConfigs;
  }

  async accountSettings(ctx: CallerContext): Promise<PlatformAccountSettings> {
    const config = await this.services.request(CUSTOMERS_SUBJECTS.getConfig, {}, ctx);
    return { currencyCodes: config.supportedCurrencies.map((currency) => currency.currencyCode), embeddedWalletsEnabled: config.embeddedWalletsEnabled };
  }
}
