import { Injectable } from '@nestjs/common';
import { amountFromWire, CallerContext, SandboxCardSimulationResponse, SimulateAuthorizationAdviceRequest } from '@paykit/contracts';
import { TransactionRunner } from '@paykit/persistence';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { isAccountRefusal, isInsufficientFunds, LedgerClient } from '../ledger.client';
import { CardTransactionReader } from './card-transaction-reader';
import { CardTransactionWriter } from './card-transaction-writer';
import { isOpenAuthorization, NetworkRules, notAdjustable } from './issuer-rules';

/**
 * An authorization advice re-sizes an open authorization to a new total. The network does not
 * ask: the new total is recorded whatever the balance. Its hold follows when the funds allow (a
 * new hold for the total is placed first, then the old one released); otherwise the old hold
 * stays and the clearing pulls the difference (the over-authorization path).
 */
@Injectable()
export class SimulateAuthorizationAdvice {
  constructor(
    private readonly rules: NetworkRules,
    private readonly reader: CardTransactionReader,
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly writer: CardTransactionWriter,
    private readonly ledger: LedgerClient,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(ctx: CallerContext, request: SimulateAuthorizationAdviceRequest): Promise<SandboxCardSimulationResponse> {
    this.rules.assertSandbox(ctx);
    const entity = await this.reader.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    if (!isOpenAuthorization(entity)) throw notAdjustable(entity, 'only an open authorization (CONFIRMED, not yet cleared) can be re-sized');
    const amount = amountFromWire(request.amount);
    if (amount === entity.authorizedAmount) return { issuerTransactionToken: entity.issuerTransactionToken };
    const sequence = await this.transactions.run((manager) => this.cardTransactions.reserveAdjustment(manager, ctx.platformId, entity.id, ['CONFIRMED', 'EXCEPTION']));
    if (sequence === undefined) throw notAdjustable(entity, 'it changed meanwhile');
    let holdId = entity.holdId!;
    try {
      const hold = await this.ledger.hold(ctx, entity.id, `advice-${sequence}`, entity.accountId, amount, entity.currency.code);
      holdId = hold.id;
    } catch (error) {
      if (!isInsufficientFunds(error) && !isAccountRefusal(error)) throw error;
    }
    const resized = await this.transactions.run(async (manager) => {
      const next = await this.cardTransactions.transition(manager, entity, ['CONFIRMED', 'EXCEPTION'], { authorizedAmount: amount, holdId });
      if (next) await this.writer.announce(manager, next);
      return next;
    });
    if (!resized) {
      // Cleared or expired meanwhile: the new hold goes back, the authorization keeps its own.
      if (holdId !== entity.holdId) await this.ledger.release(ctx, entity.id, holdId, `advice-${sequence}-release`);
      throw notAdjustable(entity, 'it changed meanwhile');
    }
    if (holdId !== entity.holdId) await this.ledger.release(ctx, entity.id, entity.holdId!, `advice-${sequence}-release`);
    return { issuerTransactionToken: entity.issuerTransactionToken };
  }
}
