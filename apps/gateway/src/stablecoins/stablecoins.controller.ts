import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  ListStablecoinOperationsQuery,
  ListStablecoinProviderAccountsQuery,
  ListStablecoinsQuery,
  Stablecoin,
  StablecoinBurnRequest,
  StablecoinMintRequest,
  StablecoinOperation,
  StablecoinPage,
  StablecoinProviderAccount,
  StablecoinProviderAccountLinkRequest,
  StablecoinRegisterRequest,
  STABLECOINS_SUBJECTS,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import {
  StablecoinListResponseDto,
  StablecoinOperationListResponseDto,
  StablecoinOperationResponseDto,
  StablecoinProviderAccountListResponseDto,
  StablecoinProviderAccountResponseDto,
  StablecoinResponseDto,
} from './dto/stablecoin.response';

/** The required `Idempotency-Key` header, with an example of its own per route (the docs page's "Try it out" sends it). */
const idempotencyHeader = (example: string) =>
  ({
    name: 'Idempotency-Key',
    required: true,
    schema: { type: 'string', maxLength: 255 },
    example,
    description: 'Required. Same key and body: the first answer again, nothing done twice. Same key with another body: 409 CONFLICT (`details.reason` IDEMPOTENCY_KEY_REUSED).',
  }) as const;

const SANDBOX_PROVIDER =
  'Sandbox provider: `apiClientId` ending 002 links INVALID; `providerTokenIdentifier` ending 002 is REJECTED in review, 003 FAILS provisioning, 004 is provisioned but DISABLED; ' +
  'any other identifier of 3 to 8 capital letters or digits is enabled after about two minutes of sandbox time (PENDING_REVIEW, PROVISIONING, PENDING_APPROVAL, ENABLING, ENABLED). ';
const OPERATION_OUTCOMES =
  "Operations move PENDING_PROVIDER, PROCESSING, then COMPLETED, about 30 s of sandbox time each; a bank account's last 3 digits 002-005 (the transfer table) fail them " +
  '(mints FUNDING_FAILED, burns PAYOUT_FAILED) and any held money returns. Operations waiting for external funds (PENDING_FUNDING) expire after 24 h; ' +
  '`POST /sandbox/stablecoin-operations/{id}/fund` reports the funds received.';

