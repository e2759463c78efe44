import { IsNotEmpty, IsString } from 'class-validator';
import { JobKind } from '@paykit/persistence';

export class DecisionDeadlineJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  transactionId!: string;
}

/** Rejects an incoming payment the platform did not decide on in time. */
export const DECISION_DEADLINE_JOB: JobKind<DecisionDeadlineJob> = { name: 'payments.incoming-payment.decision-deadline', payload: DecisionDeadlineJob };
