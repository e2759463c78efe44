import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { InboxHandlers } from './inbox.handlers';
import { InboxRepository } from './inbox.repository';
import { InboxService } from './inbox.service';

@Module({ imports: [DeliveriesModule], controllers: [InboxHandlers], providers: [InboxService, InboxRepository] })
export class InboxModule {}
