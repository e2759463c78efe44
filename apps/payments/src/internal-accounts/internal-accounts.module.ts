import { Module } from '@nestjs/common';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { CustomerEventsConsumer } from './customer-events.consumer';
import { InternalAccountsHandlers } from './internal-accounts.handlers';
import { InternalAccountsRepository } from './internal-accounts.repository';
import { InternalAccountsService } from './internal-accounts.service';

@Module({
  imports: [CurrenciesModule, CounterpartiesModule],
  controllers: [InternalAccountsHandlers],
  providers: [InternalAccountsService, InternalAccountsRepository, CustomerEventsConsumer],
  exports: [InternalAccountsService, InternalAccountsRepository],
})
export class InternalAccountsModule {}
