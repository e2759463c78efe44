import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, JobScheduler, Outbox } from '@paykit/persistence';
import { transactionStatusEvent } from '../transaction.mapper';
import { TransactionsRepository } from '../transactions.repository';
import { ADVANCE_TRANSFER_JOB, AdvanceTransferJob } from '../transfers.jobs';
import { TransactionReader } from './transaction-reader';
import { TransferFunds } from './transfer-funds';
import { TransferSteps } from './transfer-steps';

/**
 * The scheduled next step of an accepted transfer (ADVANCE_TRANSFER_JOB). A step that finds the
 * transfer already past it does nothing, so a retried job never moves money twice; settling an
 * outgoing transfer captures its hold (or releases it on failure), an incoming one credits the account.
 */
@Injectable()
export class AdvanceTransfer implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly transfers: TransactionsRepository,
    private readonly reader: TransactionReader,
    private readonly funds: TransferFunds,
    private readonly steps: TransferSteps,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(ADVANCE_TRANSFER_JOB, (payload, manager) => this.run(payload, manager));
  }

  async run(payload: AdvanceTransferJob, manager: EntityManager): Promise<void> {
    const current = await this.transfers.findById(payload.platformId, payload.transactionId, manager, true);
    if (!current || current.status === 'COMPLETED' || current.status === 'FAILED') return;
    if (payload.status === 'PROCESSING' && current.status !== 'PENDING') return;
    await this.funds.settle(manager, payload.platformId, current, payload.status);
    // The transfer's move, its event and the next step: one statement.
    const now = this.clock.now();
    const failureReason = payload.failureReason ?? null;
    const changed = await this.outbox.addWithChange(
      manager,
      this.transfers.transitionStatement(payload.platformId, current.id, current.status, payload.status, failureReason, now),
      transactionStatusEvent(payload.platformId, await this.reader.toResource(this.transfers.transitioned(current, payload.status, failureReason, now))),
      this.steps.statements(payload.platformId, current.id, payload.next ?? []),
    );
    // Unreachable while the row lock holds; if it were not, nothing of this step may commit.
    if (!changed) throw new Error(`Transaction ${current.id} changed status concurrently`);
  }
}
