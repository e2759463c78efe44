import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DomainEvent } from '@paykit/contracts';

@Entity({ name: 'outbox_event' })
export class OutboxEventEntity {
  @PrimaryColumn({ type: 'bigint', generated: 'identity', insert: false, update: false })
  seq!: string;

  @Column({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'jsonb' })
  event!: DomainEvent;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil!: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** The W3C traceparent of the work that wrote the event (null when tracing is off). */
  @Column({ name: 'trace_context', type: 'text', nullable: true })
  traceContext!: string | null;
}
