import { Column, Entity, PrimaryColumn } from 'typeorm';

/** FAILED: given up before dead letters existed; DEAD: parked in the dead-letter table. */
export type ScheduledJobStatus = 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED' | 'DEAD';

@Entity({ name: 'scheduled_job' })
export class ScheduledJobEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ name: 'run_at', type: 'timestamptz' })
  runAt!: Date;

  @Column({ type: 'text', default: 'PENDING' })
  status!: ScheduledJobStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'dedupe_key', type: 'text', nullable: true })
  dedupeKey!: string | null;

  /** The W3C traceparent of the work that scheduled it (null when tracing is off). */
  @Column({ name: 'trace_context', type: 'text', nullable: true })
  traceContext?: string | null;
}
