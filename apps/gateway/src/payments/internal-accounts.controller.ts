import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CallerContext,
  InternalAccount,
  ListCustomerInternalAccountsQuery,
  ListPlatformInternalAccountsQuery,
  Page,
  PAYMENTS_SUBJECTS,
  SandboxAccountStatusRequest,
  SandboxFundRequest,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { InternalAccountListResponseDto, InternalAccountResponseDto, publicInternalAccount } from './dto/internal-account.response';

const ACCOUNT_ID_EXAMPLE = 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

@ApiTags('Internal accounts')
@ApiBasicAuth('BasicAuth')
@Controller()
export class InternalAccountsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get('customers/internal-accounts')
  @ApiOperation({
    summary: "List customers' internal accounts",
    description: 'Each customer gets a holding account per supported currency when it is created (and an embedded wallet where enabled). Newest first, cursor-paginated.',
  })
  @ApiOkResponse({ type: InternalAccountListResponseDto })
  @ApiErrors(400, 401)
  async listCustomers(@Query() query: ListCustomerInternalAccountsQuery, @Caller() caller: CallerContext): Promise<Page<InternalAccount>> {
    const page = await this.services.request(
      PAYMENTS_SUBJECTS.listInternalAccounts,
      { owner: 'CUSTOMER', customerId: query.customerId, currency: query.currency, type: query.type, limit: query.limit, cursor: query.cursor },
      caller,
    );
    return { ...page, data: page.data.map(publicInternalAccount) };
  }

  @Get('platform/internal-accounts')
  @ApiOperation({ summary: "List the platform's own internal accounts", description: 'One holding account per supported currency. Newest first, cursor-paginated.' })
  @ApiOkResponse({ type: InternalAccountListResponseDto })
  @ApiErrors(400, 401)
  async listPlatform(@Query() query: ListPlatformInternalAccountsQuery, @Caller() caller: CallerContext): Promise<Page<InternalAccount>> {
    const page = await this.services.request(
      PAYMENTS_SUBJECTS.listInternalAccounts,
      { owner: 'PLATFORM', currency: query.currency, type: query.type, limit: query.limit, cursor: query.cursor },
      caller,
    );
    return { ...page, data: page.data.map(publicInternalAccount) };
  }

  @Get('internal-accounts/:accountId')
  @ApiOperation({
    summary: 'Get an internal account',
    description: '`balance` is the available balance (posted funds less pending holds), `totalBalance` every posted fund; `fundingPaymentInstructions` say how to fund it.',
  })
  @ApiParam({ name: 'accountId', example: ACCOUNT_ID_EXAMPLE })
  @ApiOkResponse({ type: InternalAccountResponseDto })
  @ApiErrors(401, 404)
  async get(@Param('accountId') accountId: string, @Caller() caller: CallerContext): Promise<InternalAccount> {
    return publicInternalAccount(await this.services.request(PAYMENTS_SUBJECTS.getInternalAccount, { accountId }, caller));
  }

  @Post('sandbox/internal-accounts/:accountId/fund')
  @HttpCode(200)
  @ApiTags('Sandbox')
  @ApiOperation({
    summary: 'Fund an internal account (sandbox)',
    description: 'Credits `amount` (smallest unit, > 0) instantly from a sandbox funding source and returns the account (`balance` and `totalBalance` include it).',
  })
  @ApiParam({ name: 'accountId', example: ACCOUNT_ID_EXAMPLE })
  @ApiOkResponse({ type: InternalAccountResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  async fund(@Param('accountId') accountId: string, @Body() body: SandboxFundRequest, @Caller() caller: CallerContext): Promise<InternalAccount> {
    return publicInternalAccount(await this.services.request(PAYMENTS_SUBJECTS.fundInternalAccount, { accountId, amount: body.amount }, caller));
  }

  @Post('sandbox/internal-accounts/:accountId/status')
  @HttpCode(200)
  @ApiTags('Sandbox')
  @ApiOperation({
    summary: 'Freeze, unfreeze or close an internal account (sandbox)',
    description:
      'Moves the account ACTIVE <-> FROZEN, or from ACTIVE or FROZEN to CLOSED, and returns it; an `INTERNAL_ACCOUNT.STATUS_UPDATED` webhook follows. ' +
      'A FROZEN account takes no new holds, funding or transfers (existing holds still settle); CLOSED is terminal. Any other transition, and closing an ' +
      'account with a balance, pending holds or an incoming transfer in flight, answers 409 INVALID_STATE_TRANSITION.',
  })
  @ApiParam({ name: 'accountId', example: ACCOUNT_ID_EXAMPLE })
  @ApiOkResponse({ type: InternalAccountResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  async setStatus(@Param('accountId') accountId: string, @Body() body: SandboxAccountStatusRequest, @Caller() caller: CallerContext): Promise<InternalAccount> {
    return publicInternalAccount(await this.services.request(PAYMENTS_SUBJECTS.setInternalAccountStatus, { accountId, status: body.status }, caller));
  }
}
