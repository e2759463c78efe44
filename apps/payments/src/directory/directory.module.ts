import { Module } from '@nestjs/common';
import { PaymentsConfigModule } from '../config/payments-config';
import { CurrenciesModule } from '../currencies/currencies.module';
import { InternalAccountsModule } from '../internal-accounts/internal-accounts.module';
import { DirectoryHandlers } from './directory.handlers';
import { DirectoryService } from './directory.service';

@Module({
  imports: [PaymentsConfigModule, CurrenciesModule, InternalAccountsModule],
  controllers: [DirectoryHandlers],
  providers: [DirectoryService],
})
export class DirectoryModule {}
