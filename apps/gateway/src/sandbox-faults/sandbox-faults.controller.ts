import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  CreateSandboxFaultRequest,
  SANDBOX_FAULT_EFFECTS,
  SANDBOX_FAULT_ID_EXAMPLE,
  SANDBOX_FAULT_TARGETS,
  SandboxFault,
  SandboxFaultEffect,
  SandboxFaultTarget,
} from '@paykit/contracts';
import { Caller } from '../auth/caller.decorator';
import { BasicAuthOnly } from '../auth/public.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SandboxFaultsService } from './sandbox-faults.service';

export class SandboxFaultDto implements SandboxFault {
  @ApiProperty({ description: 'Fault id', example: SANDBOX_FAULT_ID_EXAMPLE }) id!: string;
  @ApiProperty({ enum: SANDBOX_FAULT_TARGETS, description: 'What the fault applies to', example: 'OPERATION' }) target!: SandboxFaultTarget;
  @ApiPropertyOptional({ description: 'The operation it takes calls of', example: 'POST /quotes/{quoteId}/execute' }) operation?: string;
  @ApiPropertyOptional({ description: 'The path prefix it takes calls of', example: '/quotes' }) pathPrefix?: string;
  @ApiProperty({ enum: SANDBOX_FAULT_EFFECTS, description: 'What a faulted call gets', example: 'ERROR' }) effect!: SandboxFaultEffect;
  @ApiPropertyOptional({ description: 'ERROR: the status answered (or recorded for a webhook attempt)', type: 'integer', example: 503 }) status?: number;
  @ApiPropertyOptional({ description: 'TIMEOUT and DELAY: milliseconds waited', type: 'integer', example: 0 }) delayMs?: number;
  @ApiProperty({ description: 'Calls the fault was created for', type: 'integer', example: 2 }) count!: number;
  @ApiProperty({ description: 'Calls it has still to take (0: spent; it stays listed until removed)', type: 'integer', example: 2 }) remaining!: number;
  @ApiProperty({ description: 'When it was created', format: 'date-time', example: '2026-11-25T16:06:00.000Z' }) createdAt!: string;
}

/**
 * Sandbox fault injection: the next N calls of an operation (or of a path prefix) answer an error,
 * time out or are delayed, then the platform's calls recover; or the next N webhook delivery
 * attempts fail. Applied at the gateway's edge by SandboxFaultGuard (webhook attempts by the
 * webhooks service's worker).
 */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@Controller('sandbox/faults')
export class SandboxFaultsController {
  constructor(private readonly faults: SandboxFaultsService) {}

  @Post()
  @ApiOperation({
    summary: 'Inject a fault',
    description:
      "Makes the platform's next `count` calls of `operation` (as the API document names it, e.g. `POST /quotes/{quoteId}/execute`), or of every path under " +
      '`pathPrefix`, answer `status` in the error envelope (`ERROR`, with `details.injectedFault`), answer 504 `SERVICE_TIMEOUT` (`TIMEOUT`), or wait `delayMs` ' +
      'before running (`DELAY`); a faulted ERROR or TIMEOUT call does not run. Target `WEBHOOK_DELIVERY` fails the next `count` webhook delivery attempts ' +
      '(recorded as answered `status`, retried on the usual schedule). When several faults match, the oldest live one takes the call. ' +
      'Other platforms are not affected; the fault routes themselves are never faulted. Sandbox only (404 in production), Basic authentication only.',
  })
  @ApiCreatedResponse({ type: SandboxFaultDto })
  @ApiErrors(400, 401, 403)
  create(@Body() body: CreateSandboxFaultRequest, @Caller() caller: CallerContext): Promise<SandboxFault> {
    return this.faults.create(caller, body);
  }

  @Get()
  @ApiOperation({ summary: "List the platform's faults", description: 'Live and spent faults, oldest first, until removed. Sandbox only, Basic authentication only.' })
  @ApiOkResponse({ type: SandboxFaultDto, isArray: true })
  @ApiErrors(401, 403)
  list(@Caller() caller: CallerContext): Promise<SandboxFault[]> {
    return this.faults.list(caller);
  }

  @Delete(':faultId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a fault', description: 'The calls it had still to take run normally. Sandbox only, Basic authentication only.' })
  @ApiParam({ name: 'faultId', example: SANDBOX_FAULT_ID_EXAMPLE })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(401, 403, 404)
  async remove(@Param('faultId') faultId: string, @Caller() caller: CallerContext): Promise<void> {
    await this.faults.delete(caller, faultId);
  }
}
