import { Module } from '@nestjs/common';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { AccountsHandlers } from './accounts.handlers';
import { WalletAccountsService } from './wallet-accounts.service';
import { WalletExportService } from './wallet-export.service';

@Module({
  imports: [SignedRetryModule],
  controllers: [AccountsHandlers],
  providers: [WalletAccountsService, WalletExportService],
  exports: [WalletAccountsService],
})
export class AccountsModule {}
