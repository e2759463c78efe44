import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ServiceError } from '@paykit/errors';
import { Clock, JobScheduler } from '@paykit/persistence';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../../config/payments-config';
import { DECISION_DEADLINE_JOB } from '../incoming-payments.jobs';
import { IncomingPaymentsRepository, PaymentDecision } from '../incoming-payments.repository';

/** What a sandbox sender's institution asks of every receiver it pays. */
export const REQUESTED_RECEIVER_FIELDS = [
  { name: 'FULL_NAME', mandatory: true },
  { name: 'BIRTH_DATE', mandatory: false },
];

/** The platform's decision a received payment waits for: opened with its deadline, taken once (approved, rejected or timed out). */
@Injectable()
export class IncomingDecisions {
  constructor(
    private readonly decisions: IncomingPaymentsRepository,
    private readonly scheduler: JobScheduler,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    private readonly clock: Clock,
  ) {}

  /** The decision a new payment (received at `now`) waits for, and the job failing it at its deadline. */
  async open(manager: EntityManager, platformId: string, transactionId: string, now: Date): Promise<void> {
    const decideBy = new Date(now.getTime() + this.config.incomingApprovalWindowSeconds * 1000);
    await this.decisions.insert(manager, { transactionId, platformId, decideBy, requestedFields: REQUESTED_RECEIVER_FIELDS });
    await this.scheduler.schedule(manager, {
      kind: DECISION_DEADLINE_JOB,
      platformId,
      payload: { platformId, transactionId },
      delayMs: this.config.incomingApprovalWindowSeconds * 1000,
      dedupeKey: `${transactionId}:decision-deadline`,
    });
  }

  /** Takes the decision now, if it is still awaited and (a deadline's) due; undefined when it was not taken. */
  decide(
    manager: EntityManager,
    platformId: string,
    transactionId: string,
    status: 'APPROVED' | 'REJECTED' | 'TIMED_OUT',
    details?: Parameters<IncomingPaymentsRepository['decide']>[5],
  ): Promise<PaymentDecision | undefined> {
    return this.decisions.decide(manager, platformId, transactionId, status, this.clock.now(), details);
  }

  find(platformId: string, transactionId: string, manager: EntityManager): Promise<PaymentDecision | undefined> {
    return this.decisions.find(platformId, transactionId, manager);
  }

  /** Why a decision could not be taken: the payment waits for none, is past its deadline, or was decided already. */
  async notAwaiting(manager: EntityManager, platformId: string, transactionId: string): Promise<ServiceError> {
    const decision = await this.decisions.find(platformId, transactionId, manager);
    const state = !decision
      ? 'does not wait for the platform'
      : decision.status === 'AWAITING'
        ? 'is past its decision deadline'
        : `was already ${decision.status.toLowerCase().replace('_', ' ')}`;
    return new ServiceError(
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      `Transaction ${transactionId} ${state}`,
      decision ? { decision: decision.status, decideBy: decision.decideBy.toISOString() } : {},
    );
  }
}
