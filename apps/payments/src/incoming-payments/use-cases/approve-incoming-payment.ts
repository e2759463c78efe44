import { Injectable } from '@nestjs/common';
import { ApprovePaymentMessage, CallerContext, Transaction } from '@paykit/contracts';
import { TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { LedgerRepository } from '../../ledger/ledger.repository';
import { LedgerService, NEW_MOVEMENT_STATUSES } from '../../ledger/ledger.service';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { sandboxRefundedSender } from '../incoming-payments.sandbox';
import { IncomingDecisions } from './incoming-decisions';
import { IncomingTransitions } from './incoming-transitions';

/**
 * Approves a payment waiting for the platform: the receiving account is credited and it
 * completes. An accepted payment that cannot complete (in the sandbox, from a refunded sender:
 * see incoming-payments.sandbox.ts) fails with nothing credited, and the sender is refunded:
 * FAILED and REFUND_PENDING now, REFUND_COMPLETED once the refund settles.
 */
@Injectable()
export class ApproveIncomingPayment {
  constructor(
    private readonly decisions: IncomingDecisions,
    private readonly transitions: IncomingTransitions,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly ledgerService: LedgerService,
    private readonly ledger: LedgerRepository,
    private readonly transactions: TransactionRunner,
    private readonly sandbox: SandboxRules,
  ) {}

  async run(ctx: CallerContext, request: ApprovePaymentMessage): Promise<Transaction> {
    const found = await this.transitions.require(ctx.platformId, request.transactionId);
    const cannotComplete = this.sandbox.applyTo(ctx) && found.counterpartyUmaAddress !== null ? sandboxRefundedSender(found.counterpartyUmaAddress) : undefined;
    return this.transactions.run(async (manager) => {
      const decided = await this.decisions.decide(manager, ctx.platformId, request.transactionId, 'APPROVED', {
        receiverCustomerInfo: request.receiverCustomerInfo,
      });
      if (!decided) throw await this.decisions.notAwaiting(manager, ctx.platformId, request.transactionId);
      if (cannotComplete) return this.transitions.failAndRefund(manager, ctx.platformId, request.transactionId, cannotComplete.failureReason);
      const current = (await this.transactionsRepo.findById(ctx.platformId, request.transactionId, manager, true))!;
      // Checked under the account's lock: a closed account receives nothing.
      await this.ledgerService.lockAccountWithin(manager, ctx.platformId, current.internalAccountId, NEW_MOVEMENT_STATUSES);
      await this.ledger.creditFromSystem(manager, {
        platformId: ctx.platformId,
        kind: 'UMA_RECEIVE',
        referenceId: current.id,
        accountId: current.internalAccountId,
        currency: current.currencyCode,
        from: 'EXTERNAL_CLEARING',
        amount: current.amount,
      });
      return this.transitions.move(manager, ctx.platformId, current, 'COMPLETED', null);
    });
  }
}
