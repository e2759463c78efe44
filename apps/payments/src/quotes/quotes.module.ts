import { Module } from '@nestjs/common';
import { PaymentsConfigModule } from '../config/payments-config';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { ExchangeRatesModule } from '../exchange-rates/exchange-rates.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ReceiverLookupModule } from '../receiver-lookup/receiver-lookup.module';
import { TransfersModule } from '../transfers/transfers.module';
import { QuoteAuthorization } from './quote-authorization';
import { QuoteLedger } from './quote-ledger';
import { QuotesHandlers } from './quotes.handlers';
import { QuotesRepository } from './quotes.repository';
import { QuotesService } from './quotes.service';

@Module({
  imports: [PaymentsConfigModule, CurrenciesModule, CounterpartiesModule, ExchangeRatesModule, InternalAccountsModule, LedgerModule, TransfersModule, ReceiverLookupModule],
  controllers: [QuotesHandlers],
  providers: [QuotesService, QuotesRepository, QuoteLedger, QuoteAuthorization],
  exports: [QuotesService, QuotesRepository],
})
export class QuotesModule {}
