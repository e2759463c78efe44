import { Module } from '@nestjs/common';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { CredentialsRepositoryModule } from '../credentials/credentials-repository.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { SessionsHandlers } from './sessions.handlers';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [WalletAuthConfigModule, SignedRetryModule, CredentialsRepositoryModule],
  controllers: [SessionsHandlers],
  providers: [SessionsService, SessionsRepository],
  exports: [SessionsService, SessionsRepository],
})
export class SessionsModule {}
