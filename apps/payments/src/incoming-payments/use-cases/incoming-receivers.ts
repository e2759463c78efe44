import { Injectable } from '@nestjs/common';
import { CallerContext, SandboxUmaReceiveRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { CustomersClient } from '../../counterparties/customers.client';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { InternalAccountWithBalance } from '../../internal-accounts/entities/internal-account.entity';
import { accountNotActive } from '../../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { ReceiverLookupRepository } from '../../receiver-lookup/receiver-lookup.repository';
import { parseUmaAddress } from '../../receiver-lookup/uma-address';

/** Who a received payment is for: the customer, its account in the receiving currency, and the platform's id of the customer. */
export interface IncomingReceiver {
  customerId: string;
  account: InternalAccountWithBalance;
  platformCustomerId: string;
}

/** Resolves the receiver of a payment into the platform (by UMA address or customer id), every check before its transaction. */
@Injectable()
export class IncomingReceivers {
  constructor(
    private readonly directory: ReceiverLookupRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly currencies: CurrencyCatalog,
    private readonly customers: CustomersClient,
  ) {}

  async resolve(ctx: CallerContext, request: SandboxUmaReceiveRequest): Promise<IncomingReceiver> {
    const customerId = await this.customerOf(ctx, request);
    if (!(await this.currencies.find(request.receivingCurrencyCode))) {
      throw new ServiceError('INVALID_CURRENCY', `Unknown currency ${request.receivingCurrencyCode}`, { field: 'receivingCurrencyCode' });
    }
    const [account] = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId, currency: request.receivingCurrencyCode, type: 'INTERNAL_FIAT', limit: 1 });
    if (!account)
      throw new ServiceError('INVALID_CURRENCY', `Customer ${customerId} has no ${request.receivingCurrencyCode} account to receive in`, { field: 'receivingCurrencyCode' });
    if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
    // Asked before the transaction (never another service inside one): the platform's id of the customer.
    const platformCustomerId = await this.customers.platformCustomerIdOf(ctx, customerId);
    return { customerId, account, platformCustomerId };
  }

  private async customerOf(ctx: CallerContext, request: SandboxUmaReceiveRequest): Promise<string> {
    if (request.receiverUmaAddress === undefined && request.customerId === undefined) {
      throw ServiceError.invalidInput([{ field: 'receiverUmaAddress', message: 'give receiverUmaAddress or customerId' }]);
    }
    if (request.receiverUmaAddress !== undefined) {
      const address = parseUmaAddress(request.receiverUmaAddress, 'receiverUmaAddress');
      const entry = await this.directory.findByAddress(ctx.platformId, address);
      if (!entry || entry.platformId !== ctx.platformId) throw new ServiceError('UMA_NOT_FOUND', `No customer of the platform at ${address}`, { field: 'receiverUmaAddress' });
      if (request.customerId !== undefined && request.customerId !== entry.customerId) {
        throw ServiceError.invalidInput([{ field: 'customerId', message: 'customerId is not the customer at receiverUmaAddress' }]);
      }
      return entry.customerId;
    }
    const [anyAccount] = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId: request.customerId, limit: 1 });
    if (!anyAccount) throw new ServiceError('USER_NOT_FOUND', `Customer ${request.customerId} not found`, { field: 'customerId' });
    return request.customerId!;
  }
}
