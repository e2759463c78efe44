import { Module } from '@nestjs/common';
import { CurrenciesRepository } from './currencies.repository';
import { CurrencyCatalog } from './currency-catalog';

@Module({
  providers: [CurrencyCatalog, CurrenciesRepository],
  exports: [CurrencyCatalog, CurrenciesRepository],
})
export class CurrenciesModule {}
