import { Module } from '@nestjs/common';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { OtpSenderModule } from '../credentials/otp-sender.module';
import { KeysModule } from '../keys/keys.module';
import { ScaHandlers } from './sca.handlers';
import { ScaRepository } from './sca.repository';
import { ScaService } from './sca.service';

/** Strong Customer Authentication of SCA-regulated customers (README, "Strong Customer Authentication"). */
@Module({
  imports: [WalletAuthConfigModule, KeysModule, OtpSenderModule],
  controllers: [ScaHandlers],
  providers: [ScaService, ScaRepository],
})
export class ScaModule {}
