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
import { ApproveIncomingPayment } from './use-cases/approve-incoming-payment';
import { CancelTransaction } from './use-cases/cancel-transaction';
import { ConfirmReceipt } from './use-cases/confirm-receipt';
import { DecideByWebhook } from './use-cases/decide-by-webhook';
import { ReceiveSandboxPayment } from './use-cases/receive-sandbox-payment';
import { RejectIncomingPayment } from './use-cases/reject-incoming-payment';
import { AgentActionsService } from '../agent-actions/agent-actions.service';

@Controller()
export class IncomingPaymentsHandlers {
  constructor(
    private readonly receiveSandboxPayment: ReceiveSandboxPayment,
    private readonly approveIncomingPayment: ApproveIncomingPayment,
    private readonly rejectIncomingPayment: RejectIncomingPayment,
    private readonly confirmReceipt: ConfirmReceipt,
    private readonly cancelTransaction: CancelTransaction,
    private readonly decideByWebhook: DecideByWebhook,
    private readonly agentActions: AgentActionsService,
  ) {}

  @MessagePattern(INCOMING_SUBJECTS.sandboxUmaReceive)
  sandboxReceive(@Payload(new EnvelopePipe(SandboxUmaReceiveRequest)) { ctx, payload }: MessageEnvelope<SandboxUmaReceiveRequest>): Promise<Transaction> {
    return this.receiveSandboxPayment.run(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.approveTransaction)
  async approve(@Payload(new EnvelopePipe(ApprovePaymentMessage)) { ctx, payload }: MessageEnvelope<ApprovePaymentMessage>): Promise<Transaction> {
    // The platform's approval of a transfer an agent made waiting for it (SPEC), or of an incoming payment.
    return (await this.agentActions.approveTransaction(ctx, payload.transactionId)) ?? this.approveIncomingPayment.run(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.rejectTransaction)
  reject(@Payload(new EnvelopePipe(ReasonMessage)) { ctx, payload }: MessageEnvelope<ReasonMessage>): Promise<Transaction> {
    return this.rejectIncomingPayment.run(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.confirmTransaction)
  confirm(@Payload(new EnvelopePipe(ConfirmReceiptDeliveryMessage)) { ctx, payload }: MessageEnvelope<ConfirmReceiptDeliveryMessage>): Promise<Transaction> {
    return this.confirmReceipt.run(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.cancelTransaction)
  cancel(@Payload(new EnvelopePipe(ReasonMessage)) { ctx, payload }: MessageEnvelope<ReasonMessage>): Promise<Transaction> {
    return this.cancelTransaction.run(ctx, payload);
  }

  @MessagePattern(INCOMING_SUBJECTS.webhookDecision)
  webhookDecision(@Payload(new EnvelopePipe(WebhookDecisionMessage)) { ctx, payload }: MessageEnvelope<WebhookDecisionMessage>): Promise<WebhookDecisionOutcome> {
    return this.decideByWebhook.run(ctx, payload);
  }
}
