import { Module } from '@nestjs/common';
import { CustomersClient } from './customers.client';
import { ExternalAccountsClient } from './external-accounts.client';

/** The other services payments asks about the customers and external accounts money moves for. */
@Module({
  providers: [CustomersClient, ExternalAccountsClient],
  exports: [CustomersClient, ExternalAccountsClient],
})
export class CounterpartiesModule {}
