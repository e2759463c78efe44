import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AdviceReceivedData, AuthorizationInterruptedData, CardClosedData, CARDS_WORK_EVENTS, CARDS_WORK_FILTER, CARDS_WORKER_CONSUMER, DomainEvent, PullDueData } from '@paykit/contracts';
import { EVENT_BUS, EventBus } from '@paykit/transport';
import { CardNetworkService } from './card-network.service';

/**
 * The cards service's durable subscription to its own work queue: steps that call the
 * payments ledger run here, outside any transaction, at least once (each step is idempotent).
 * The bus spreads the work over replicas; nothing is kept in memory.
 */
@Injectable()
export class CardNetworkWorker implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly network: CardNetworkService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(CARDS_WORKER_CONSUMER, CARDS_WORK_FILTER, (event) => this.receive(event));
  }

  async receive(event: DomainEvent): Promise<void> {
    switch (event.subject) {
      case CARDS_WORK_EVENTS.pullDue:
        return this.network.completeDelayedPull(event.platformId, (event.data as PullDueData).cardTransactionId);
      case CARDS_WORK_EVENTS.cardClosed:
        return this.network.reconcileClosedCard(event.platformId, (event.data as CardClosedData).cardId);
      case CARDS_WORK_EVENTS.adviceReceived:
        return this.network.applyAdvice(event.platformId, event.data as AdviceReceivedData);
      case CARDS_WORK_EVENTS.authorizationInterrupted:
        return this.network.undoInterrupted(event.platformId, event.data as AuthorizationInterruptedData);
      default:
        return;
    }
  }
}
