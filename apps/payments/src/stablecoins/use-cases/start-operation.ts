import { Injectable } from '@nestjs/common';
import { CallerContext, StablecoinOperation } from '@paykit/contracts';
import { IdempotencyStore } from '@paykit/persistence';
import { InternalAccountWithBalance } from '../../internal-accounts/entities/internal-account.entity';
import { InternalAccountsService } from '../../internal-accounts/internal-accounts.service';
import { LedgerService, NEW_MOVEMENT_STATUSES } from '../../ledger/ledger.service';
import { OperationRow, StablecoinRow, StablecoinsRepository } from '../stablecoins.repository';
import { toOperation } from './stablecoin-resources';
import { StablecoinSteps } from './stablecoin-steps';

/** A validated, converted operation before it is written. */
export interface PlannedOperation {
  row: OperationRow;
  /** The internal account paying (held now, captured on completion), if any. */
  payer?: { account: InternalAccountWithBalance; amount: bigint };
}

/** The last step of a mint and a burn. */
@Injectable()
export class StartOperation {
  constructor(
    private readonly stablecoins: StablecoinsRepository,
    private readonly steps: StablecoinSteps,
    private readonly ledgerService: LedgerService,
    private readonly internalAccounts: InternalAccountsService,
    private readonly idempotency: IdempotencyStore,
  ) {}

  /** Writes the operation with the payer's hold (the money is set aside now) and its first job, under the Idempotency-Key. */
  run(ctx: CallerContext, coin: StablecoinRow, planned: PlannedOperation, idempotencyKey: string, hash: string): Promise<StablecoinOperation> {
    const { row, payer } = planned;
    return this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
      if (payer) {
        await this.ledgerService.lockAccountWithin(manager, ctx.platformId, payer.account.id, NEW_MOVEMENT_STATUSES);
        const held = await this.ledgerService.holdWithin(manager, ctx.platformId, payer.account, payer.amount, `${row.id}:hold`, row.id);
        row.holdId = held?.hold.id ?? null;
        await this.internalAccounts.announceBalance(manager, ctx.platformId, payer.account.id);
      }
      await this.stablecoins.insertOperation(manager, row);
      if (row.status === 'PENDING_FUNDING') {
        await this.steps.scheduleExpiry(manager, row);
      } else {
        await this.steps.scheduleOperation(manager, row);
      }
      return toOperation(row, coin);
    });
  }
}
