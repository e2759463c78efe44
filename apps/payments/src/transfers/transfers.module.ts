import { Module } from '@nestjs/common';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { TransactionsRepository } from './transactions.repository';
import { TransfersHandlers } from './transfers.handlers';
import { TransfersService } from './transfers.service';

@Module({
  imports: [CurrenciesModule, CounterpartiesModule, InternalAccountsModule, LedgerModule],
  controllers: [TransfersHandlers],
  providers: [TransfersService, TransactionsRepository],
  exports: [TransfersService, TransactionsRepository],
})
export class TransfersModule {}
