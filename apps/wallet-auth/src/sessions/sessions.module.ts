import { Module } from '@nestjs/common';
import { SignedRetryModule } from '../signed-retry/signed-retry.module';
import { SessionsHandlers } from './sessions.handlers';
import { SessionsService } from './sessions.service';

@Module({
  imports: [SignedRetryModule],
  controllers: [SessionsHandlers],
  providers: [SessionsService],
  exports: [SessionsService],
})
export class SessionsModule {}
