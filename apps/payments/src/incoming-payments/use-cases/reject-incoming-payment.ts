import { Injectable } from '@nestjs/common';
import { CallerContext, ReasonMessage, Transaction } from '@paykit/contracts';
import { TransactionRunner } from '@paykit/persistence';
import { IncomingDecisions } from './incoming-decisions';
import { IncomingTransitions } from './incoming-transitions';

/** Rejects a payment waiting for the platform: it fails and nothing moves. */
@Injectable()
export class RejectIncomingPayment {
  constructor(
    private readonly decisions: IncomingDecisions,
    private readonly transitions: IncomingTransitions,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(ctx: CallerContext, request: ReasonMessage): Promise<Transaction> {
    await this.transitions.require(ctx.platformId, request.transactionId);
    return this.transactions.run(async (manager) => {
      const decided = await this.decisions.decide(manager, ctx.platformId, request.transactionId, 'REJECTED', { reason: request.reason });
      if (!decided) throw await this.decisions.notAwaiting(manager, ctx.platformId, request.transactionId);
      return this.transitions.fail(manager, ctx.platformId, request.transactionId, 'COMPLIANCE_REJECTED');
    });
  }
}
