import { Injectable } from '@nestjs/common';
import { amountFromWire, amountToWire, CallerContext, CardTransaction, SimulateReturnRequest } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { TransactionRunner } from '@paykit/persistence';
import { toCardTransaction } from '../card-transaction.mapper';
import { CardTransactionsRepository } from '../card-transactions.repository';
import { LedgerClient } from '../ledger.client';
import { CardTransactionReader } from './card-transaction-reader';
import { CardTransactionWriter } from './card-transaction-writer';
import { NetworkRules } from './issuer-rules';

/** The simulated network returns (part of) a settled debit: refunded on the ledger, REFUNDED once nothing is left. */
@Injectable()
export class SimulateReturn {
  constructor(
    private readonly rules: NetworkRules,
    private readonly reader: CardTransactionReader,
    private readonly cardTransactions: CardTransactionsRepository,
    private readonly writer: CardTransactionWriter,
    private readonly ledger: LedgerClient,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(ctx: CallerContext, request: SimulateReturnRequest): Promise<CardTransaction> {
    this.rules.assertSandbox(ctx);
    const entity = await this.reader.requireTransactionOfCard(ctx.platformId, request.cardId, request.cardTransactionId);
    if (entity.direction !== 'DEBIT' || entity.status !== 'SETTLED' || entity.holdId === null) {
      throw new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} is ${entity.status} ${entity.direction}; only a settled debit can be returned`);
    }
    const amount = amountFromWire(request.amount);
    // The reservation keeps concurrent returns within the settled amount.
    const sequence = await this.transactions.run((manager) => this.cardTransactions.reserveReturn(manager, ctx.platformId, entity.id, amount));
    if (sequence === undefined) {
      const current = (await this.cardTransactions.findById(ctx.platformId, entity.id))!;
      if (current.status !== 'SETTLED') throw new ServiceError('INVALID_STATE_TRANSITION', `Card transaction ${entity.id} is ${current.status}`);
      const left = current.settledAmount - current.refundedAmount;
      throw new ServiceError('AMOUNT_OUT_OF_RANGE', `At most ${left} is left to return on card transaction ${entity.id}`, { field: 'amount', maximum: amountToWire(left) });
    }
    try {
      await this.ledger.refund(ctx, entity.id, sequence, entity.holdId, amount);
    } catch (error) {
      // Compensation: the reservation is given back when the ledger refused the refund.
      await this.transactions.run((manager) => this.cardTransactions.cancelReturn(manager, ctx.platformId, entity.id, amount));
      throw error;
    }
    return toCardTransaction(
      await this.transactions.run(async (manager) => {
        const current = (await this.cardTransactions.findById(ctx.platformId, entity.id, manager))!;
        const full = current.refundedAmount === current.settledAmount;
        const next = full ? ((await this.cardTransactions.transition(manager, current, ['SETTLED'], { status: 'REFUNDED' })) ?? current) : current;
        await this.writer.announce(manager, next);
        return next;
      }),
    );
  }
}
