import { Module } from '@nestjs/common';
import { WALLET_AUTH_CONFIG, walletAuthConfigProvider } from './wallet-auth-config';

/** The service's validated configuration, for the features that read it. */
@Module({
  providers: [walletAuthConfigProvider],
  exports: [WALLET_AUTH_CONFIG],
})
export class WalletAuthConfigModule {}
