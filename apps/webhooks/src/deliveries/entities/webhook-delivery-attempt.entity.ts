import { Column, Entity, PrimaryColumn } from 'typeorm';
import { WebhookAttemptTrigger } from '@paykit/contracts';

/** Every attempt of a delivery, as it happened. */
@Entity({ name: 'webhook_delivery_attempt' })
export class WebhookDeliveryAttemptEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'text' })
  deliveryId!: string;

  @PrimaryColumn({ type: 'integer' })
  number!: number;

  @Column({ type: 'text' })
  trigger!: WebhookAttemptTrigger;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt!: Date;

  @Column({ type: 'text' })
  endpoint!: string;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'boolean' })
  succeeded!: boolean;
}
