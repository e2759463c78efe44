import { Injectable } from '@nestjs/common';
import { CallerContext, StablecoinOperation } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, TransactionRunner } from '@paykit/persistence';
import { StablecoinsRepository } from '../stablecoins.repository';
import { StablecoinReader } from './stablecoin-reader';
import { toOperation } from './stablecoin-resources';
import { StablecoinSteps } from './stablecoin-steps';

/** Sandbox simulator: the provider reports the external funds of a PENDING_FUNDING operation received. */
@Injectable()
export class FundOperation {
  constructor(
    private readonly stablecoins: StablecoinsRepository,
    private readonly reader: StablecoinReader,
    private readonly steps: StablecoinSteps,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async run(ctx: CallerContext, id: string): Promise<StablecoinOperation> {
    const current = await this.stablecoins.findOperation(ctx.platformId, id);
    if (!current) throw new ServiceError('REFERENCE_NOT_FOUND', `Stablecoin operation ${id} not found`, { stablecoinOperationId: id });
    const moved = await this.transactions.run(async (manager) => {
      const row = await this.stablecoins.moveOperation(
        manager,
        ctx.platformId,
        id,
        ['PENDING_FUNDING'],
        { status: 'PENDING_PROVIDER', providerStatus: 'funds_received' },
        this.clock.now(),
      );
      if (row) await this.steps.scheduleOperation(manager, row);
      return row;
    });
    if (!moved) {
      throw new ServiceError('INVALID_STATE_TRANSITION', `Stablecoin operation ${id} is ${current.status}: only a PENDING_FUNDING operation receives funds`, {
        status: current.status,
      });
    }
    return toOperation(moved, await this.reader.requireStablecoin(ctx.platformId, moved.stablecoinId));
  }
}
