import { forwardRef, Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { KeysModule } from '../keys/keys.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { AccountsHandlers } from './accounts.handlers';
import { WalletAccountsRepository } from './wallet-accounts.repository';
import { WalletAccountsService } from './wallet-accounts.service';
import { WalletExportService } from './wallet-export.service';

@Module({
  // forwardRef: credentials and accounts use each other's repositories (an account is created with its first credential).
  imports: [KeysModule, SignedRetryModule, forwardRef(() => CredentialsModule)],
  controllers: [AccountsHandlers],
  providers: [WalletAccountsService, WalletExportService, WalletAccountsRepository],
  exports: [WalletAccountsService, WalletAccountsRepository],
})
export class AccountsModule {}
