import { Injectable } from '@nestjs/common';
import { tenantContext } from '@paykit/contracts';
import { TransactionRunner } from '@paykit/persistence';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { CardTransactionWriter } from './card-transaction-writer';
import { IssuerMoney } from './issuer-money';
import { NetworkRules } from './issuer-rules';

/** The worker's step when a delayed pull (descriptor 005) is due: move the money, then confirm. Idempotent. */
@Injectable()
export class CompleteDelayedPull {
  constructor(
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly writer: CardTransactionWriter,
    private readonly money: IssuerMoney,
    private readonly rules: NetworkRules,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(platformId: string, cardTransactionId: string): Promise<void> {
    const entity = await this.cardTransactions.findById(platformId, cardTransactionId);
    if (!entity || entity.status !== 'PENDING') return;
    const ctx = tenantContext(platformId, `pull:${cardTransactionId}`);
    if (entity.direction === 'CREDIT' && !(await this.transactions.run((manager) => this.cardTransactions.claimCredit(manager, platformId, entity.id)))) return;
    const outcome = this.rules.outcome(ctx, entity.merchant.descriptor);
    const result = await this.money.move(ctx, entity, outcome);
    const next = await this.transactions.run(async (manager) => {
      const moved = await this.cardTransactions.transition(manager, entity, ['PENDING'], result);
      if (moved) await this.writer.announce(manager, moved);
      return moved;
    });
    // The card closed meanwhile and the pull lost the race: its hold goes back.
    if (!next && result.holdId && !result.settledAt) await this.money.release(ctx, entity.id, result.holdId);
  }
}
