import { Module } from '@nestjs/common';
import { SignedRetryHandlers } from './signed-retry.handlers';
import { SignedRetryService } from './signed-retry.service';

@Module({
  controllers: [SignedRetryHandlers],
  providers: [SignedRetryService],
  exports: [SignedRetryService],
})
export class SignedRetryModule {}
