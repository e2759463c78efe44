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
import { AgentActionsService } from '../agent-actions/agent-actions.service';

@Controller()
export class IncomingPaymentsHandlers {
  constructor(
    private readonly incoming: IncomingPaymentsService,
    private readonly agentActions: AgentActionsService,
  ) {}

  @MessagePattern(INCOMING_SUBJECTS.sandboxUmaReceive)
  sandboxReceive(@Payload(new EnvelopePipe(SandboxUmaReceiveRequest)) { ctx, payload }: MessageEnvelope<SandboxUmaReceiveRequest>): Promise<Transaction> {
    return this.incoming.sandboxReceive(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.approveTransaction)
  async approve(@Payload(new EnvelopePipe(ApprovePaymentMessage)) { ctx, payload }: MessageEnvelope<ApprovePaymentMessage>): Promise<Transaction> {
    // The platform's approval of a transfer an agent made waiting for it (SPEC), or of an incoming payment.
    return (await this.agentActions.approveTransaction(ctx, payload.transactionId)) ?? this.incoming.approve(ctx, payload);
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
