import { Module } from '@nestjs/common';
import { LoggingOtpSender, OTP_SENDER } from './otp-sender';

/** The one OTP sender of the service: credential logins and SCA challenges send their codes through the same binding. */
@Module({
  providers: [{ provide: OTP_SENDER, useClass: LoggingOtpSender }],
  exports: [OTP_SENDER],
})
export class OtpSenderModule {}
