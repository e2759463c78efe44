import { IsNotEmpty, IsString } from 'class-validator';
import { JobKind } from '@paykit/persistence';

export class PruneRequestLogJob {
  @IsString()
  @IsNotEmpty()
  platformId!: string;
}

/** Cuts a platform's request log back to its retention (newest rows, youngest days). */
export const PRUNE_REQUEST_LOG_JOB: JobKind<PruneRequestLogJob> = { name: 'gateway.request-log.prune', payload: PruneRequestLogJob };
