import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { KeysModule } from '../keys/keys.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { DelegatedKeysHandlers } from './delegated-keys.handlers';
import { DelegatedKeysRepository } from './delegated-keys.repository';
import { DelegatedKeysService } from './delegated-keys.service';

@Module({
  imports: [KeysModule, SignedRetryModule, AccountsModule],
  controllers: [DelegatedKeysHandlers],
  providers: [DelegatedKeysService, DelegatedKeysRepository],
})
export class DelegatedKeysModule {}
