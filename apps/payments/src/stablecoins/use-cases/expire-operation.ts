import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, JobScheduler } from '@paykit/persistence';
import { EXPIRE_STABLECOIN_OPERATION_JOB } from '../stablecoins.jobs';
import { StablecoinsRepository } from '../stablecoins.repository';

/** A PENDING_FUNDING operation whose funds did not arrive in its window expires (EXPIRE_STABLECOIN_OPERATION_JOB). */
@Injectable()
export class ExpireOperation implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly stablecoins: StablecoinsRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(EXPIRE_STABLECOIN_OPERATION_JOB, async (payload, manager) => {
      await this.stablecoins.moveOperation(
        manager,
        payload.platformId,
        payload.operationId,
        ['PENDING_FUNDING'],
        { status: 'EXPIRED', providerStatus: 'expired' },
        this.clock.now(),
      );
    });
  }
}
