import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { DeliveryBacklogGauge } from './delivery-backlog.gauge';
import { InboxHandlers } from './inbox.handlers';
import { InboxRepository } from './inbox.repository';
import { InboxService } from './inbox.service';

@Module({ imports: [DeliveriesModule], controllers: [InboxHandlers], providers: [InboxService, InboxRepository, DeliveryBacklogGauge] })
export class InboxModule {}
