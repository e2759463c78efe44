import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { CredentialsHandlers } from './credentials.handlers';
import { CredentialsService } from './credentials.service';
import { LoggingOtpSender, OTP_SENDER } from './otp-sender';

@Module({
  imports: [AccountsModule, SessionsModule, SignedRetryModule],
  controllers: [CredentialsHandlers],
  providers: [CredentialsService, { provide: OTP_SENDER, useClass: LoggingOtpSender }],
})
export class CredentialsModule {}
