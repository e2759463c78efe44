import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The mechanisms that park what they cannot deliver; each replays its own. */
export const DEAD_LETTER_SOURCES = ['event-consumer', 'outbox-relay', 'scheduler', 'webhook-delivery'] as const;
export type DeadLetterSource = (typeof DEAD_LETTER_SOURCES)[number];

/**
 * A parked message or job. `consumer` names who failed it within its source (the durable consumer,
 * the job kind, the relay); (`source`, `consumer`, `messageId`) is unique, so a message parked again
 * after a replay updates its row.
 */
@Entity({ name: 'dead_letter' })
export class DeadLetterEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  source!: DeadLetterSource;

  @Column({ type: 'text' })
  consumer!: string;

  /** The event id, job id or delivery id. */
  @Column({ name: 'message_id', type: 'text' })
  messageId!: string;

  /** The event subject or job kind. */
  @Column({ type: 'text' })
  subject!: string;

  /** The resource the message is about (its ordering key). */
  @Column({ name: 'resource_key', type: 'text', nullable: true })
  resourceKey!: string | null;

  @Column({ name: 'platform_id', type: 'text', nullable: true })
  platformId!: string | null;

  @Column({ type: 'jsonb' })
  payload!: unknown;

  @Column({ type: 'text' })
  error!: string;

  @Column({ name: 'error_stack', type: 'text', nullable: true })
  errorStack!: string | null;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ name: 'first_failed_at', type: 'timestamptz' })
  firstFailedAt!: Date;

  @Column({ name: 'last_failed_at', type: 'timestamptz' })
  lastFailedAt!: Date;

  /** How many times it was parked (more than once: it failed again after a replay). */
  @Column({ name: 'parked_count', type: 'integer', default: 1 })
  parkedCount!: number;

  @Column({ name: 'replay_requested_at', type: 'timestamptz', nullable: true })
  replayRequestedAt!: Date | null;

  @Column({ name: 'replay_claimed_until', type: 'timestamptz', nullable: true })
  replayClaimedUntil!: Date | null;

  @Column({ name: 'replayed_at', type: 'timestamptz', nullable: true })
  replayedAt!: Date | null;
}
