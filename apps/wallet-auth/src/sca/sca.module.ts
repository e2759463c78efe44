import { Module } from '@nestjs/common';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { LoggingOtpSender, OTP_SENDER } from '../credentials/otp-sender';
import { KeysModule } from '../keys/keys.module';
import { ScaHandlers } from './sca.handlers';
import { ScaRepository } from './sca.repository';
import { ScaService } from './sca.service';

/** Strong Customer Authentication of SCA-regulated customers (README, "Strong Customer Authentication"). */
@Module({
  imports: [WalletAuthConfigModule, KeysModule],
  controllers: [ScaHandlers],
  providers: [ScaService, ScaRepository, { provide: OTP_SENDER, useClass: LoggingOtpSender }],
})
export class ScaModule {}
