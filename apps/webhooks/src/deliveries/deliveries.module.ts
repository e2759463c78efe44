import { Module } from '@nestjs/common';
import { WebhookConfigModule } from '../webhook-config/webhook-config.module';
import { DeliveriesHandlers } from './deliveries.handlers';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveriesService } from './deliveries.service';
import { DeliveryFaults } from './delivery-faults';
import { DeliveryWorker } from './delivery.worker';

@Module({
  imports: [WebhookConfigModule],
  controllers: [DeliveriesHandlers],
  providers: [DeliveriesService, DeliveriesRepository, DeliveryWorker, DeliveryFaults],
  exports: [DeliveryWorker],
})
export class DeliveriesModule {}
