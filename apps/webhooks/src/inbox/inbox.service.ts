import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ALL_EVENTS_FILTER, CallerContext, DomainEvent, ReceivedEvent, WEBHOOKS_CONSUMER } from '@paykit/contracts';
import { EVENT_BUS, EventBus } from '@paykit/transport';
import { ReceivedEventEntity } from './entities/received-event.entity';

/**
 * The webhooks service's durable subscription to every service's events. Each event id is
 * stored once (the bus delivers at least once; repeats only bump a counter).
 */
@Injectable()
export class InboxService implements OnApplicationBootstrap {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.consume(WEBHOOKS_CONSUMER, ALL_EVENTS_FILTER, (event) => this.receive(event));
  }

  async receive(event: DomainEvent): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO received_event (event_id, subject, platform_id, resource_id, webhook_type, event)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (event_id) DO UPDATE SET redeliveries = received_event.redeliveries + 1`,
      [event.eventId, event.subject, event.platformId, event.resourceId, event.webhookType ?? null, JSON.stringify(event)],
    );
  }

  async list(ctx: CallerContext, resourceId?: string): Promise<ReceivedEvent[]> {
    const rows = await this.dataSource.getRepository(ReceivedEventEntity).find({
      where: { platformId: ctx.platformId, ...(resourceId ? { resourceId } : {}) },
      order: { receivedAt: 'ASC' },
      take: 500,
    });
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
