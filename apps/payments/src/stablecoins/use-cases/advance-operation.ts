import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, JobScheduler } from '@paykit/persistence';
import { InternalAccountsService } from '../../internal-accounts/internal-accounts.service';
import { LedgerService } from '../../ledger/ledger.service';
import { ADVANCE_STABLECOIN_OPERATION_JOB } from '../stablecoins.jobs';
import { StablecoinsRepository } from '../stablecoins.repository';
import { operationFailure } from '../stablecoins.sandbox';
import { OperationPostings } from './operation-postings';
import { StablecoinReader } from './stablecoin-reader';
import { StablecoinSteps } from './stablecoin-steps';

/**
 * The provider's next step: PENDING_PROVIDER to PROCESSING, then PROCESSING to COMPLETED (the
 * entries post) or FAILED (a hold returns). Each is one conditional update, so a step that runs
 * twice applies once.
 */
@Injectable()
export class AdvanceOperation implements OnModuleInit {
  constructor(
    private readonly scheduler: JobScheduler,
    private readonly stablecoins: StablecoinsRepository,
    private readonly reader: StablecoinReader,
    private readonly steps: StablecoinSteps,
    private readonly postings: OperationPostings,
    private readonly ledgerService: LedgerService,
    private readonly internalAccounts: InternalAccountsService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(ADVANCE_STABLECOIN_OPERATION_JOB, (payload, manager) => this.run(manager, payload.platformId, payload.operationId));
  }

  async run(manager: EntityManager, platformId: string, operationId: string): Promise<void> {
    const current = await this.stablecoins.findOperation(platformId, operationId, manager);
    if (!current) return;
    const now = this.clock.now();
    if (current.status === 'PENDING_PROVIDER') {
      const moved = await this.stablecoins.moveOperation(manager, platformId, operationId, ['PENDING_PROVIDER'], { status: 'PROCESSING', providerStatus: 'processing' }, now);
      if (moved) await this.steps.scheduleOperation(manager, moved);
      return;
    }
    if (current.status !== 'PROCESSING') return;
    const coin = await this.reader.requireStablecoin(platformId, current.stablecoinId, manager);
    const failure = operationFailure(coin.environment === 'SANDBOX', current.outcomeKey);
    if (failure) {
      const failed = await this.stablecoins.moveOperation(
        manager,
        platformId,
        operationId,
        ['PROCESSING'],
        { status: 'FAILED', providerStatus: failure, failureReason: current.operationType === 'MINT' ? 'FUNDING_FAILED' : 'PAYOUT_FAILED' },
        now,
      );
      if (failed && current.holdId) {
        await this.ledgerService.releaseWithin(manager, platformId, current.holdId, `${operationId}:release`);
        await this.internalAccounts.announceBalance(manager, platformId, current.source.accountId!);
      }
      return;
    }
    const completed = await this.stablecoins.moveOperation(manager, platformId, operationId, ['PROCESSING'], { status: 'COMPLETED', providerStatus: 'complete' }, now);
    if (completed) await this.postings.post(manager, coin, completed);
  }
}
