import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { JobScheduler, Outbox } from '@paykit/persistence';
import { PaymentTransactionEntity } from '../../transfers/entities/payment-transaction.entity';
import { transactionRefundEvent, transactionStatusEvent } from '../../transfers/transaction.mapper';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransactionReader } from '../../transfers/use-cases/transaction-reader';
import { SETTLE_INCOMING_REFUND_JOB } from '../incoming-payments.jobs';
import { SANDBOX_INCOMING_REFUND_MS } from '../incoming-payments.sandbox';

/** The moves an incoming payment's decisions share: completing or failing it (announced), and a failed payment's refund to its sender. */
@Injectable()
export class IncomingTransitions {
  constructor(
    private readonly transactionsRepo: TransactionsRepository,
    private readonly reader: TransactionReader,
    private readonly outbox: Outbox,
    private readonly scheduler: JobScheduler,
  ) {}

  async require(platformId: string, transactionId: string): Promise<PaymentTransactionEntity> {
    const current = await this.transactionsRepo.findById(platformId, transactionId);
    if (!current) throw new ServiceError('TRANSACTION_NOT_FOUND', `Transaction ${transactionId} not found`);
    return current;
  }

  async fail(manager: EntityManager, platformId: string, transactionId: string, reason: string): Promise<Transaction> {
    const current = (await this.transactionsRepo.findById(platformId, transactionId, manager, true))!;
    return this.move(manager, platformId, current, 'FAILED', reason);
  }

  async move(manager: EntityManager, platformId: string, current: PaymentTransactionEntity, to: 'COMPLETED' | 'FAILED', reason: string | null): Promise<Transaction> {
    const updated = await this.transactionsRepo.transition(manager, platformId, current.id, current.status, to, reason);
    if (!updated) throw new Error(`Transaction ${current.id} changed status concurrently`);
    const transaction = await this.reader.toResource(updated);
    await this.announce(manager, platformId, transaction);
    return transaction;
  }

  /** An accepted payment that cannot complete: FAILED with nothing credited, and the sender's refund initiated (settled by SETTLE_INCOMING_REFUND_JOB). */
  async failAndRefund(manager: EntityManager, platformId: string, transactionId: string, reason: string): Promise<Transaction> {
    await this.fail(manager, platformId, transactionId, reason);
    const pending = (await this.transactionsRepo.moveRefund(manager, platformId, transactionId, 'FAILED', { from: null, to: 'PENDING', reason: 'TRANSACTION_FAILED' }))!;
    const transaction = await this.reader.toResource(pending);
    await this.outbox.add(manager, transactionRefundEvent(platformId, transaction));
    await this.scheduler.schedule(manager, {
      kind: SETTLE_INCOMING_REFUND_JOB,
      platformId,
      payload: { platformId, transactionId },
      delayMs: SANDBOX_INCOMING_REFUND_MS,
      sandboxDelay: true,
      dedupeKey: `${transactionId}:settle-refund`,
    });
    return transaction;
  }

  /** Every status a transaction enters is announced, with the transaction as GET returns it. */
  async announce(manager: EntityManager, platformId: string, transaction: Transaction): Promise<void> {
    await this.outbox.add(manager, transactionStatusEvent(platformId, transaction));
  }
}