@ApiTags('Stablecoins')
@ApiBasicAuth('BasicAuth')
@Controller()
export class StablecoinsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post('stablecoin-provider-accounts')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Link a stablecoin provider account',
    description:
      'Links provider API credentials (BRALE) to the platform: verified with the provider, the secret stored sealed and never returned. The environment follows the token (sandbox: SANDBOX). ' +
      'A new ACTIVE link to the same provider account REVOKES the earlier ones. ' +
      SANDBOX_PROVIDER,
  })
  @ApiHeader(idempotencyHeader('link-3f6c2a'))
  @ApiCreatedResponse({ type: StablecoinProviderAccountResponseDto })
  @ApiErrors(400, 401, 409)
  link(
    @Body() body: StablecoinProviderAccountLinkRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Caller() caller: CallerContext,
  ): Promise<StablecoinProviderAccount> {
    return this.services.request(
      STABLECOINS_SUBJECTS.linkProviderAccount,
      {
        provider: body.provider,
        apiClientId: body.apiClientId,
        apiClientSecret: body.apiClientSecret,
        ...(body.providerAccountId !== undefined ? { providerAccountId: body.providerAccountId } : {}),
        idempotencyKey: idempotencyKey as string,
      },
      caller,
    );
  }

  @Get('stablecoin-provider-accounts')
  @ApiOperation({ summary: 'List stablecoin provider account links', description: 'Newest first; cursor-paginated.' })
  @ApiOkResponse({ type: StablecoinProviderAccountListResponseDto })
  @ApiErrors(400, 401)
  listProviderAccounts(@Query() query: ListStablecoinProviderAccountsQuery, @Caller() caller: CallerContext): Promise<StablecoinPage<StablecoinProviderAccount>> {
    return this.services.request(STABLECOINS_SUBJECTS.listProviderAccounts, { provider: query.provider, status: query.status, limit: query.limit, cursor: query.cursor }, caller);
  }

  @Get('stablecoin-provider-accounts/:stablecoinProviderAccountId')
  @ApiOperation({ summary: 'Get a stablecoin provider account link' })
  @ApiParam({ name: 'stablecoinProviderAccountId', example: 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001' })
  @ApiOkResponse({ type: StablecoinProviderAccountResponseDto })
  @ApiErrors(401, 404)
  getProviderAccount(@Param('stablecoinProviderAccountId') stablecoinProviderAccountId: string, @Caller() caller: CallerContext): Promise<StablecoinProviderAccount> {
    return this.services.request(STABLECOINS_SUBJECTS.getProviderAccount, { stablecoinProviderAccountId }, caller);
  }

  @Post('stablecoins')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register an existing provider-created stablecoin',
    description:
      "Registers a coin the provider created, through the platform's only ACTIVE link or the one named. Enabled, the coin is a currency of the deployment: its symbol is the " +
      'currency code, the platform gets an internal account in it, and quotes price it one for one with its base currency. A symbol already naming a currency answers 409. ' +
      SANDBOX_PROVIDER,
  })
  @ApiHeader(idempotencyHeader('register-8b1d47'))
  @ApiCreatedResponse({ type: StablecoinResponseDto })
  @ApiErrors(400, 401, 404, 409)
  register(@Body() body: StablecoinRegisterRequest, @Headers('idempotency-key') idempotencyKey: string | undefined, @Caller() caller: CallerContext): Promise<Stablecoin> {
    return this.services.request(
      STABLECOINS_SUBJECTS.register,
      {
        providerTokenIdentifier: body.providerTokenIdentifier,
        networkTokenIdentifier: body.networkTokenIdentifier,
        network: body.network,
        ...(body.stablecoinProviderAccountId !== undefined ? { stablecoinProviderAccountId: body.stablecoinProviderAccountId } : {}),
        idempotencyKey: idempotencyKey as string,
      },
      caller,
    );
  }

  @Get('stablecoins')
  @ApiOperation({ summary: 'List stablecoins', description: 'Newest first; cursor-paginated.' })
  @ApiOkResponse({ type: StablecoinListResponseDto })
  @ApiErrors(400, 401)
  list(@Query() query: ListStablecoinsQuery, @Caller() caller: CallerContext): Promise<StablecoinPage<Stablecoin>> {
    return this.services.request(
      STABLECOINS_SUBJECTS.list,
      { issuanceStatus: query.issuanceStatus, serviceOperationsStatus: query.serviceOperationsStatus, provider: query.provider, limit: query.limit, cursor: query.cursor },
      caller,
    );
  }

  @Get('stablecoins/:stablecoinId')
  @ApiOperation({ summary: 'Get a stablecoin' })
  @ApiParam({ name: 'stablecoinId', example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' })
  @ApiOkResponse({ type: StablecoinResponseDto })
  @ApiErrors(401, 404)
  get(@Param('stablecoinId') stablecoinId: string, @Caller() caller: CallerContext): Promise<Stablecoin> {
    return this.services.request(STABLECOINS_SUBJECTS.get, { stablecoinId }, caller);
  }

  @Post('stablecoins/:stablecoinId/mints')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a stablecoin mint operation',
    description:
      "Mints an ENABLED coin to an internal account in the coin or a Lightning external wallet. `amount` is in the coin's smallest unit and must be whole cents of the base currency. " +
      'WIRE answers funding instructions and waits PENDING_FUNDING; ACH_DEBIT and SAME_DAY_ACH_DEBIT debit a bank external account in the base currency; ' +
      'SERVICE_INTERNAL_ACCOUNT holds the amount on an internal account in the base currency now and takes it on completion; PROVIDER_INTERNAL_BALANCE spends the provider balance. ' +
      'On completion the reserve receives the fiat and the supply issues the coins, both on the ledger. ' +
      OPERATION_OUTCOMES,
  })
  @ApiParam({ name: 'stablecoinId', example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' })
  @ApiHeader(idempotencyHeader('mint-c52e90'))
  @ApiCreatedResponse({ type: StablecoinOperationResponseDto })
  @ApiErrors(400, 401, 404, 409, 503)
  mint(
    @Param('stablecoinId') stablecoinId: string,
    @Body() body: StablecoinMintRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Caller() caller: CallerContext,
  ): Promise<StablecoinOperation> {
    const funding = body.fundingSource;
    return this.services.request(
      STABLECOINS_SUBJECTS.mint,
      {
        stablecoinId,
        amount: body.amount,
        fundingSource: {
          type: funding.type,
          ...(funding.externalAccountId !== undefined ? { externalAccountId: funding.externalAccountId } : {}),
          ...(funding.accountId !== undefined ? { accountId: funding.accountId } : {}),
          ...(funding.sourceTokenIdentifier !== undefined ? { sourceTokenIdentifier: funding.sourceTokenIdentifier } : {}),
          ...(funding.cryptoNetwork !== undefined ? { cryptoNetwork: funding.cryptoNetwork } : {}),
        },
        destination: { accountId: body.destination.accountId },
        ...(body.description !== undefined ? { description: body.description } : {}),
        idempotencyKey: idempotencyKey as string,
      },
      caller,
    );
  }

  @Post('stablecoins/:stablecoinId/burns')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a stablecoin burn operation',
    description:
      'Burns an ENABLED coin and pays its value out to a bank external account in the base currency on the chosen rail (`estimatedDelivery` gives the amount and timing). ' +
      'SERVICE_INTERNAL_ACCOUNT holds the coins on an internal account now and burns them on completion; EXTERNAL_ACCOUNT answers a deposit address and waits PENDING_FUNDING; ' +
      'PROVIDER_INTERNAL_BALANCE spends coins held at the provider. On completion the supply takes the coins back and the reserve pays the fiat out, both on the ledger. ' +
      OPERATION_OUTCOMES,
  })
  @ApiParam({ name: 'stablecoinId', example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' })
  @ApiHeader(idempotencyHeader('burn-a19f03'))
  @ApiCreatedResponse({ type: StablecoinOperationResponseDto })
  @ApiErrors(400, 401, 404, 409, 503)
  burn(
    @Param('stablecoinId') stablecoinId: string,
    @Body() body: StablecoinBurnRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Caller() caller: CallerContext,
  ): Promise<StablecoinOperation> {
    return this.services.request(
      STABLECOINS_SUBJECTS.burn,
      {
        stablecoinId,
        amount: body.amount,
        source: { type: body.source.type, ...(body.source.accountId !== undefined ? { accountId: body.source.accountId } : {}) },
        destination: { type: body.destination.type, externalAccountId: body.destination.externalAccountId, rail: body.destination.rail },
        ...(body.description !== undefined ? { description: body.description } : {}),
        idempotencyKey: idempotencyKey as string,
      },
      caller,
    );
  }

  @Get('stablecoins/:stablecoinId/operations')
  @ApiOperation({ summary: 'List stablecoin issuer operations', description: 'Mints and burns of the coin, newest first; cursor-paginated.' })
  @ApiParam({ name: 'stablecoinId', example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' })
  @ApiOkResponse({ type: StablecoinOperationListResponseDto })
  @ApiErrors(401, 404)
  listOperations(
    @Param('stablecoinId') stablecoinId: string,
    @Query() query: ListStablecoinOperationsQuery,
    @Caller() caller: CallerContext,
  ): Promise<StablecoinPage<StablecoinOperation>> {
    return this.services.request(STABLECOINS_SUBJECTS.listOperations, { stablecoinId, operationType: query.operationType, limit: query.limit, cursor: query.cursor }, caller);
  }

  @Get('stablecoin-operations/:stablecoinOperationId')
  @ApiOperation({ summary: 'Get a stablecoin issuer operation' })
  @ApiParam({ name: 'stablecoinOperationId', example: 'StablecoinOperation:019542f5-b3e7-1d02-0000-000000000301' })
  @ApiOkResponse({ type: StablecoinOperationResponseDto })
  @ApiErrors(401, 404)
  getOperation(@Param('stablecoinOperationId') stablecoinOperationId: string, @Caller() caller: CallerContext): Promise<StablecoinOperation> {
    return this.services.request(STABLECOINS_SUBJECTS.getOperation, { stablecoinOperationId }, caller);
  }
}

@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox/stablecoin-operations')
export class SandboxStablecoinsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post(':stablecoinOperationId/fund')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Simulate the external funds of a stablecoin operation',
    description:
      "Sandbox only: the provider reports a wire mint's fiat, or an external burn's coins, received; the operation moves PENDING_FUNDING to PENDING_PROVIDER and on. 409 from any other status.",
  })
  @ApiParam({ name: 'stablecoinOperationId', example: 'StablecoinOperation:019542f5-b3e7-1d02-0000-000000000301' })
  @ApiOkResponse({ type: StablecoinOperationResponseDto })
  @ApiErrors(401, 403, 404, 409)
  fund(@Param('stablecoinOperationId') stablecoinOperationId: string, @Caller() caller: CallerContext): Promise<StablecoinOperation> {
    return this.services.request(STABLECOINS_SUBJECTS.fundOperation, { stablecoinOperationId }, caller);
  }
}
