import { Module } from '@nestjs/common';
import { WEBHOOKS_CONFIG, webhooksConfigProvider } from '../config/webhooks-config';
import { WebhookConfigHandlers } from './webhook-config.handlers';
import { WebhookConfigRepository } from './webhook-config.repository';
import { WebhookConfigService } from './webhook-config.service';

@Module({
  controllers: [WebhookConfigHandlers],
  providers: [
    // A bad value stops the app at start, naming the variable.
    webhooksConfigProvider,
    WebhookConfigService,
    WebhookConfigRepository,
  ],
  exports: [WEBHOOKS_CONFIG, WebhookConfigService],
})
export class WebhookConfigModule {}
