import { Injectable } from '@nestjs/common';
import { AdviceReceivedData, amountFromWire, tenantContext } from '@paykit/contracts';
import { CardsRepository } from '../../cards/cards.repository';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { AuthorizeCard } from './authorize-card';

/** The worker's step for an advice: the card operation it causes; the advice's token identifies it (a redelivery finds it done). */
@Injectable()
export class ApplyAdvice {
  constructor(
    private readonly cards: CardsRepository,
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly authorizeCard: AuthorizeCard,
  ) {}

  async run(platformId: string, data: AdviceReceivedData): Promise<void> {
    if (await this.cardTransactions.findById(platformId, data.cardTransactionId)) return;
    const card = await this.cards.findForNetwork(platformId, data.cardId);
    if (!card) return;
    const ctx = tenantContext(platformId, `advice:${data.cardTransactionId}`);
    await this.authorizeCard.run(ctx, card, {
      id: data.cardTransactionId,
      token: data.issuerTransactionToken,
      type: 'CREDIT_AUTHORIZATION_ADVICE',
      amount: amountFromWire(data.amount),
      currency: data.currency,
      merchant: data.merchant,
    });
  }
}
