import { Injectable } from '@nestjs/common';
import { CallerContext, ConfirmReceiptDeliveryMessage, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock } from '@paykit/persistence';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransactionReader } from '../../transfers/use-cases/transaction-reader';

/** POST /transactions/{id}/confirm: the receipt was delivered (at the time given, or now). */
@Injectable()
export class ConfirmReceipt {
  constructor(
    private readonly transactionsRepo: TransactionsRepository,
    private readonly reader: TransactionReader,
    private readonly clock: Clock,
  ) {}

  async run(ctx: CallerContext, request: ConfirmReceiptDeliveryMessage): Promise<Transaction> {
    const at = request.receiptDeliveryConfirmedAt ? new Date(request.receiptDeliveryConfirmedAt) : this.clock.now();
    const updated = await this.transactionsRepo.confirmReceipt(ctx.platformId, request.transactionId, at);
    if (!updated) throw new ServiceError('TRANSACTION_NOT_FOUND', `Transaction ${request.transactionId} not found`);
    return this.reader.toResource(updated);
  }
}
