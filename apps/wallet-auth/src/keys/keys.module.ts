import { Global, Module } from '@nestjs/common';
import { WALLET_AUTH_CONFIG, walletAuthConfigProvider } from '../config/wallet-auth-config';
import { EnclaveKeysService } from './enclave-keys.service';

/** The service's validated configuration and its enclave key, for every feature module. */
@Global()
@Module({
  providers: [walletAuthConfigProvider, EnclaveKeysService],
  exports: [WALLET_AUTH_CONFIG, EnclaveKeysService],
})
export class KeysModule {}
