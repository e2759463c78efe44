import { Module } from '@nestjs/common';
import { WebhookConfigModule } from '../webhook-config/webhook-config.module';
import { ReplayWorker } from './replay.worker';
import { ReplaysHandlers } from './replays.handlers';
import { ReplaysRepository } from './replays.repository';
import { ReplaysService } from './replays.service';

@Module({
  imports: [WebhookConfigModule],
  controllers: [ReplaysHandlers],
  providers: [ReplaysService, ReplaysRepository, ReplayWorker],
})
export class ReplaysModule {}
