import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { ReceivedEventEntity } from './inbox/entities/received-event.entity';
import { InboxModule } from './inbox/inbox.module';
import { CreateReceivedEvents1732300100000 } from './migrations/1732300100000-CreateReceivedEvents';

/** The webhooks bounded context: consumes every event; delivery is built on this inbox. */
@Module({
  imports: [
    PersistenceModule.forService({ service: 'webhooks', entities: [ReceivedEventEntity], migrations: [CreateReceivedEvents1732300100000] }),
    InboxModule,
  ],
})
export class WebhooksAppModule {}
