import { Injectable } from '@nestjs/common';
import { amountFromWire, amountToWire, CallerContext, CARDS_WORK_EVENTS, newId, SandboxCardSimulationResponse, SimulateAdviceRequest } from '@paykit/contracts';
import { Outbox, TransactionRunner } from '@paykit/persistence';
import { CardTransactionReader } from './card-transaction-reader';
import { NetworkRules } from './issuer-rules';
import { inCardCurrency, issuerTokenOf, merchantOf } from './network-messages';

/** The advice is accepted now; the card operation it causes is announced later, through events only (ApplyAdvice in the worker). */
@Injectable()
export class SimulateAdvice {
  constructor(
    private readonly rules: NetworkRules,
    private readonly reader: CardTransactionReader,
    private readonly outbox: Outbox,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(ctx: CallerContext, request: SimulateAdviceRequest): Promise<SandboxCardSimulationResponse> {
    this.rules.assertSandbox(ctx);
    const card = await this.reader.requireCard(ctx.platformId, request.cardId);
    const { amount, currency } = inCardCurrency(card, request.currency, amountFromWire(request.amount));
    const cardTransactionId = newId('CardTransaction');
    const issuerTransactionToken = issuerTokenOf(cardTransactionId);
    await this.transactions.run(async (manager) => {
      await this.outbox.add(manager, {
        subject: CARDS_WORK_EVENTS.adviceReceived,
        platformId: ctx.platformId,
        resourceId: cardTransactionId,
        data: { cardId: card.id, cardTransactionId, issuerTransactionToken, amount: amountToWire(amount), currency, merchant: merchantOf(request.merchant) },
      });
    });
    return { issuerTransactionToken };
  }
}
