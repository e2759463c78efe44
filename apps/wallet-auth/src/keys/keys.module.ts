import { Module } from '@nestjs/common';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { EnclaveKeysRepository } from './enclave-keys.repository';
import { EnclaveKeysService } from './enclave-keys.service';

/** The deployment's enclave key: signs OTP targets and seals secrets at rest. */
@Module({
  imports: [WalletAuthConfigModule],
  providers: [EnclaveKeysService, EnclaveKeysRepository],
  exports: [EnclaveKeysService],
})
export class KeysModule {}
