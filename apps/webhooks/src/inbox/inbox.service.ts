import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ALL_EVENTS_FILTER, CallerContext, currentWebhookType, DomainEvent, newId, ReceivedEvent, WEBHOOKS_CONSUMER } from '@paykit/contracts';
import { DeadLetterStore, StatementBatcher, TransientFailure } from '@paykit/persistence';
import { EVENT_BUS, EventBus } from '@paykit/transport';
import { webhookBody } from '../deliveries/delivery.mapper';
import { LeaseTerms } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery.worker';
import { InboxRepository } from './inbox.repository';

/**
 * Events handled at once (the bus keeps each resource's events in order); those that arrive
 * together are stored by one statement, at most this many.
 */
const RECEIVE_CONCURRENCY = 64;

/**
 * How long a received event waits for others to share its statement. The statement's planning
 * and commit cost more than storing a row (measured: 3 ms a statement, about five events each
 * when sent at once under 1,000 events/s), and a delivery has half a second to spare.
 */
const RECEIVE_GATHER_MS = 20;

/** Terms under which the statement leases nothing. */
function nothingToLease(): LeaseTerms {
  const now = new Date();
  return { now, leaseToken: '00000000-0000-0000-0000-000000000000', leaseUntil: now, perPlatform: 0, limit: 0, answered: [] };
}

/**
 * The webhooks service's durable subscription to every service's events. The bus delivers
 * at least once; this is where repeats stop. An event is acknowledged once its batch committed.
 */
@Injectable()
export class InboxService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private accepting = false;
  private readonly receipts = new StatementBatcher<DomainEvent, void>({
    run: (events) => this.store(events),
    keyOf: (event) => event.eventId,
    maxBatch: RECEIVE_CONCURRENCY,
    maxInFlight: 2,
    gatherMs: RECEIVE_GATHER_MS,
  });

  constructor(
    private readonly inbox: InboxRepository,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly worker: DeliveryWorker,
    private readonly deadLetters: DeadLetterStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.accepting = true;
    await this.bus.consume(
      WEBHOOKS_CONSUMER,
      ALL_EVENTS_FILTER,
      this.deadLetters.guard(WEBHOOKS_CONSUMER, (event) => this.receive(event)),
      { concurrency: RECEIVE_CONCURRENCY },
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Refused events stay with the bus (unacknowledged) until a running instance takes them;
    // batches being stored finish before the database closes.
    this.accepting = false;
    await this.receipts.close(new TransientFailure('The webhooks service is stopping'));
  }

  receive(event: DomainEvent): Promise<void> {
    if (!this.accepting) return Promise.reject(new TransientFailure('The webhooks service is stopping'));
    return this.receipts.add(event);
  }

  /** Stores the events and their deliveries; those that can go out at once start now, the worker looks for the others. */
  private store(events: DomainEvent[]): Promise<void[]> {
    const rows = events.map((event, ord) => {
      const deliveryId = newId('Webhook');
      // An event written before its webhook type was renamed goes out under the current name.
      const webhookType = event.webhookType ? currentWebhookType(event.webhookType) : undefined;
      return {
        ord,
        event_id: event.eventId,
        subject: event.subject,
        platform_id: event.platformId,
        resource_id: event.resourceId,
        webhook_type: webhookType ?? null,
        event,
        delivery_id: deliveryId,
        // The payload's `timestamp` is when the event happened; `data` is the resource as its GET returns it.
        body: webhookType ? webhookBody({ id: deliveryId, type: webhookType, timestamp: event.occurredAt, data: event.data }) : null,
        occurred_at: event.occurredAt,
      };
    });
    const batch = JSON.stringify(rows);
    const storeAndLease = async (terms: LeaseTerms) => {
      const stored = await this.inbox.storeAndLease(batch, terms);
      if (stored.some((row) => row.status === 'PENDING' && !row.leased)) this.worker.kick();
      const leased = stored
        .filter((row) => row.leased)
        .map((row) => ({
          id: row.id,
          platformId: row.platform_id,
          type: row.type,
          body: row.body,
          endpointUrl: row.endpoint_url,
          redeliverRequestedAt: null,
          roundFailures: 0,
          roundStartedAt: null,
        }));
      return { leased, result: events.map(() => undefined) };
    };
    // Events the platform is not told about make no delivery: their batch need not wait its turn to lease.
    if (events.some((event) => event.webhookType)) return this.worker.lease(storeAndLease);
    return storeAndLease(nothingToLease()).then(({ result }) => result);
  }

  async list(ctx: CallerContext, resourceId?: string): Promise<ReceivedEvent[]> {
    const rows = await this.inbox.list(ctx.platformId, resourceId);
    return rows.map((row) => ({
      eventId: row.eventId,
      subject: row.subject,
      ...(row.webhookType ? { webhookType: row.webhookType } : {}),
      resourceId: row.resourceId,
      receivedAt: row.receivedAt.toISOString(),
      redeliveries: row.redeliveries,
    }));
  }
}
