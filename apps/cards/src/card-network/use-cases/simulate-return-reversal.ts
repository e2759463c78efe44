import { Injectable } from '@nestjs/common';
import { CallerContext, SandboxCardSimulationResponse, SimulateReturnReversalRequest } from '@paykit/contracts';
import { TransactionRunner } from '@paykit/persistence';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { CardTransactionEntity } from '../entities/card-transaction.entity';
import { isAccountRefusal, isInsufficientFunds, LedgerClient } from '../ledger.client';
import { CardTransactionReader } from './card-transaction-reader';
import { CardTransactionWriter } from './card-transaction-writer';
import { NetworkRules, notAdjustable } from './issuer-rules';

/**
 * A return reversal undoes the returns of a REFUNDED debit: the refunded amount is taken from
 * the funding source again (a new hold, captured at once) and the transaction is SETTLED again
 * with nothing refunded. When the funding source no longer covers it, the transaction goes to
 * EXCEPTION (RETURN_REVERSAL_FAILED), the high-urgency alert, and stays refunded.
 */
@Injectable()
export class SimulateReturnReversal {
  constructor(
    private readonly rules: NetworkRules,
    private readonly reader: CardTransactionReader,
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly writer: CardTransactionWriter,
    private readonly ledger: LedgerClient,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(ctx: CallerContext, request: SimulateReturnReversalRequest): Promise<SandboxCardSimulationResponse> {
    this.rules.assertSandbox(ctx);
    const entity = await this.reader.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    if (entity.status !== 'REFUNDED' || entity.direction !== 'DEBIT') throw notAdjustable(entity, 'only a REFUNDED debit has a return to reverse');
    const sequence = await this.transactions.run((manager) => this.cardTransactions.reserveAdjustment(manager, ctx.platformId, entity.id, ['REFUNDED']));
    if (sequence === undefined) throw notAdjustable(entity, 'it changed meanwhile');
    const amount = entity.refundedAmount;
    let changes: Partial<CardTransactionEntity>;
    try {
      const hold = await this.ledger.hold(ctx, entity.id, `reversal-${sequence}`, entity.accountId, amount, entity.currency.code);
      await this.ledger.capture(ctx, entity.id, `reversal-${sequence}-capture`, hold.id, amount);
      // Later returns refund the reversal's capture, which holds the whole settled amount again.
      changes = { status: 'SETTLED', refundedAmount: 0n, holdId: hold.id };
    } catch (error) {
      if (!isInsufficientFunds(error) && !isAccountRefusal(error)) throw error;
      changes = {
        status: 'EXCEPTION',
        exception: { urgency: 'HIGH', reason: 'RETURN_REVERSAL_FAILED', message: `The reversed return of ${amount} could not be taken from the funding source` },
      };
    }
    await this.writer.finish(entity, ['REFUNDED'], changes);
    return { issuerTransactionToken: entity.issuerTransactionToken };
  }
}
