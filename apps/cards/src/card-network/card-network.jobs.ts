import { IsNotEmpty, IsString } from 'class-validator';
import { JobKind } from '@paykit/persistence';

export class DelayedPullJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  cardTransactionId!: string;
}

/** A sandbox-delayed pull (descriptor suffix 005) is due: the job enqueues it for the worker. */
export const DELAYED_PULL_JOB: JobKind<DelayedPullJob> = { name: 'cards.card-transaction.delayed-pull', payload: DelayedPullJob };
