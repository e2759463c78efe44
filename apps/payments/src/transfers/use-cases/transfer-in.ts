import { Injectable } from '@nestjs/common';
import { CallerContext, Transaction, TransferInMessage } from '@paykit/contracts';
import { CheckTransfer } from './check-transfer';
import { MoveTransfer } from './move-transfer';
import { incoming } from './transfer-request';

/** POST /transfer-in: money pulled from the owner's external account into an internal account. */
@Injectable()
export class TransferIn {
  constructor(
    private readonly check: CheckTransfer,
    private readonly move: MoveTransfer,
  ) {}

  async run(ctx: CallerContext, request: TransferInMessage): Promise<Transaction> {
    const checked = await this.check.run(ctx, incoming(request));
    return 'earlier' in checked ? checked.earlier : this.move.run(ctx, checked);
  }
}
