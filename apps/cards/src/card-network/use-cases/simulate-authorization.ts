import { Injectable } from '@nestjs/common';
import { amountFromWire, CallerContext, CardTransaction, newId, SimulateAuthorizationRequest } from '@paykit/contracts';
import { toCardTransaction } from '../card-transaction.mapper';
import { AuthorizeCard } from './authorize-card';
import { CardTransactionReader } from './card-transaction-reader';
import { NetworkRules } from './issuer-rules';
import { inCardCurrency, issuerTokenOf, merchantOf, NetworkMessage } from './network-messages';

/** The simulated network sends an authorization (POST /sandbox/cards/{id}/simulate/authorization); the issuer answers it. */
@Injectable()
export class SimulateAuthorization {
  constructor(
    private readonly rules: NetworkRules,
    private readonly reader: CardTransactionReader,
    private readonly authorizeCard: AuthorizeCard,
  ) {}

  async run(ctx: CallerContext, request: SimulateAuthorizationRequest): Promise<CardTransaction> {
    this.rules.assertSandbox(ctx);
    const card = await this.reader.requireCard(ctx.platformId, request.cardId);
    const { amount, currency } = inCardCurrency(card, request.currency, amountFromWire(request.amount));
    const id = newId('CardTransaction');
    const message: NetworkMessage = { id, token: issuerTokenOf(id), type: request.type, amount, currency, merchant: merchantOf(request.merchant) };
    return toCardTransaction(await this.authorizeCard.run(ctx, card, message));
  }
}
