import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TransactionStatus } from '@paykit/contracts';
import { InternalAccountWithBalance } from '../../internal-accounts/entities/internal-account.entity';
import { InternalAccountsService } from '../../internal-accounts/internal-accounts.service';
import { LedgerRepository } from '../../ledger/ledger.repository';
import { LedgerService, NEW_MOVEMENT_STATUSES } from '../../ledger/ledger.service';
import { PaymentTransactionEntity } from '../entities/payment-transaction.entity';
import { DailyVolume } from './daily-volume';
import { VelocityLimits } from './velocity-limits';

/** A transfer's money: the account's lock and limits before it is written, its hold, and its settlement on the ledger. */
@Injectable()
export class TransferFunds {
  constructor(
    private readonly ledgerService: LedgerService,
    private readonly ledger: LedgerRepository,
    private readonly internalAccounts: InternalAccountsService,
    private readonly velocity: VelocityLimits,
    private readonly dailyVolume: DailyVolume,
  ) {}

  /** Locks the account (it may have been frozen or closed since the checks) until the caller's transaction ends. */
  lockAccount(manager: EntityManager, platformId: string, accountId: string): Promise<void> {
    return this.ledgerService.lockAccountWithin(manager, platformId, accountId, NEW_MOVEMENT_STATUSES);
  }

  assertWithinVelocity(manager: EntityManager, platformId: string, customerId: string, currency: string, amount: bigint): Promise<void> {
    return this.velocity.assertWithin(manager, platformId, customerId, currency, amount);
  }

  /**
   * Holds an outgoing transfer's amount (it leaves the available balance now; posted or returned
   * when the transfer settles), then counts it against the platform's daily volume (after the
   * hold: a withdrawal the balance cannot cover answers that 4xx). The hold's id.
   */
  async hold(manager: EntityManager, platformId: string, account: Pick<InternalAccountWithBalance, 'id' | 'currencyCode'>, amount: bigint, transactionId: string): Promise<string> {
    const placed = (await this.ledgerService.holdWithin(manager, platformId, account, amount, `transfer:${transactionId}`, transactionId))!;
    await this.dailyVolume.reserve(manager, platformId, account.currencyCode, amount);
    return placed.hold.id;
  }

  announceBalance(manager: EntityManager, platformId: string, accountId: string): Promise<void> {
    return this.internalAccounts.announceBalance(manager, platformId, accountId);
  }

  /**
   * A step's money: settling an outgoing transfer captures its hold (or releases it on failure),
   * an incoming one credits the account; the account's balance is announced when it moved.
   */
  async settle(manager: EntityManager, platformId: string, current: PaymentTransactionEntity, status: TransactionStatus): Promise<void> {
    const amount = current.amount;
    if (current.type === 'OUTGOING' && current.holdId) {
      if (status === 'COMPLETED') {
        await this.ledgerService.captureWithin(manager, platformId, current.holdId, amount, `transfer:${current.id}:settle`, 'EXTERNAL_CLEARING', 'TRANSFER_OUT');
      } else if (status === 'FAILED') {
        await this.ledgerService.releaseWithin(manager, platformId, current.holdId, `transfer:${current.id}:fail`);
      }
    }
    if (current.type === 'INCOMING' && status === 'COMPLETED') {
      await this.ledger.creditFromSystem(manager, {
        platformId,
        kind: 'TRANSFER_IN',
        referenceId: current.id,
        accountId: current.internalAccountId,
        currency: current.currencyCode,
        from: 'EXTERNAL_CLEARING',
        amount,
      });
    }
    // Settling moved the account's money (a capture changes the total, a release or credit the available balance).
    const moved = (current.type === 'OUTGOING' && current.holdId !== null && status !== 'PROCESSING') || (current.type === 'INCOMING' && status === 'COMPLETED');
    if (moved) await this.internalAccounts.announceBalance(manager, platformId, current.internalAccountId);
  }
}
