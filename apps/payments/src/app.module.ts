import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { InternalAccountEntity } from './internal-accounts/entities/internal-account.entity';
import { InternalAccountsModule } from './internal-accounts/internal-accounts.module';
import { HoldEntity } from './ledger/entities/hold.entity';
import { LedgerModule } from './ledger/ledger.module';
import { CreateLedger1732300300000 } from './migrations/1732300300000-CreateLedger';
import { CreateAccountCredits1732300400000 } from './migrations/1732300400000-CreateAccountCredits';
import { RecordCryptoNetwork1764072100000 } from './migrations/1764072100000-RecordCryptoNetwork';
import { PaymentTransactionEntity } from './transfers/entities/payment-transaction.entity';
import { TransfersModule } from './transfers/transfers.module';

/** The payments bounded context: internal accounts on a double-entry ledger, holds, transfers and transactions. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'payments',
      entities: [InternalAccountEntity, HoldEntity, PaymentTransactionEntity],
      migrations: [CreateLedger1732300300000, CreateAccountCredits1732300400000, RecordCryptoNetwork1764072100000],
    }),
    LedgerModule,
    InternalAccountsModule,
    TransfersModule,
  ],
})
export class PaymentsAppModule {}
