import { Module } from '@nestjs/common';
import { PaymentsConfigModule } from '../config/payments-config';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { StablecoinsHandlers } from './stablecoins.handlers';
import { StablecoinsRepository } from './stablecoins.repository';
import { StablecoinsService } from './stablecoins.service';

/** Stablecoin issuance: provider account links, registered coins, mints and burns on the ledger. */
@Module({
  imports: [PaymentsConfigModule, CounterpartiesModule, CurrenciesModule, InternalAccountsModule, LedgerModule],
  controllers: [StablecoinsHandlers],
  providers: [StablecoinsService, StablecoinsRepository],
})
export class StablecoinsModule {}
