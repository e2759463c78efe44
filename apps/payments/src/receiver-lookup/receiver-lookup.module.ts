import { Module } from '@nestjs/common';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { ExchangeRatesModule } from '../exchange-rates/exchange-rates.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { UMA_RECEIVER_RESOLVER } from '../quotes/use-cases/quote-parties';
import { ReceiverLookupHandlers } from './receiver-lookup.handlers';
import { ReceiverLookupRepository } from './receiver-lookup.repository';
import { ReceiverLookupService } from './receiver-lookup.service';
import { UmaDirectoryConsumer } from './uma-directory.consumer';

@Module({
  imports: [CounterpartiesModule, CurrenciesModule, ExchangeRatesModule, InternalAccountsModule],
  controllers: [ReceiverLookupHandlers],
  providers: [ReceiverLookupService, ReceiverLookupRepository, UmaDirectoryConsumer, { provide: UMA_RECEIVER_RESOLVER, useExisting: ReceiverLookupService }],
  exports: [ReceiverLookupService, ReceiverLookupRepository, UMA_RECEIVER_RESOLVER],
})
export class ReceiverLookupModule {}
