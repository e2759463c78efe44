import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { JobScheduler } from '@paykit/persistence';
import { ADVANCE_STABLECOIN_JOB, ADVANCE_STABLECOIN_OPERATION_JOB, EXPIRE_STABLECOIN_OPERATION_JOB } from '../stablecoins.jobs';
import { OperationRow } from '../stablecoins.repository';
import { FUNDING_WINDOW_MS, SANDBOX_PROVIDER_STEP_MS, StablecoinStep } from '../stablecoins.sandbox';

/** The provider's scheduled steps: a coin's review and enabling, an operation's next step, and a funding window's end. */
@Injectable()
export class StablecoinSteps {
  constructor(private readonly scheduler: JobScheduler) {}

  /** Schedules the first of a coin's `steps`, carrying the rest. */
  async scheduleCoin(manager: EntityManager, platformId: string, stablecoinId: string, steps: StablecoinStep[]): Promise<void> {
    const [step, ...next] = steps;
    if (!step) return;
    await this.scheduler.schedule(manager, {
      kind: ADVANCE_STABLECOIN_JOB,
      platformId,
      payload: { platformId, stablecoinId, step, next },
      delayMs: SANDBOX_PROVIDER_STEP_MS,
      sandboxDelay: true,
      dedupeKey: `${stablecoinId}:${step.issuanceStatus}:${step.serviceOperationsStatus}`,
    });
  }

  async scheduleOperation(manager: EntityManager, row: Pick<OperationRow, 'id' | 'platformId' | 'status'>): Promise<void> {
    await this.scheduler.schedule(manager, {
      kind: ADVANCE_STABLECOIN_OPERATION_JOB,
      platformId: row.platformId,
      payload: { platformId: row.platformId, operationId: row.id },
      delayMs: SANDBOX_PROVIDER_STEP_MS,
      sandboxDelay: true,
      dedupeKey: `${row.id}:${row.status}`,
    });
  }

  /** The end of a PENDING_FUNDING operation's funding window. */
  async scheduleExpiry(manager: EntityManager, row: Pick<OperationRow, 'id' | 'platformId'>): Promise<void> {
    await this.scheduler.schedule(manager, {
      kind: EXPIRE_STABLECOIN_OPERATION_JOB,
      platformId: row.platformId,
      payload: { platformId: row.platformId, operationId: row.id },
      delayMs: FUNDING_WINDOW_MS,
      sandboxDelay: true,
      dedupeKey: `${row.id}:expire`,
    });
  }
}
