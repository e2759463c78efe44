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

export class SettleIncomingRefundJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  transactionId!: string;
}

/** Settles the refund of an accepted incoming payment that could not complete (the sender is paid back). */
export const SETTLE_INCOMING_REFUND_JOB: JobKind<SettleIncomingRefundJob> = { name: 'payments.incoming-payment.settle-refund', payload: SettleIncomingRefundJob };
