import { Module } from '@nestjs/common';
import { PaymentsConfigModule } from '../config/payments-config';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { ExchangeRatesHandlers } from './exchange-rates.handlers';
import { ExchangeRatesService } from './exchange-rates.service';

@Module({
  imports: [CurrenciesModule, PaymentsConfigModule, CounterpartiesModule],
  controllers: [ExchangeRatesHandlers],
  providers: [ExchangeRatesService],
  exports: [ExchangeRatesService],
})
export class ExchangeRatesModule {}
