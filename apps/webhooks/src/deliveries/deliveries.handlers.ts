import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ListWebhookDeliveriesRequest,
  MessageEnvelope,
  Page,
  WEBHOOKS_SUBJECTS,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryIdRequest,
  WebhookTestResult,
} from '@paykit/contracts';
import { CallerContextPipe, EnvelopePipe } from '@paykit/transport';
import { DeliveriesService } from './deliveries.service';

@Controller()
export class DeliveriesHandlers {
  constructor(private readonly deliveries: DeliveriesService) {}

  @MessagePattern(WEBHOOKS_SUBJECTS.listDeliveries)
  list(@Payload(new EnvelopePipe(ListWebhookDeliveriesRequest)) { ctx, payload }: MessageEnvelope<ListWebhookDeliveriesRequest>): Promise<Page<WebhookDelivery>> {
    return this.deliveries.list(ctx.platformId, payload);
  }

  @MessagePattern(WEBHOOKS_SUBJECTS.getDelivery)
  get(@Payload(new EnvelopePipe(WebhookDeliveryIdRequest)) { ctx, payload }: MessageEnvelope<WebhookDeliveryIdRequest>): Promise<WebhookDeliveryDetail> {
    return this.deliveries.get(ctx.platformId, payload.deliveryId);
  }

  @MessagePattern(WEBHOOKS_SUBJECTS.redeliver)
  redeliver(@Payload(new EnvelopePipe(WebhookDeliveryIdRequest)) { ctx, payload }: MessageEnvelope<WebhookDeliveryIdRequest>): Promise<WebhookDelivery> {
    return this.deliveries.redeliver(ctx.platformId, payload.deliveryId);
  }

  @MessagePattern(WEBHOOKS_SUBJECTS.sendTest)
  sendTest(@Payload(new CallerContextPipe()) { ctx }: MessageEnvelope<unknown>): Promise<WebhookTestResult> {
    return this.deliveries.sendTest(ctx.platformId);
  }
}
