import { Injectable } from '@nestjs/common';
import { amountFromWire, amountToWire, CallerContext, SandboxSendRequest, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransactionReader } from '../../transfers/use-cases/transaction-reader';
import { QuoteExecution } from './quote-execution';
import { QuoteExecutionRun } from './quote-execution-run';
import { assertExecutable, QuoteReader } from './quote-reader';

/**
 * POST /sandbox/send: the funds a REALTIME_FUNDING quote's instructions ask for arrive, and the
 * quote executes by itself (the source leg comes from external clearing).
 */
@Injectable()
export class SandboxSend {
  constructor(
    private readonly reader: QuoteReader,
    private readonly execution: QuoteExecution,
    private readonly executionRun: QuoteExecutionRun,
    private readonly transactions: TransactionRunner,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly transactionReader: TransactionReader,
    private readonly sandbox: SandboxRules,
  ) {}

  async run(ctx: CallerContext, request: SandboxSendRequest): Promise<Transaction> {
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'Sandbox payments take a sandbox token');
    const quote = await this.reader.require(ctx.platformId, request.quoteId);
    if (quote.sourceType !== 'REALTIME_FUNDING') {
      throw ServiceError.invalidInput([
        { field: 'quoteId', message: 'only a REALTIME_FUNDING quote is paid by its instructions; execute this one with POST /quotes/{id}/execute' },
      ]);
    }
    if (request.currencyCode !== quote.sourceCurrency) {
      throw new ServiceError('INVALID_CURRENCY', `Quote ${quote.id} is funded in ${quote.sourceCurrency}`, { field: 'currencyCode' });
    }
    if (request.currencyAmount !== undefined && amountFromWire(request.currencyAmount) !== quote.sendingAmount) {
      throw new ServiceError('INVALID_AMOUNT', `Quote ${quote.id} is funded with exactly ${quote.sendingAmount}`, {
        field: 'currencyAmount',
        totalSendingAmount: amountToWire(quote.sendingAmount),
      });
    }
    const now = this.reader.now();
    assertExecutable(quote, now);
    return this.executionRun.explainingRefusal(ctx, quote, now, () =>
      this.transactions.run(async (manager) => {
        const executed = await this.execution.within(manager, ctx, quote, true, now);
        return this.transactionReader.toResource((await this.transactionsRepo.findById(ctx.platformId, executed.transactionId, manager))!);
      }),
    );
  }
}
