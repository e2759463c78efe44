import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateSandboxFaultRequest,
  ListWebhookDeliveriesRequest,
  SandboxFault,
  SandboxFaultIdRequest,
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
import { DeliveryFaults } from './delivery-faults';

@Controller()
export class DeliveriesHandlers {
  constructor(
    private readonly deliveries: DeliveriesService,
    private readonly faults: DeliveryFaults,
  ) {}

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

  @MessagePattern(WEBHOOKS_SUBJECTS.createFault)
  createFault(@Payload(new EnvelopePipe(CreateSandboxFaultRequest)) { ctx, payload }: MessageEnvelope<CreateSandboxFaultRequest>): Promise<SandboxFault> {
    return this.faults.create(ctx.platformId, payload);
  }

  @MessagePattern(WEBHOOKS_SUBJECTS.listFaults)
  listFaults(@Payload(new CallerContextPipe()) { ctx }: MessageEnvelope<unknown>): Promise<SandboxFault[]> {
    return this.faults.list(ctx.platformId);
  }

  @MessagePattern(WEBHOOKS_SUBJECTS.deleteFault)
  async deleteFault(@Payload(new EnvelopePipe(SandboxFaultIdRequest)) { ctx, payload }: MessageEnvelope<SandboxFaultIdRequest>): Promise<{ deleted: boolean }> {
    return { deleted: await this.faults.delete(ctx.platformId, payload.faultId) };
  }
}
