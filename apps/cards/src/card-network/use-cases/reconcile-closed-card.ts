import { Injectable } from '@nestjs/common';
import { tenantContext } from '@paykit/contracts';
import { TransactionRunner } from '@paykit/persistence';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { CardTransactionWriter } from './card-transaction-writer';
import { IssuerMoney } from './issuer-money';

/** The worker's step when a card closed: its open authorizations reconcile to a terminal state. Idempotent. */
@Injectable()
export class ReconcileClosedCard {
  constructor(
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly writer: CardTransactionWriter,
    private readonly money: IssuerMoney,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(platformId: string, cardId: string): Promise<void> {
    const ctx = tenantContext(platformId, `close:${cardId}`);
    for (const entity of await this.cardTransactions.openOfCard(platformId, cardId)) {
      if (entity.status === 'PENDING') {
        await this.transactions.run(async (manager) => {
          const declined = await this.cardTransactions.transition(manager, entity, ['PENDING'], { status: 'DECLINED', declineReason: 'CARD_CLOSED' });
          if (declined) await this.writer.announce(manager, declined);
        });
      } else if (entity.type === 'AUTHORIZATION' && entity.holdId !== null && entity.settledAt === null) {
        await this.money.expire(ctx, entity, 'CARD_CLOSED', [entity.status as 'CONFIRMED' | 'EXCEPTION']);
      }
    }
  }
}
