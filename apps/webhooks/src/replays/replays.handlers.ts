import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageEnvelope, ReplayWebhooksRequest, WEBHOOKS_SUBJECTS, WebhookReplay, WebhookReplayIdRequest } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { ReplaysService } from './replays.service';

@Controller()
export class ReplaysHandlers {
  constructor(private readonly replays: ReplaysService) {}

  @MessagePattern(WEBHOOKS_SUBJECTS.replay)
  create(@Payload(new EnvelopePipe(ReplayWebhooksRequest)) { ctx, payload }: MessageEnvelope<ReplayWebhooksRequest>): Promise<WebhookReplay> {
    return this.replays.create(ctx.platformId, payload);
  }

  @MessagePattern(WEBHOOKS_SUBJECTS.getReplay)
  get(@Payload(new EnvelopePipe(WebhookReplayIdRequest)) { ctx, payload }: MessageEnvelope<WebhookReplayIdRequest>): Promise<WebhookReplay> {
    return this.replays.get(ctx.platformId, payload.replayId);
  }
}
