import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CARDS_WORK_EVENTS, CARDS_WORK_FILTER, CARDS_WORKER_CONSUMER } from '@paykit/contracts';
import { DeadLetterStore, Clock } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEvents } from '@paykit/transport';
import { CardNetworkService } from './card-network.service';

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
    private readonly network: CardNetworkService,
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
            [CARDS_WORK_EVENTS.pullDue]: (event) => this.network.completeDelayedPull(event.platformId, event.data.cardTransactionId),
            [CARDS_WORK_EVENTS.cardClosed]: (event) => this.network.reconcileClosedCard(event.platformId, event.data.cardId),
            [CARDS_WORK_EVENTS.adviceReceived]: (event) => this.network.applyAdvice(event.platformId, event.data),
            [CARDS_WORK_EVENTS.authorizationInterrupted]: (event) => this.network.undoInterrupted(event.platformId, event.data),
          }),
        ),
      ),
    );
  }
}
