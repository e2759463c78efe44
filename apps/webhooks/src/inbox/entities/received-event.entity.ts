import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DomainEvent } from '@paykit/contracts';

/** One row per event id, however often the bus delivers it: the deduplication point. */
@Entity({ name: 'received_event' })
export class ReceivedEventEntity {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'resource_id', type: 'text' })
  resourceId!: string;

  @Column({ name: 'webhook_type', type: 'text', nullable: true })
  webhookType!: string | null;

  @Column({ type: 'jsonb' })
  event!: DomainEvent;

  @Column({ name: 'received_at', type: 'timestamptz', insert: false, update: false })
  receivedAt!: Date;

  @Column({ type: 'integer', default: 0 })
  redeliveries!: number;
}
