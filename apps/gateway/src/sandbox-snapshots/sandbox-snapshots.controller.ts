import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CallerContext, CreateSandboxSnapshotRequest, SandboxSnapshot, SeededCustomer, SeedSandboxRequest, SeedSandboxResult } from '@paykit/contracts';
import { Caller } from '../auth/caller.decorator';
import { RequiresPermission } from '../auth/permissions';
import { BasicAuthOnly } from '../auth/public.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { SandboxSeedService } from './sandbox-seed.service';
import { SandboxSnapshotsService } from './sandbox-snapshots.service';

export class SandboxSnapshotDto implements SandboxSnapshot {
  @ApiProperty({ description: 'The snapshot name', example: 'two-funded-customers' }) name!: string;
  @ApiProperty({ description: 'When it was saved', format: 'date-time', example: '2026-11-25T16:06:00.000Z' }) createdAt!: string;
  @ApiProperty({ description: 'Rows saved, per service', type: 'object', additionalProperties: { type: 'integer' }, example: { customers: 3, payments: 12 } })
  rows!: Record<string, number>;
}

export class SandboxResetDto {
  @ApiProperty({ description: 'Always true: the platform has no sandbox data left', example: true }) reset!: boolean;
}

class SeededAccountDto {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
  @ApiProperty({ description: 'Amount funded', type: 'integer', example: 100000 }) amount!: number;
}

class SeededCustomerDto implements SeededCustomer {
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ type: [SeededAccountDto] }) accounts!: SeededAccountDto[];
}

export class SeedSandboxResultDto implements SeedSandboxResult {
  @ApiProperty({ type: [SeededCustomerDto], description: 'The customers created, in the order given' }) customers!: SeededCustomerDto[];
}

const EVERYTHING =
  "the platform's whole sandbox state in every service: customers and their verifications and documents, external accounts, internal accounts, " +
  'the ledger, holds, quotes and transactions, wallets and credentials, cards and card transactions, webhook settings, received events and deliveries, ' +
  "scheduled sandbox outcomes and the test clock. Not the platform's API tokens, agents, sandbox faults or request log. Other platforms are not touched";

/**
 * Snapshots of a platform's sandbox state, restores and resets (SandboxSnapshotsService): a test
 * suite starts each run from a known state.
 */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@BasicAuthOnly()
@Controller('sandbox')
export class SandboxSnapshotsController {
  constructor(
    private readonly snapshots: SandboxSnapshotsService,
    private readonly seeds: SandboxSeedService,
  ) {}

  @Post('snapshots')
  @RequiresPermission('MANAGE')
  @ApiOperation({
    summary: "Save a snapshot of the platform's sandbox state",
    description: `Saves ${EVERYTHING}. The platform's API answers 503 while it is read. Saving a name again replaces it. Sandbox only, Basic authentication only (MANAGE).`,
  })
  @ApiCreatedResponse({ type: SandboxSnapshotDto })
  @ApiErrors(400, 401, 403)
  save(@Body() body: CreateSandboxSnapshotRequest, @Caller() caller: CallerContext): Promise<SandboxSnapshot> {
    return this.snapshots.save(caller, body.name);
  }

  @Get('snapshots')
  @ApiOperation({ summary: "List the platform's snapshots", description: 'By name. Sandbox only, Basic authentication only.' })
  @ApiOkResponse({ type: SandboxSnapshotDto, isArray: true })
  @ApiErrors(401, 403)
  list(@Caller() caller: CallerContext): Promise<SandboxSnapshot[]> {
    return this.snapshots.list(caller);
  }

  @Post('snapshots/:name/restore')
  @HttpCode(200)
  @RequiresPermission('MANAGE')
  @ApiOperation({
    summary: 'Restore a snapshot',
    description:
      `Puts back ${EVERYTHING}, as saved (the test clock too, even back in time). Each service replaces its rows in one transaction, checked by the same ` +
      "constraints as any write (every journal entry balances); the platform's API answers 503 meanwhile; a restore that fails in any service is undone " +
      '(503, the state as it was). Sandbox only, Basic authentication only (MANAGE).',
  })
  @ApiParam({ name: 'name', example: 'two-funded-customers' })
  @ApiOkResponse({ type: SandboxSnapshotDto })
  @ApiErrors(401, 403, 404, 503)
  restore(@Param('name') name: string, @Caller() caller: CallerContext): Promise<SandboxSnapshot> {
    return this.snapshots.restore(caller, name);
  }

  @Delete('snapshots/:name')
  @HttpCode(204)
  @RequiresPermission('MANAGE')
  @ApiOperation({ summary: 'Delete a snapshot', description: 'Sandbox only, Basic authentication only (MANAGE).' })
  @ApiParam({ name: 'name', example: 'two-funded-customers' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(401, 403, 404)
  async delete(@Param('name') name: string, @Caller() caller: CallerContext): Promise<void> {
    await this.snapshots.delete(caller, name);
  }

  @Post('reset')
  @HttpCode(200)
  @RequiresPermission('MANAGE')
  @ApiOperation({
    summary: "Reset the platform's sandbox state",
    description: `Deletes ${EVERYTHING}, as a restore of an empty snapshot (the test clock back to real time). Snapshots are kept. Sandbox only, Basic authentication only (MANAGE).`,
  })
  @ApiOkResponse({ type: SandboxResetDto })
  @ApiErrors(401, 403, 503)
  async reset(@Caller() caller: CallerContext): Promise<SandboxResetDto> {
    await this.snapshots.reset(caller);
    return { reset: true };
  }

  @Post('seed')
  @HttpCode(200)
  @RequiresPermission('MANAGE')
  @ApiOperation({
    summary: "Seed the platform's sandbox",
    description:
      'Creates the given customers in order (each body as `POST /customers` takes it) and funds their internal accounts with the given balances ' +
      '(sandbox money, as `POST /sandbox/internal-accounts/{id}/fund`), after a reset when `reset` is true; answers the ids. `npm start -- --seed <file>` ' +
      'applies a file of the same shape to the sandbox platform at start, reset first. Sandbox only, Basic authentication only (MANAGE).',
  })
  @ApiOkResponse({ type: SeedSandboxResultDto })
  @ApiErrors(400, 401, 403, 409)
  seed(@Body() body: SeedSandboxRequest, @Caller() caller: CallerContext): Promise<SeedSandboxResult> {
    return this.seeds.seed(caller, body);
  }
}
