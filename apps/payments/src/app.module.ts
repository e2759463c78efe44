import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { InternalAccountEntity } from './internal-accounts/entities/internal-account.entity';
import { InternalAccountsModule } from './internal-accounts/internal-accounts.module';
import { HoldEntity } from './ledger/entities/hold.entity';
import { LedgerModule } from './ledger/ledger.module';
import { CreateLedger1732300300000 } from './migrations/1732300300000-CreateLedger';
import { CreateAccountCredits1732300400000 } from './migrations/1732300400000-CreateAccountCredits';
import { CreateQuotes1764062000000 } from './migrations/1764062000000-CreateQuotes';
import { ExchangeRatesModule } from './exchange-rates/exchange-rates.module';
import { QuotesModule } from './quotes/quotes.module';
import { IncomingPaymentsModule } from './incoming-payments/incoming-payments.module';
import { DirectoryModule } from './directory/directory.module';
import { InvitationsModule } from './invitations/invitations.module';
import { PaymentTransactionEntity } from './transfers/entities/payment-transaction.entity';
import { TransfersModule } from './transfers/transfers.module';

/** The payments bounded context: internal accounts on a double-entry ledger, holds, transfers and transactions. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'payments',
      entities: [InternalAccountEntity, HoldEntity, PaymentTransactionEntity],
      migrations: [CreateLedger1732300300000, CreateAccountCredits1732300400000, CreateQuotes1764062000000],
    }),
    LedgerModule,
    InternalAccountsModule,
    TransfersModule,
    ExchangeRatesModule,
    QuotesModule,
    IncomingPaymentsModule,
    DirectoryModule,
    InvitationsModule,
  ],
})
export class PaymentsAppModule {}
