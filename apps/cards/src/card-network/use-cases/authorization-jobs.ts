import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { amountToWire, AuthorizationInterruptedData, CallerContext, CARDS_WORK_EVENTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { JobScheduler, Outbox, ScheduleRequest, StatementBatcher } from '@paykit/persistence';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { DELAYED_PULL_JOB, INTERRUPTED_AUTHORIZATION_JOB, InterruptedAuthorizationJob } from '../card-network.jobs';
import { interruptionKeyOf } from '../card-transactions.repository';
import { CardTransactionEntity } from '../entities/card-transaction.entity';
import { MAX_RECORDING_BATCH, RECORDINGS_IN_FLIGHT } from './card-transaction-writer';

/**
 * How long after its money step starts an unrecorded authorization counts as interrupted, in RPC
 * timeouts: by then its caller has had an error, and the ledger call has long answered or failed.
 */
const INTERRUPTED_AFTER_RPC_TIMEOUTS = 3;

/**
 * The scheduled jobs of authorizations: a delayed pull (descriptor 005) and the undo of an
 * interrupted authorization. Each job only enqueues its work: the ledger call runs in the worker,
 * outside any transaction.
 */
@Injectable()
export class AuthorizationJobs implements OnModuleInit, BeforeApplicationShutdown {
  /** Interruption jobs of authorizations about to move money, committed before the ledger call, many in one statement. */
  private readonly interruptions = new StatementBatcher<ScheduleRequest<InterruptedAuthorizationJob>, void>({
    maxInFlight: RECORDINGS_IN_FLIGHT,
    maxBatch: MAX_RECORDING_BATCH,
    keyOf: (request) => request.dedupeKey!,
    run: async (batch) => {
      await this.scheduler.scheduleBatch(batch);
      return batch.map(() => undefined);
    },
  });

  constructor(
    private readonly scheduler: JobScheduler,
    private readonly outbox: Outbox,
    @Inject(RUNTIME_CONFIG) private readonly config: RuntimeConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(DELAYED_PULL_JOB, async ({ platformId, cardTransactionId }, manager) => {
      await this.outbox.add(manager, { subject: CARDS_WORK_EVENTS.pullDue, platformId, resourceId: cardTransactionId, data: { cardTransactionId } });
    });
    this.scheduler.register(INTERRUPTED_AUTHORIZATION_JOB, async ({ platformId, data }, manager) => {
      await this.outbox.add(manager, { subject: CARDS_WORK_EVENTS.authorizationInterrupted, platformId, resourceId: data.cardTransactionId, data });
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.interruptions.close(new ServiceError('SERVICE_UNAVAILABLE', 'The cards service is stopping'));
  }

  /** The delayed pull of a new authorization, scheduled in the transaction recording it. */
  async scheduleDelayedPull(manager: EntityManager, ctx: CallerContext, cardTransactionId: string, delayMs: number): Promise<void> {
    await this.scheduler.schedule(manager, {
      kind: DELAYED_PULL_JOB,
      platformId: ctx.platformId,
      payload: { platformId: ctx.platformId, cardTransactionId },
      delayMs,
      sandboxDelay: true,
      dedupeKey: `${cardTransactionId}:pull`,
    });
  }

  /** The interruption job of an authorization about to move money, committed (batched with others) before it returns: what its undo needs. */
  async scheduleInterruption(ctx: CallerContext, entity: CardTransactionEntity): Promise<AuthorizationInterruptedData> {
    const data: AuthorizationInterruptedData = {
      cardTransactionId: entity.id,
      environment: ctx.environment,
      accountId: entity.accountId,
      amount: amountToWire(entity.authorizedAmount),
      currency: entity.currency.code,
    };
    await this.interruptions.add({
      kind: INTERRUPTED_AUTHORIZATION_JOB,
      payload: { platformId: ctx.platformId, data },
      delayMs: INTERRUPTED_AFTER_RPC_TIMEOUTS * this.config.rpcTimeoutMs,
      dedupeKey: interruptionKeyOf(entity.id),
    });
    return data;
  }
}
