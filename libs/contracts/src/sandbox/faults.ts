import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOneOf, MatchesPattern } from '@paykit/validation';
import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';

/** Ids of sandbox faults: `SandboxFault:<uuidv7>`. */
export const SANDBOX_FAULT_ID_TYPE = 'SandboxFault';
export const SANDBOX_FAULT_ID_EXAMPLE = 'SandboxFault:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

/** What a fault applies to: API calls at the gateway, or webhook delivery attempts. Wire values: frozen. */
export const SANDBOX_FAULT_TARGETS = ['OPERATION', 'WEBHOOK_DELIVERY'] as const;
export type SandboxFaultTarget = (typeof SANDBOX_FAULT_TARGETS)[number];

/** What a faulted call gets. Wire values: frozen. */
export const SANDBOX_FAULT_EFFECTS = ['ERROR', 'TIMEOUT', 'DELAY'] as const;
export type SandboxFaultEffect = (typeof SANDBOX_FAULT_EFFECTS)[number];

/** The statuses an ERROR fault may answer (each with the error code of its kind, see faultErrorCode). */
export const SANDBOX_FAULT_STATUSES = [400, 401, 403, 404, 409, 429, 500, 503, 504] as const;

/** Longest injected delay: well below the gateway's request timeouts. */
export const MAX_SANDBOX_FAULT_DELAY_MS = 30_000;
/** Most calls one fault may take. */
export const MAX_SANDBOX_FAULT_COUNT = 1_000;

/** An operation as the API document names it: the method and the path template under `{base_url}`. */
const OPERATION = /^(GET|POST|PUT|PATCH|DELETE) \/[A-Za-z0-9_{}./-]*$/;
const PATH_PREFIX = /^\/[A-Za-z0-9_{}:./-]*$/;

/** Body of `POST /sandbox/faults`. */
export class CreateSandboxFaultRequest {
  @ApiProperty({
    enum: SANDBOX_FAULT_TARGETS,
    description: '`OPERATION`: the next matching API calls of the platform; `WEBHOOK_DELIVERY`: the next webhook delivery attempts of the platform',
    example: 'OPERATION',
  })
  @IsOneOf(SANDBOX_FAULT_TARGETS)
  target!: SandboxFaultTarget;

  @ApiPropertyOptional({
    description: 'OPERATION target: the operation, as the API document names it (method and path template under `{base_url}`). Give this or `pathPrefix`.',
    example: 'POST /quotes/{quoteId}/execute',
  })
  @ValidateIf((body: CreateSandboxFaultRequest) => body.target === 'OPERATION' && (body.operation !== undefined || body.pathPrefix === undefined))
  @IsString()
  @MaxLength(256)
  @MatchesPattern(OPERATION, 'a method and a path template, e.g. POST /quotes/{quoteId}/execute')
  operation?: string;

  @ApiPropertyOptional({
    description: 'OPERATION target: every call whose path under `{base_url}` starts with this (any method). Give this or `operation`.',
    example: '/quotes',
  })
  @ValidateIf((body: CreateSandboxFaultRequest) => body.target === 'OPERATION' && body.pathPrefix !== undefined)
  @IsString()
  @MaxLength(256)
  @MatchesPattern(PATH_PREFIX, 'a path under {base_url} starting with /')
  pathPrefix?: string;

  @ApiProperty({
    enum: SANDBOX_FAULT_EFFECTS,
    description:
      '`ERROR`: answer `status` in the error envelope without running the call; `TIMEOUT`: answer 504 `SERVICE_TIMEOUT` after `delayMs` (default 0) without running the call; ' +
      '`DELAY`: wait `delayMs` of real time, then run the call. A WEBHOOK_DELIVERY fault takes `ERROR` only: the attempt is recorded as answered `status`, and nothing is sent.',
    example: 'ERROR',
  })
  @IsOneOf(SANDBOX_FAULT_EFFECTS)
  effect!: SandboxFaultEffect;

  @ApiPropertyOptional({
    description:
      'ERROR effect: the HTTP status to answer (default 503). The error code is the usual one of that status (503 `SERVICE_UNAVAILABLE`, 500 `INTERNAL_ERROR`, 429 `RATE_LIMITED`...).',
    enum: SANDBOX_FAULT_STATUSES,
    example: 503,
  })
  @IsOptional()
  @IsIn([...SANDBOX_FAULT_STATUSES], { message: `status must be one of ${SANDBOX_FAULT_STATUSES.join(', ')}` })
  status?: number;

  @ApiPropertyOptional({
    description: `DELAY (required) and TIMEOUT effects: milliseconds of real time to wait (0 to ${MAX_SANDBOX_FAULT_DELAY_MS})`,
    type: 'integer',
    minimum: 0,
    maximum: MAX_SANDBOX_FAULT_DELAY_MS,
    example: 2000,
  })
  @ValidateIf((body: CreateSandboxFaultRequest) => body.effect === 'DELAY' || body.delayMs !== undefined)
  @IsInt()
  @Min(0)
  @Max(MAX_SANDBOX_FAULT_DELAY_MS)
  delayMs?: number;

  @ApiProperty({
    description: `How many calls (or delivery attempts) the fault takes before it is spent (1 to ${MAX_SANDBOX_FAULT_COUNT})`,
    type: 'integer',
    minimum: 1,
    maximum: MAX_SANDBOX_FAULT_COUNT,
    example: 2,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_SANDBOX_FAULT_COUNT)
  count!: number;
}

/** Path parameter of `DELETE /sandbox/faults/{faultId}`. */
export class SandboxFaultIdRequest {
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  faultId!: string;
}

/** A fault as `POST|GET /sandbox/faults` answer it. */
export interface SandboxFault {
  id: string;
  target: SandboxFaultTarget;
  operation?: string;
  pathPrefix?: string;
  effect: SandboxFaultEffect;
  /** ERROR: the status answered (or recorded for a webhook attempt). */
  status?: number;
  delayMs?: number;
  /** Calls the fault was created for. */
  count: number;
  /** Calls it has still to take: 0 once spent (it then stays listed until removed). */
  remaining: number;
  createdAt: string;
}

/** The error code an ERROR fault of `status` answers with. */
export function faultErrorCode(
  status: number,
): 'INVALID_INPUT' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'REFERENCE_NOT_FOUND' | 'CONFLICT' | 'RATE_LIMITED' | 'INTERNAL_ERROR' | 'SERVICE_UNAVAILABLE' | 'SERVICE_TIMEOUT' {
  switch (status) {
    case 400:
      return 'INVALID_INPUT';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'REFERENCE_NOT_FOUND';
    case 409:
      return 'CONFLICT';
    case 429:
      return 'RATE_LIMITED';
    case 500:
      return 'INTERNAL_ERROR';
    case 504:
      return 'SERVICE_TIMEOUT';
    default:
      return 'SERVICE_UNAVAILABLE';
  }
}
