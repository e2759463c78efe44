import { forwardRef, Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { KeysModule } from '../keys/keys.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { ChallengesRepository } from './challenges.repository';
import { CredentialsHandlers } from './credentials.handlers';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { LoggingOtpSender, OTP_SENDER } from './otp-sender';

@Module({
  imports: [WalletAuthConfigModule, KeysModule, SignedRetryModule, forwardRef(() => AccountsModule), forwardRef(() => SessionsModule)],
  controllers: [CredentialsHandlers],
  providers: [CredentialsService, CredentialsRepository, ChallengesRepository, { provide: OTP_SENDER, useClass: LoggingOtpSender }],
  exports: [CredentialsRepository],
})
export class CredentialsModule {}
