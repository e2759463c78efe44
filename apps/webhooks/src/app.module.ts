import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { WebhookDeliveryAttemptEntity } from './deliveries/entities/webhook-delivery-attempt.entity';
import { WebhookDeliveryEntity } from './deliveries/entities/webhook-delivery.entity';
import { ReceivedEventEntity } from './inbox/entities/received-event.entity';
import { InboxModule } from './inbox/inbox.module';
import { CreateReceivedEvents1732300100000 } from './migrations/1732300100000-CreateReceivedEvents';
import { CreateWebhookDeliveries1761000000000 } from './migrations/1761000000000-CreateWebhookDeliveries';
import { CreateDeliveryFaults1765100000000 } from './migrations/1765100000000-CreateDeliveryFaults';
import { CreateWebhookReplays1765110000000 } from './migrations/1765110000000-CreateWebhookReplays';
import { ReplaysModule } from './replays/replays.module';
import { WebhookPlatformEntity } from './webhook-config/entities/webhook-platform.entity';
import { WebhookConfigModule } from './webhook-config/webhook-config.module';

/** The webhooks bounded context: consumes every event durably, signs and delivers webhooks, keeps the delivery log. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'webhooks',
      entities: [ReceivedEventEntity, WebhookPlatformEntity, WebhookDeliveryEntity, WebhookDeliveryAttemptEntity],
      migrations: [CreateReceivedEvents1732300100000, CreateWebhookDeliveries1761000000000, CreateDeliveryFaults1765100000000, CreateWebhookReplays1765110000000],
    }),
    WebhookConfigModule,
    DeliveriesModule,
    ReplaysModule,
    InboxModule,
  ],
})
export class WebhooksAppModule {}
