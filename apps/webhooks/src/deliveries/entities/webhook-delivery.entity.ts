import { Column, Entity, PrimaryColumn } from 'typeorm';
import { WebhookDeliveryStatus } from '@paykit/contracts';

/** One per event id (unique `event_id`), however often the bus delivers the event. */
@Entity({ name: 'webhook_delivery' })
export class WebhookDeliveryEntity {
  /** `Webhook:<uuid>`, also the payload's `id`. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  /** Receipt order: the log's sort key and the tie-break of per-resource ordering. */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'resource_id', type: 'text' })
  resourceId!: string;

  @Column({ type: 'text' })
  type!: string;

  /** The exact bytes every attempt sends. */
  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ type: 'text' })
  status!: WebhookDeliveryStatus;

  @Column({ name: 'attempt_count', type: 'integer' })
  attemptCount!: number;

  /** Consecutive failures since the round started (the first attempt, or the last manual redelivery). */
  @Column({ name: 'round_failures', type: 'integer' })
  roundFailures!: number;

  @Column({ name: 'round_started_at', type: 'timestamptz', nullable: true })
  roundStartedAt!: Date | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  @Column({ name: 'lease_token', type: 'uuid', nullable: true })
  leaseToken!: string | null;

  @Column({ name: 'redeliver_requested_at', type: 'timestamptz', nullable: true })
  redeliverRequestedAt!: Date | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
