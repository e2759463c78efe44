import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A mutating request replayed by its `Idempotency-Key`: same key and body, same answer. */
@Entity({ name: 'idempotency_record' })
export class IdempotencyRecordEntity {
  @PrimaryColumn({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'text' })
  idempotencyKey!: string;

  @Column({ name: 'request_hash', type: 'text' })
  requestHash!: string;

  @Column({ type: 'jsonb', nullable: true })
  response!: unknown;
}
