import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One request of a sandbox platform (the console's request log). No bodies, headers or query strings. */
@Entity({ name: 'sandbox_request_log' })
export class RequestLogEntryEntity {
  /** `RequestLog:<uuidv7>`: sorts by time, so the list's order and cursor are the id. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ type: 'text' })
  method!: string;

  @Column({ type: 'text', nullable: true })
  route!: string | null;

  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'integer' })
  status!: number;

  @Column({ name: 'error_code', type: 'text', nullable: true })
  errorCode!: string | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs!: number;

  @Column({ name: 'request_id', type: 'text' })
  requestId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
