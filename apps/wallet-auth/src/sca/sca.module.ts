import { Module } from '@nestjs/common';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { OtpSenderModule } from '../credentials/otp-sender.module';
import { KeysModule } from '../keys/keys.module';
import { ScaHandlers } from './sca.handlers';
import { ScaRepository } from './sca.repository';
import { ScaChallenges } from './sca-challenges';
import { ScaCustomers } from './sca-customers';
import { ScaFactors } from './sca-factors';
import { ScaLogin } from './sca-login';
import { ScaProofs } from './sca-proofs';
import { ScaResets } from './sca-resets';

/** Strong Customer Authentication of SCA-regulated customers (README, "Strong Customer Authentication"). */
@Module({
  imports: [WalletAuthConfigModule, KeysModule, OtpSenderModule],
  controllers: [ScaHandlers],
  providers: [ScaRepository, ScaCustomers, ScaProofs, ScaFactors, ScaLogin, ScaChallenges, ScaResets],
})
export class ScaModule {}
