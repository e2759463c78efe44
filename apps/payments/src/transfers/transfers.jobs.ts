import { Type } from 'class-transformer';
import { IsArray, IsInt, IsNotEmpty, IsOptional, IsString, Min, ValidateNested } from 'class-validator';
import { JobKind } from '@paykit/persistence';
import { IsOneOf } from '@paykit/validation';
import { TRANSFER_FAILURE_REASONS, TransferFailureReason, TransferStep } from './transfers.sandbox';

/** The statuses a step moves an accepted transfer to. */
const STEP_STATUSES: ReadonlyArray<TransferStep['status']> = ['PROCESSING', 'COMPLETED', 'FAILED'];

export class TransferStepPayload implements TransferStep {
  @IsOneOf(STEP_STATUSES)
  status!: TransferStep['status'];

  @IsInt()
  @Min(0)
  delayMs!: number;

  @IsOptional()
  @IsOneOf(TRANSFER_FAILURE_REASONS)
  failureReason?: TransferFailureReason;
}

export class AdvanceTransferJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  transactionId!: string;

  @IsOneOf(STEP_STATUSES)
  status!: TransferStep['status'];

  @IsOptional()
  @IsOneOf(TRANSFER_FAILURE_REASONS)
  failureReason?: TransferFailureReason;

  /** The steps after this one; each is scheduled only once this one took effect, so they run in order. */
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TransferStepPayload)
  next?: TransferStepPayload[];
}

/** Moves an accepted transfer to its next status. */
export const ADVANCE_TRANSFER_JOB: JobKind<AdvanceTransferJob> = { name: 'payments.transfer.advance', payload: AdvanceTransferJob };
