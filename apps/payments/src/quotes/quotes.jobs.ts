import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { QUOTE_FAILURE_REASONS, QuoteFailureReason, REFUND_REASONS, RefundReason } from '@paykit/contracts';
import { JobKind } from '@paykit/persistence';
import { IsOneOf } from '@paykit/validation';
import { QUOTE_STEP_STATUSES, QuoteStep } from './quotes.sandbox';

export class QuoteStepPayload implements QuoteStep {
  @IsOneOf(QUOTE_STEP_STATUSES)
  status!: QuoteStep['status'];

  @IsInt()
  @Min(0)
  delayMs!: number;

  @IsOptional()
  @IsOneOf(QUOTE_FAILURE_REASONS)
  failureReason?: QuoteFailureReason;

  @IsOptional()
  @IsOneOf(REFUND_REASONS)
  refundReason?: RefundReason;

  @IsOptional()
  @IsBoolean()
  refund?: boolean;
}

export class AdvanceQuoteJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  quoteId!: string;

  @ValidateNested()
  @Type(() => QuoteStepPayload)
  step!: QuoteStepPayload;

  /** The steps after this one; each is scheduled once this one took effect, so they run in order. */
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => QuoteStepPayload)
  next!: QuoteStepPayload[];
}

export class ExpireQuoteJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  quoteId!: string;
}

/** Moves an executed quote (and its transaction) to its next status. */
export const ADVANCE_QUOTE_JOB: JobKind<AdvanceQuoteJob> = { name: 'payments.quote.advance', payload: AdvanceQuoteJob };
/** Marks a quote nobody executed EXPIRED once its lock runs out. */
export const EXPIRE_QUOTE_JOB: JobKind<ExpireQuoteJob> = { name: 'payments.quote.expire', payload: ExpireQuoteJob };

export class ExpireQuoteAuthorizationJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  quoteId!: string;

  @IsString()
  @IsNotEmpty()
  challengeId!: string;
}

/** Fails a quote (SCA_NOT_COMPLETED) whose SCA challenge expired unanswered; nothing moved. */
export const EXPIRE_QUOTE_AUTHORIZATION_JOB: JobKind<ExpireQuoteAuthorizationJob> = { name: 'payments.quote.authorization-expire', payload: ExpireQuoteAuthorizationJob };
