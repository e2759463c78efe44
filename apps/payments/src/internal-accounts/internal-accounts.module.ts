import { Module } from '@nestjs/common';
import { PaymentsDataModule } from '../payments-data.module';
import { CustomerEventsConsumer } from './customer-events.consumer';
import { InternalAccountsHandlers } from './internal-accounts.handlers';
import { InternalAccountsService } from './internal-accounts.service';

@Module({
  imports: [PaymentsDataModule],
  controllers: [InternalAccountsHandlers],
  providers: [InternalAccountsService, CustomerEventsConsumer],
  exports: [InternalAccountsService],
})
export class InternalAccountsModule {}
