import { Type } from 'class-transformer';
import { IsNotEmpty, IsObject, IsString, ValidateNested } from 'class-validator';
import { AuthorizationInterruptedPayload } from '@paykit/contracts';
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

export class InterruptedAuthorizationJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => AuthorizationInterruptedPayload)
  data!: AuthorizationInterruptedPayload;
}

/** Undoes the money step of an authorization that was not recorded in time (see `interruptionKeyOf`): the job enqueues the undo for the worker. */
export const INTERRUPTED_AUTHORIZATION_JOB: JobKind<InterruptedAuthorizationJob> = { name: 'cards.card-transaction.interrupted', payload: InterruptedAuthorizationJob };
