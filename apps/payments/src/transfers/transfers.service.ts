import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallerContext, SignedRetryOutcome, Transaction, TransferInMessage, TransferOutMessage } from '@paykit/contracts';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';
import { AdvanceTransferJob } from './transfers.jobs';
import { TransferStep } from './transfers.sandbox';
import { AdvanceTransfer } from './use-cases/advance-transfer';
import { CheckTransfer } from './use-cases/check-transfer';
import { DailyVolume } from './use-cases/daily-volume';
import { MoveTransfer } from './use-cases/move-transfer';
import { StartApprovedTransfer } from './use-cases/start-approved-transfer';
import { TransactionReader } from './use-cases/transaction-reader';
import { TransferIn } from './use-cases/transfer-in';
import { TransferOut } from './use-cases/transfer-out';
import { CheckedTransfer, MoveHooks, TransferRequest } from './use-cases/transfer-request';

/**
 * Transfers between internal and external accounts, as the other features of payments call them
 * (agent actions, incoming payments). Every check that needs another service (the external
 * account, the customer's readiness) runs before the database transaction; the transaction then
 * writes the transfer, its hold or entry, its event and its idempotency record together. Later
 * status changes run on the durable scheduler. Each command and query is a use case in ./use-cases.
 */
@Injectable()
export class TransfersService {
  constructor(
    private readonly transferOutUseCase: TransferOut,
    private readonly transferInUseCase: TransferIn,
    private readonly checkTransfer: CheckTransfer,
    private readonly moveTransfer: MoveTransfer,
    private readonly advanceTransfer: AdvanceTransfer,
    private readonly startApprovedTransfer: StartApprovedTransfer,
    private readonly reader: TransactionReader,
    private readonly dailyVolume: DailyVolume,
  ) {}

  transferOut(ctx: CallerContext, request: TransferOutMessage): Promise<SignedRetryOutcome<Transaction>> {
    return this.transferOutUseCase.run(ctx, request);
  }

  transferIn(ctx: CallerContext, request: TransferInMessage): Promise<Transaction> {
    return this.transferInUseCase.run(ctx, request);
  }

  check(ctx: CallerContext, request: TransferRequest): Promise<CheckedTransfer | { earlier: Transaction }> {
    return this.checkTransfer.run(ctx, request);
  }

  move(ctx: CallerContext, checked: CheckedTransfer, hooks: MoveHooks = {}): Promise<Transaction> {
    return this.moveTransfer.run(ctx, checked, hooks);
  }

  advance(payload: AdvanceTransferJob, manager: EntityManager): Promise<void> {
    return this.advanceTransfer.run(payload, manager);
  }

  startApproved(manager: EntityManager, platformId: string, transactionId: string, steps: TransferStep[]): Promise<void> {
    return this.startApprovedTransfer.run(manager, platformId, transactionId, steps);
  }

  get(ctx: CallerContext, transactionId: string): Promise<Transaction> {
    return this.reader.get(ctx, transactionId);
  }

  /** The transaction as the API returns it, in its sent and received currencies. */
  toResource(entity: PaymentTransactionEntity): Promise<Transaction> {
    return this.reader.toResource(entity);
  }

  /** See DailyVolume.reserve. */
  reserveDailyVolume(manager: EntityManager, platformId: string, currency: string, amount: bigint): Promise<string> {
    return this.dailyVolume.reserve(manager, platformId, currency, amount);
  }

  releaseDailyVolume(manager: EntityManager, platformId: string, currency: string, day: string, amount: bigint): Promise<void> {
    return this.dailyVolume.release(manager, platformId, currency, day, amount);
  }
}
