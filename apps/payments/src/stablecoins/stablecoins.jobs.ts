import { Type } from 'class-transformer';
import { IsArray, IsNotEmpty, IsString, ValidateNested } from 'class-validator';
import { STABLECOIN_ISSUANCE_STATUSES, STABLECOIN_SERVICE_OPERATIONS_STATUSES, StablecoinIssuanceStatus, StablecoinServiceOperationsStatus } from '@paykit/contracts';
import { JobKind } from '@paykit/persistence';
import { IsOneOf } from '@paykit/validation';
import { StablecoinStep } from './stablecoins.sandbox';

export class StablecoinStepPayload implements StablecoinStep {
  @IsOneOf(STABLECOIN_ISSUANCE_STATUSES)
  issuanceStatus!: StablecoinIssuanceStatus;

  @IsOneOf(STABLECOIN_SERVICE_OPERATIONS_STATUSES)
  serviceOperationsStatus!: StablecoinServiceOperationsStatus;
}

export class AdvanceStablecoinJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  stablecoinId!: string;

  @ValidateNested()
  @Type(() => StablecoinStepPayload)
  step!: StablecoinStepPayload;

  /** The steps after this one; each is scheduled once this one took effect, so they run in order. */
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => StablecoinStepPayload)
  next!: StablecoinStepPayload[];
}

/** The operation's next step at the provider: PENDING_PROVIDER to PROCESSING, PROCESSING to its end. */
export class AdvanceStablecoinOperationJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  operationId!: string;
}

/** Moves a registered coin along its provider's review, provisioning and enabling. */
export const ADVANCE_STABLECOIN_JOB: JobKind<AdvanceStablecoinJob> = { name: 'payments.stablecoin.advance', payload: AdvanceStablecoinJob };
/** Moves a mint or burn along the provider's processing. */
export const ADVANCE_STABLECOIN_OPERATION_JOB: JobKind<AdvanceStablecoinOperationJob> = { name: 'payments.stablecoin-operation.advance', payload: AdvanceStablecoinOperationJob };
/** Marks an operation that waited for external funds past its window EXPIRED. */
export const EXPIRE_STABLECOIN_OPERATION_JOB: JobKind<AdvanceStablecoinOperationJob> = { name: 'payments.stablecoin-operation.expire', payload: AdvanceStablecoinOperationJob };
