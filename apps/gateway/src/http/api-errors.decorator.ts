import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../errors/error-response.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (`INVALID_INPUT` lists every invalid field in `details.errors`)',
  401: 'Missing or invalid credentials (`UNAUTHORIZED`, `details.reason` names the failed check)',
  403: 'Not allowed (e.g. a production token on a sandbox endpoint)',
  404: "Not found (also for another platform's resources)",
  409: "Conflict with the resource's current state",
  410: 'Gone: the customer has been deleted (`CUSTOMER_DELETED`)',
  423: "The customer's SCA login is locked or suspended (`ACCOUNT_LOCKED`, `details.lockedUntil`)",
  429: 'Too many requests; retry after `Retry-After` seconds',
  503: 'A dependency is unavailable for now (`SERVICE_UNAVAILABLE`); retry later',
};

/** Documents the error envelope for the given statuses, plus the 500 every route can answer. */
export function ApiErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...[...statuses, 500].map((status) => ApiResponse({ status, type: ErrorResponseDto, description: DESCRIPTIONS[status] ?? 'Internal error (`INTERNAL_ERROR`)' })),
  );
}
