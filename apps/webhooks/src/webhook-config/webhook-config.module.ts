import { Global, Module } from '@nestjs/common';
import { WEBHOOKS_CONFIG, webhooksConfigProvider } from '../config/webhooks-config';
import { WebhookConfigHandlers } from './webhook-config.handlers';
import { WebhookConfigService } from './webhook-config.service';

@Global()
@Module({
  controllers: [WebhookConfigHandlers],
  providers: [
    // A bad value stops the app at start, naming the variable.
    webhooksConfigProvider,
    WebhookConfigService,
  ],
  exports: [WEBHOOKS_CONFIG, WebhookConfigService],
})
export class WebhookConfigModule {}
