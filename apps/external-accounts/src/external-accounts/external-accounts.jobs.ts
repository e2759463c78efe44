import { IsInt, IsNotEmpty, IsString, Min } from 'class-validator';
import { JobKind } from '@paykit/persistence';

export class ResolveVerificationJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  externalAccountId!: string;

  /** The review the job resolves: a re-review since makes it a no-op. */
  @IsInt()
  @Min(0)
  reviewVersion!: number;
}

/** A PENDING name verification (sandbox 104) resolves to MATCHED. */
export const RESOLVE_VERIFICATION_JOB: JobKind<ResolveVerificationJob> = { name: 'external-accounts.name-verification.resolve', payload: ResolveVerificationJob };

export class CompleteLivenessJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;

  @IsString()
  @IsNotEmpty()
  externalAccountId!: string;

  /** The challenge the job completes: a newer challenge since makes it a no-op. */
  @IsString()
  @IsNotEmpty()
  challengeId!: string;
}

/** A LIVENESS ownership challenge completes (sandbox: about 30 s after it was issued). */
export const COMPLETE_LIVENESS_JOB: JobKind<CompleteLivenessJob> = { name: 'external-accounts.ownership.liveness-complete', payload: CompleteLivenessJob };
