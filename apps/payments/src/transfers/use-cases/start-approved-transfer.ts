import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TransactionsRepository } from '../transactions.repository';
import { TransferStep } from '../transfers.sandbox';
import { TransferFunds } from './transfer-funds';
import { TransferSteps } from './transfer-steps';

/**
 * A transfer that waited for the platform's approval (holding nothing) proceeds, checked
 * against the account and the customer's limits of this moment: under the account's lock, the
 * velocity limit, then the hold of its funds; then its steps, as its outcome gave them when it
 * was written. A check that fails throws (INSUFFICIENT_BALANCE, VELOCITY_LIMIT_EXCEEDED,
 * ACCOUNT_NOT_ACTIVE) and the caller's transaction writes nothing. A transfer written before
 * waiting stopped holding (it has its hold already) is not checked again.
 */
@Injectable()
export class StartApprovedTransfer {
  constructor(
    private readonly transfers: TransactionsRepository,
    private readonly funds: TransferFunds,
    private readonly steps: TransferSteps,
  ) {}

  async run(manager: EntityManager, platformId: string, transactionId: string, steps: TransferStep[]): Promise<void> {
    const current = await this.transfers.findById(platformId, transactionId, manager, true);
    if (!current) throw new Error(`Transaction ${transactionId} vanished while it was approved`);
    if (current.holdId === null) {
      await this.funds.lockAccount(manager, platformId, current.internalAccountId);
      if (current.customerId) await this.funds.assertWithinVelocity(manager, platformId, current.customerId, current.currencyCode, current.amount);
      if (current.type === 'OUTGOING' && steps.length > 0) {
        const holdId = await this.funds.hold(manager, platformId, { id: current.internalAccountId, currencyCode: current.currencyCode }, current.amount, current.id);
        await this.transfers.setHold(manager, platformId, current.id, holdId);
        await this.funds.announceBalance(manager, platformId, current.internalAccountId);
      }
    }
    await this.steps.schedule(manager, platformId, transactionId, steps);
  }
}
