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
