import { Module } from '@nestjs/common';
import { DeliveriesHandlers } from './deliveries.handlers';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveriesService } from './deliveries.service';
import { DeliveryWorker } from './delivery.worker';

@Module({
  controllers: [DeliveriesHandlers],
  providers: [DeliveriesService, DeliveriesRepository, DeliveryWorker],
  exports: [DeliveryWorker],
})
export class DeliveriesModule {}
