import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApprovePaymentMessage,
  ConfirmReceiptDeliveryMessage,
  INCOMING_SUBJECTS,
  MessageEnvelope,
  ReasonMessage,
  SandboxUmaReceiveRequest,
  Transaction,
  WebhookDecisionMessage,
  WebhookDecisionOutcome,
} from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { IncomingPaymentsService } from './incoming-payments.service';

@Controller()
export class IncomingPaymentsHandlers {
  constructor(private readonly incoming: IncomingPaymentsService) {}

  @MessagePattern(INCOMING_SUBJECTS.sandboxUmaReceive)
  sandboxReceive(@Payload(new EnvelopePipe(SandboxUmaReceiveRequest)) { ctx, payload }: MessageEnvelope<SandboxUmaReceiveRequest>): Promise<Transaction> {
    return this.incoming.sandboxReceive(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.approveTransaction)
  approve(@Payload(new EnvelopePipe(ApprovePaymentMessage)) { ctx, payload }: MessageEnvelope<ApprovePaymentMessage>): Promise<Transaction> {
    return this.incoming.approve(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.rejectTransaction)
  reject(@Payload(new EnvelopePipe(ReasonMessage)) { ctx, payload }: MessageEnvelope<ReasonMessage>): Promise<Transaction> {
    return this.incoming.reject(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.confirmTransaction)
  confirm(@Payload(new EnvelopePipe(ConfirmReceiptDeliveryMessage)) { ctx, payload }: MessageEnvelope<ConfirmReceiptDeliveryMessage>): Promise<Transaction> {
    return this.incoming.confirm(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.cancelTransaction)
  cancel(@Payload(new EnvelopePipe(ReasonMessage)) { ctx, payload }: MessageEnvelope<ReasonMessage>): Promise<Transaction> {
    return this.incoming.cancel(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.webhookDecision)
  webhookDecision(@Payload(new EnvelopePipe(WebhookDecisionMessage)) { ctx, payload }: MessageEnvelope<WebhookDecisionMessage>): Promise<WebhookDecisionOutcome> {
    return this.incoming.webhookDecision(ctx, payload);
  }
}
