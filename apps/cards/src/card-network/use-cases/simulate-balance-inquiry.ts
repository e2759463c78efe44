import { Injectable } from '@nestjs/common';
import { CallerContext, newId, SandboxCardSimulationResponse, SimulateBalanceInquiryRequest } from '@paykit/contracts';
import { AuthorizeCard } from './authorize-card';
import { CardTransactionReader } from './card-transaction-reader';
import { NetworkRules } from './issuer-rules';
import { cardCurrencyOf, issuerTokenOf, merchantOf, NetworkMessage } from './network-messages';

/** A zero-amount authorization: decided like any authorization (card state, descriptor table); no money moves. */
@Injectable()
export class SimulateBalanceInquiry {
  constructor(
    private readonly rules: NetworkRules,
    private readonly reader: CardTransactionReader,
    private readonly authorizeCard: AuthorizeCard,
  ) {}

  async run(ctx: CallerContext, request: SimulateBalanceInquiryRequest): Promise<SandboxCardSimulationResponse> {
    this.rules.assertSandbox(ctx);
    const card = await this.reader.requireCard(ctx.platformId, request.cardId);
    const id = newId('CardTransaction');
    const message: NetworkMessage = { id, token: issuerTokenOf(id), type: 'BALANCE_INQUIRY', amount: 0n, currency: cardCurrencyOf(card), merchant: merchantOf(request.merchant) };
    const entity = await this.authorizeCard.run(ctx, card, message);
    return { issuerTransactionToken: entity.issuerTransactionToken };
  }
}
