import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { InternalAccountEntity } from './internal-accounts/entities/internal-account.entity';
import { InternalAccountsModule } from './internal-accounts/internal-accounts.module';
import { HoldEntity } from './ledger/entities/hold.entity';
import { LedgerModule } from './ledger/ledger.module';
import { PaymentTransactionEntity } from './transfers/entities/payment-transaction.entity';
import { TransfersModule } from './transfers/transfers.module';
import { PAYMENTS_MIGRATIONS } from './migrations';
import { ExchangeRatesModule } from './exchange-rates/exchange-rates.module';
import { QuotesModule } from './quotes/quotes.module';
import { IncomingPaymentsModule } from './incoming-payments/incoming-payments.module';
import { DirectoryModule } from './directory/directory.module';
import { InvitationsModule } from './invitations/invitations.module';
import { AgentActionsModule } from './agent-actions/agent-actions.module';
import { StablecoinsModule } from './stablecoins/stablecoins.module';

/** The payments bounded context: internal accounts on a double-entry ledger, holds, transfers and transactions. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'payments',
      entities: [InternalAccountEntity, HoldEntity, PaymentTransactionEntity],
      migrations: PAYMENTS_MIGRATIONS,
    }),
    LedgerModule,
    InternalAccountsModule,
    TransfersModule,
    ExchangeRatesModule,
    QuotesModule,
    IncomingPaymentsModule,
    DirectoryModule,
    InvitationsModule,
    AgentActionsModule,
    StablecoinsModule,
  ],
})
export class PaymentsAppModule {}
