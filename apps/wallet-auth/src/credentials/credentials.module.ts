import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { KeysModule } from '../keys/keys.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { ChallengesRepository } from './challenges.repository';
import { CredentialsRepositoryModule } from './credentials-repository.module';
import { CredentialsHandlers } from './credentials.handlers';
import { CredentialsService } from './credentials.service';
import { OtpSenderModule } from './otp-sender.module';

@Module({
  imports: [WalletAuthConfigModule, KeysModule, SignedRetryModule, CredentialsRepositoryModule, AccountsModule, SessionsModule, OtpSenderModule],
  controllers: [CredentialsHandlers],
  providers: [CredentialsService, ChallengesRepository],
})
export class CredentialsModule {}
