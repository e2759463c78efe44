import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ALL_EVENTS_FILTER, CallerContext, currentWebhookType, DomainEvent, newId, ReceivedEvent, WEBHOOKS_CONSUMER } from '@paykit/contracts';
import { Clock, DeadLetterStore, TransientFailure } from '@paykit/persistence';
import { EVENT_BUS, EventBus } from '@paykit/transport';
import { webhookBody } from '../deliveries/delivery.mapper';
import { LeaseTerms } from '../deliveries/deliveries.repository';
import { DeliveryWorker } from '../deliveries/delivery.worker';
import { InboxRepository } from './inbox.repository';

/**
 * Events stored by one statement, at most: the statement's planning and commit cost more than
 * storing a row, so the bus hands over what has arrived together (in stream order) as one batch.
 */
const RECEIVE_BATCH = 100;

/** Terms under which the statement leases nothing. */
function nothingToLease(): LeaseTerms {
  const now = Clock.real();
  return { now, leaseToken: '00000000-0000-0000-0000-000000000000', leaseUntil: now, perPlatform: 0, limit: 0, answered: [] };
}

/**
 * The webhooks service's durable subscription to every service's events. The bus delivers
 * at least once; this is where repeats stop. An event is acknowledged once its batch committed.
 */
@Injectable()
export class InboxService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private accepting = false;
  /** Batches being stored: finished before the database closes. */
  private readonly storing = new Set<Promise<void>>();

  constructor(
    private readonly inbox: InboxRepository,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly worker: DeliveryWorker,
    private readonly deadLetters: DeadLetterStore,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.accepting = true;
    await this.bus.consumeBatches(
      WEBHOOKS_CONSUMER,
      ALL_EVENTS_FILTER,
      this.deadLetters.guardBatch(WEBHOOKS_CONSUMER, (events) => this.receive(events)),
      { maxBatch: RECEIVE_BATCH },
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Refused events stay with the bus (unacknowledged) until a running instance takes them;
    // batches being stored finish before the database closes.
    this.accepting = false;
    await Promise.allSettled([...this.storing]);
  }

  /** Stores a batch of events (in stream order) in one statement; an event delivered again, even within the batch, is stored once. */
  receive(events: DomainEvent[]): Promise<void> {
    if (!this.accepting) return Promise.reject(new TransientFailure('The webhooks service is stopping'));
    const stored = this.store([...new Map(events.map((event) => [event.eventId, event])).values()]);
    this.storing.add(stored);
    return stored.finally(() => this.storing.delete(stored));
  }

  /** Stores the events and their deliveries; those that can go out at once start now, the worker looks for the others. */
  private store(events: DomainEvent[]): Promise<void> {
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
      if (stored.some((row) => row.status === 'PENDING' && !row.leased)) this.worker.lookSoon();
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
      return { leased, result: undefined };
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
