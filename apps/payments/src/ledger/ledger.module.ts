import { Module } from '@nestjs/common';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { HoldsRepository } from './holds.repository';
import { LedgerHandlers } from './ledger.handlers';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

@Module({
  imports: [CurrenciesModule, InternalAccountsModule],
  controllers: [LedgerHandlers],
  providers: [LedgerService, LedgerRepository, HoldsRepository],
  exports: [LedgerService, LedgerRepository],
})
export class LedgerModule {}
