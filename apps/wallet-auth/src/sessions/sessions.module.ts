import { forwardRef, Module } from '@nestjs/common';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { SessionsHandlers } from './sessions.handlers';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  // forwardRef: a session names its credential, and verifying a credential opens a session.
  imports: [WalletAuthConfigModule, SignedRetryModule, forwardRef(() => CredentialsModule)],
  controllers: [SessionsHandlers],
  providers: [SessionsService, SessionsRepository],
  exports: [SessionsService, SessionsRepository],
})
export class SessionsModule {}
