import { Module } from '@nestjs/common';
import { WalletAuthConfigModule } from '../config/wallet-auth-config.module';
import { SignedRetryHandlers } from './signed-retry.handlers';
import { SignedRetryRepository } from './signed-retry.repository';
import { SignedRetryService } from './signed-retry.service';

@Module({
  imports: [WalletAuthConfigModule],
  controllers: [SignedRetryHandlers],
  providers: [SignedRetryService, SignedRetryRepository],
  exports: [SignedRetryService],
})
export class SignedRetryModule {}
