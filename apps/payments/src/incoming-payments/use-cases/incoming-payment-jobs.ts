import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobScheduler, Outbox } from '@paykit/persistence';
import { transactionRefundEvent } from '../../transfers/transaction.mapper';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransactionReader } from '../../transfers/use-cases/transaction-reader';
import { DECISION_DEADLINE_JOB, SETTLE_INCOMING_REFUND_JOB } from '../incoming-payments.jobs';
import { IncomingDecisions } from './incoming-decisions';
import { IncomingTransitions } from './incoming-transitions';

/** The scheduled steps of incoming payments: a decision's deadline fails the payment; a sender's refund settles. */
@Injectable()
export class IncomingPaymentJobs implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly decisions: IncomingDecisions,
    private readonly transitions: IncomingTransitions,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly reader: TransactionReader,
    private readonly outbox: Outbox,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(DECISION_DEADLINE_JOB, async (payload, manager) => {
      const decided = await this.decisions.decide(manager, payload.platformId, payload.transactionId, 'TIMED_OUT');
      if (decided) {
        await this.transitions.fail(manager, payload.platformId, payload.transactionId, 'PAYMENT_APPROVAL_TIMED_OUT');
        return;
      }
      const current = await this.decisions.find(payload.platformId, payload.transactionId, manager);
      // Ran a moment before the deadline: fail so the scheduler runs it again.
      if (current?.status === 'AWAITING') throw new Error(`Decision on ${payload.transactionId} is due at ${current.decideBy.toISOString()}`);
    });
    this.scheduler.register(SETTLE_INCOMING_REFUND_JOB, async (payload, manager) => {
      // Moves only a refund still PENDING: a retried job announces and settles nothing twice.
      const settled = await this.transactionsRepo.moveRefund(manager, payload.platformId, payload.transactionId, 'FAILED', {
        from: 'PENDING',
        to: 'COMPLETED',
        reason: 'TRANSACTION_FAILED',
      });
      if (settled) await this.outbox.add(manager, transactionRefundEvent(payload.platformId, await this.reader.toResource(settled)));
    });
  }
}
