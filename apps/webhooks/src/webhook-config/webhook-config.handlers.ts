import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageEnvelope, UpdateWebhookConfigRequest, WEBHOOKS_SUBJECTS, WebhooksPlatformConfig } from '@paykit/contracts';
import { CallerContextPipe, EnvelopePipe } from '@paykit/transport';
import { WebhookConfigService } from './webhook-config.service';

@Controller()
export class WebhookConfigHandlers {
  constructor(private readonly config: WebhookConfigService) {}

  @MessagePattern(WEBHOOKS_SUBJECTS.getConfig)
  get(@Payload(new CallerContextPipe()) { ctx }: MessageEnvelope<unknown>): Promise<WebhooksPlatformConfig> {
    return this.config.get(ctx.platformId);
  }

  @MessagePattern(WEBHOOKS_SUBJECTS.updateConfig)
  update(@Payload(new EnvelopePipe(UpdateWebhookConfigRequest)) { ctx, payload }: MessageEnvelope<UpdateWebhookConfigRequest>): Promise<WebhooksPlatformConfig> {
    return this.config.update(ctx.platformId, payload);
  }
}
