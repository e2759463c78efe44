import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { JobScheduler, Statement } from '@paykit/persistence';
import { ADVANCE_TRANSFER_JOB, AdvanceTransferJob } from '../transfers.jobs';
import { TransferStep } from '../transfers.sandbox';

/** A transfer's scheduled steps: the first of them is scheduled carrying the rest, so a transfer's steps never overtake each other. */
@Injectable()
export class TransferSteps {
  constructor(private readonly scheduler: JobScheduler) {}

  /** The statement scheduling the first of `steps`; none when no step is left. */
  statements(platformId: string, transactionId: string, steps: TransferStep[]): Statement[] {
    const job = stepJob(platformId, transactionId, steps);
    return job ? [this.scheduler.scheduleStatement([job])] : [];
  }

  /** Schedules the first of `steps` in the caller's transaction. */
  async schedule(manager: EntityManager, platformId: string, transactionId: string, steps: TransferStep[]): Promise<void> {
    const job = stepJob(platformId, transactionId, steps);
    if (job) await this.scheduler.schedule(manager, job);
  }
}

/** The job of the first of `steps`, carrying the rest; none when no step is left. */
function stepJob(platformId: string, transactionId: string, steps: TransferStep[]) {
  const [step, ...rest] = steps;
  if (!step) return undefined;
  const payload: AdvanceTransferJob = { platformId, transactionId, status: step.status, ...(step.failureReason ? { failureReason: step.failureReason } : {}), next: rest };
  return { kind: ADVANCE_TRANSFER_JOB, platformId, payload, delayMs: step.delayMs, sandboxDelay: true, dedupeKey: `${transactionId}:${step.status}` };
}
