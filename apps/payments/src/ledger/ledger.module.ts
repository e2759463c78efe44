import { Module } from '@nestjs/common';
import { PaymentsDataModule } from '../payments-data.module';
import { LedgerHandlers } from './ledger.handlers';
import { LedgerService } from './ledger.service';

@Module({
  imports: [PaymentsDataModule],
  controllers: [LedgerHandlers],
  providers: [LedgerService],
  exports: [LedgerService],
})
export class LedgerModule {}
