import { Injectable } from '@nestjs/common';
import { amountFromWire, CallerContext, CardTransaction, SimulateClearingRequest } from '@paykit/contracts';
import { toCardTransaction } from '../card-transaction.mapper';
import { CardTransactionReader } from './card-transaction-reader';
import { IssuerMoney } from './issuer-money';
import { NetworkRules, notClearable } from './issuer-rules';

/**
 * The simulated network clears an authorization: an open one settles (its hold captured; an
 * amount of 0 expires it), an expired one is force-posted; anything else is refused.
 */
@Injectable()
export class SimulateClearing {
  constructor(
    private readonly rules: NetworkRules,
    private readonly reader: CardTransactionReader,
    private readonly money: IssuerMoney,
  ) {}

  async run(ctx: CallerContext, request: SimulateClearingRequest): Promise<CardTransaction> {
    this.rules.assertSandbox(ctx);
    const entity = await this.reader.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    const amount = amountFromWire(request.amount);
    if (entity.type !== 'AUTHORIZATION') throw notClearable(entity, `a ${entity.type} is not cleared separately`);
    const open = (entity.status === 'CONFIRMED' || entity.status === 'EXCEPTION') && entity.holdId !== null && entity.settledAt === null;
    if (open) {
      if (amount === 0n) return toCardTransaction(await this.money.expire(ctx, entity, 'AUTHORIZATION_EXPIRY', ['CONFIRMED', 'EXCEPTION']));
      return toCardTransaction(await this.money.settle(ctx, entity, amount));
    }
    // A clearing after the authorization ended (card closed, or expired): the force-post path.
    if (entity.status === 'EXPIRED' && amount > 0n) return toCardTransaction(await this.money.forcePost(ctx, entity, amount));
    throw notClearable(entity, amount === 0n ? 'there is no open authorization to expire' : `it is ${entity.status}`);
  }
}
