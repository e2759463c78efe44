import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiAccountInfoModels,
  CallerContext,
  CreatePlatformExternalAccountRequest,
  EXTERNAL_ACCOUNTS_SUBJECTS,
  ExternalAccount,
  ExternalAccountPage,
  OwnershipChallenge,
  OwnershipChallengeRequest,
  OwnershipVerifyRequest,
  ListPlatformExternalAccountsQuery,
  UpdateExternalAccountRequest,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ErrorResponseDto } from '../errors/error-response.dto';
import { ApiErrors } from '../http/api-errors.decorator';
import { ExternalAccountPageDto, ExternalAccountResponseDto, withoutRouting } from './dto/external-account.response';
import { EXTERNAL_ACCOUNT_ID_EXAMPLE, OwnershipChallengeRoute, OwnershipVerifyRoute, startOwnershipChallenge, verifyOwnership } from './wallet-ownership';

const ID_EXAMPLE = EXTERNAL_ACCOUNT_ID_EXAMPLE;

@ApiTags('External Accounts')
@ApiBasicAuth('BasicAuth')
@ApiAccountInfoModels()
@Controller('platform/external-accounts')
export class PlatformExternalAccountsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: "Register one of the platform's own external accounts",
    description: 'Same shape, validation and sandbox name verification as customer external accounts, owned by the platform (no customerId).',
  })
  @ApiCreatedResponse({ type: ExternalAccountResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'CONFLICT: this destination is already registered for the owner (details.existingAccountId)' })
  @ApiErrors(400, 401, 403)
  @ApiBody({ type: CreatePlatformExternalAccountRequest })
  // Bodies are passed on as received: the external-accounts service validates them together with its
  // rules (check digits, corridor and beneficiary tables) and lists every problem in one answer.
  create(@Body() body: unknown, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.createAccount, { ownerType: 'PLATFORM', body }, caller);
  }

  @Get()
  @ApiOperation({ summary: "List the platform's external accounts", description: 'Newest first, cursor-paginated.' })
  @ApiOkResponse({ type: ExternalAccountPageDto })
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListPlatformExternalAccountsQuery, @Caller() caller: CallerContext): Promise<ExternalAccountPage> {
    return this.services.request(
      EXTERNAL_ACCOUNTS_SUBJECTS.listAccounts,
      { ownerType: 'PLATFORM', status: query.status, currency: query.currency, limit: query.limit, cursor: query.cursor },
      caller,
    );
  }

  @Get(':externalAccountId')
  @ApiOperation({ summary: "Get one of the platform's external accounts", description: 'Full, unmasked destination details.' })
  @ApiParam({ name: 'externalAccountId', example: ID_EXAMPLE })
  @ApiOkResponse({ type: ExternalAccountResponseDto })
  @ApiErrors(401, 403, 404)
  async get(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return withoutRouting(await this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.getAccount, { externalAccountId, ownerType: 'PLATFORM' }, caller));
  }

  @Patch(':externalAccountId')
  @ApiOperation({ summary: "Update one of the platform's external accounts", description: 'New accountInfo (same currency) re-runs review.' })
  @ApiParam({ name: 'externalAccountId', example: ID_EXAMPLE })
  @ApiOkResponse({ type: ExternalAccountResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'INVALID_STATE_TRANSITION (removed account) or CONFLICT (destination already registered)' })
  @ApiErrors(400, 401, 403, 404)
  @ApiBody({ type: UpdateExternalAccountRequest })
  update(@Param('externalAccountId') externalAccountId: string, @Body() body: unknown, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.updateAccount, { ownerType: 'PLATFORM', externalAccountId, body }, caller);
  }

  @Delete(':externalAccountId')
  @ApiOperation({ summary: "Remove one of the platform's external accounts", description: 'The account becomes INACTIVE and stays readable.' })
  @ApiParam({ name: 'externalAccountId', example: ID_EXAMPLE })
  @ApiOkResponse({ type: ExternalAccountResponseDto, description: 'The account, now INACTIVE' })
  @ApiErrors(401, 403, 404)
  remove(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.removeAccount, { externalAccountId, ownerType: 'PLATFORM' }, caller);
  }

  @OwnershipChallengeRoute("one of the platform's")
  challenge(@Param('externalAccountId') externalAccountId: string, @Body() body: OwnershipChallengeRequest, @Caller() caller: CallerContext): Promise<OwnershipChallenge> {
    return startOwnershipChallenge(this.services, 'PLATFORM', externalAccountId, body, caller);
  }

  @OwnershipVerifyRoute("one of the platform's")
  verify(@Param('externalAccountId') externalAccountId: string, @Body() body: OwnershipVerifyRequest, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return verifyOwnership(this.services, 'PLATFORM', externalAccountId, body, caller);
  }
}
