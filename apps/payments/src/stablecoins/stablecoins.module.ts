import { Module } from '@nestjs/common';
import { PaymentsConfigModule } from '../config/payments-config';
import { CounterpartiesModule } from '../counterparties/counterparties.module';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { LedgerModule } from '../ledger/ledger.module';
import { StablecoinsHandlers } from './stablecoins.handlers';
import { StablecoinsRepository } from './stablecoins.repository';
import { AdvanceOperation } from './use-cases/advance-operation';
import { AdvanceStablecoin } from './use-cases/advance-stablecoin';
import { BurnStablecoin } from './use-cases/burn-stablecoin';
import { ExpireOperation } from './use-cases/expire-operation';
import { FundOperation } from './use-cases/fund-operation';
import { LinkProviderAccount } from './use-cases/link-provider-account';
import { MintStablecoin } from './use-cases/mint-stablecoin';
import { OpenOperation } from './use-cases/open-operation';
import { OperationParties } from './use-cases/operation-parties';
import { OperationPostings } from './use-cases/operation-postings';
import { RegisterStablecoin } from './use-cases/register-stablecoin';
import { StablecoinReader } from './use-cases/stablecoin-reader';
import { StablecoinSteps } from './use-cases/stablecoin-steps';
import { StartOperation } from './use-cases/start-operation';

/** One use case per command or query (./use-cases); the handlers call them. */
const USE_CASES = [
  LinkProviderAccount,
  RegisterStablecoin,
  AdvanceStablecoin,
  MintStablecoin,
  BurnStablecoin,
  FundOperation,
  AdvanceOperation,
  ExpireOperation,
  OpenOperation,
  OperationParties,
  OperationPostings,
  StartOperation,
  StablecoinReader,
  StablecoinSteps,
];

/** Stablecoin issuance: provider account links, registered coins, mints and burns on the ledger. */
@Module({
  imports: [PaymentsConfigModule, CounterpartiesModule, CurrenciesModule, InternalAccountsModule, LedgerModule],
  controllers: [StablecoinsHandlers],
  providers: [StablecoinsRepository, ...USE_CASES],
})
export class StablecoinsModule {}
