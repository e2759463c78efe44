import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CARDS_WORK_EVENTS, CARDS_WORK_FILTER, CARDS_WORKER_CONSUMER } from '@paykit/contracts';
import { DeadLetterStore, Clock } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEvents } from '@paykit/transport';
import { ApplyAdvice } from './use-cases/apply-advice';
import { CompleteDelayedPull } from './use-cases/complete-delayed-pull';
import { IssuerMoney } from './use-cases/issuer-money';
import { ReconcileClosedCard } from './use-cases/reconcile-closed-card';

/**
 * The cards service's durable subscription to its own work queue: steps that call the
 * payments ledger run here, outside any transaction, at least once (each step is idempotent).
 * The bus spreads the work over replicas; nothing is kept in memory. A step that keeps failing
 * for a reason other than an outage is parked in the dead-letter table (`DeadLetterStore.guard`)
 * rather than holding up the work behind it.
 */
@Injectable()
export class CardNetworkWorker implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly completeDelayedPull: CompleteDelayedPull,
    private readonly reconcileClosedCard: ReconcileClosedCard,
    private readonly applyAdvice: ApplyAdvice,
    private readonly money: IssuerMoney,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(
      CARDS_WORKER_CONSUMER,
      CARDS_WORK_FILTER,
      this.clock.inPlatformTime(
        this.deadLetters.guard(
          CARDS_WORKER_CONSUMER,
          handleEvents({
            [CARDS_WORK_EVENTS.pullDue]: (event) => this.completeDelayedPull.run(event.platformId, event.data.cardTransactionId),
            [CARDS_WORK_EVENTS.cardClosed]: (event) => this.reconcileClosedCard.run(event.platformId, event.data.cardId),
            [CARDS_WORK_EVENTS.adviceReceived]: (event) => this.applyAdvice.run(event.platformId, event.data),
            [CARDS_WORK_EVENTS.authorizationInterrupted]: (event) => this.money.undoInterrupted(event.platformId, event.data),
          }),
        ),
      ),
    );
  }
}
