import { Module } from '@nestjs/common';
import { ExternalAccountsClient } from '../counterparties/external-accounts.client';
import { LedgerModule } from '../ledger/ledger.module';
import { PaymentsDataModule } from '../payments-data.module';
import { TransactionsRepository } from './transactions.repository';
import { TransfersHandlers } from './transfers.handlers';
import { TransfersService } from './transfers.service';

@Module({
  imports: [PaymentsDataModule, LedgerModule],
  controllers: [TransfersHandlers],
  providers: [TransfersService, TransactionsRepository, ExternalAccountsClient],
})
export class TransfersModule {}
