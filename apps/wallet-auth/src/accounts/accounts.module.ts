import { Module } from '@nestjs/common';
import { CredentialsRepositoryModule } from '../credentials/credentials-repository.module';
import { KeysModule } from '../keys/keys.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { AccountsHandlers } from './accounts.handlers';
import { WalletAccountsRepository } from './wallet-accounts.repository';
import { WalletAccountsService } from './wallet-accounts.service';
import { WalletExportService } from './wallet-export.service';

@Module({
  imports: [KeysModule, SignedRetryModule, CredentialsRepositoryModule],
  controllers: [AccountsHandlers],
  providers: [WalletAccountsService, WalletExportService, WalletAccountsRepository],
  exports: [WalletAccountsService, WalletAccountsRepository],
})
export class AccountsModule {}
