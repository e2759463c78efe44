import { Injectable } from '@nestjs/common';
import { CallerContext, WebhookDecisionMessage, WebhookDecisionOutcome } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { ApproveIncomingPayment } from './approve-incoming-payment';
import { RejectIncomingPayment } from './reject-incoming-payment';

/**
 * The platform answered the PENDING webhook: 200 approves (with the receiver data of its body),
 * 403 rejects. A payment decided otherwise meanwhile (an API call, the deadline) keeps that decision.
 */
@Injectable()
export class DecideByWebhook {
  constructor(
    private readonly approve: ApproveIncomingPayment,
    private readonly reject: RejectIncomingPayment,
  ) {}

  async run(ctx: CallerContext, request: WebhookDecisionMessage): Promise<WebhookDecisionOutcome> {
    try {
      if (request.approved)
        await this.approve.run(ctx, { transactionId: request.transactionId, ...(request.receiverCustomerInfo ? { receiverCustomerInfo: request.receiverCustomerInfo } : {}) });
      else await this.reject.run(ctx, { transactionId: request.transactionId, reason: 'The platform answered the webhook with 403' });
      return { decided: true };
    } catch (error) {
      if (error instanceof ServiceError && (error.code === 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' || error.code === 'TRANSACTION_NOT_FOUND')) return { decided: false };
      throw error;
    }
  }
}
