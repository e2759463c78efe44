import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiAccountInfoModels,
  CallerContext,
  CreateCustomerExternalAccountRequest,
  EXTERNAL_ACCOUNTS_SUBJECTS,
  ExternalAccount,
  ExternalAccountPage,
  OwnershipChallenge,
  OwnershipChallengeRequest,
  OwnershipVerifyRequest,
  ListCustomerExternalAccountsQuery,
  UpdateExternalAccountRequest,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ErrorResponseDto } from '../errors/error-response.dto';
import { ApiErrors } from '../http/api-errors.decorator';
import { ExternalAccountPageDto, ExternalAccountResponseDto, withoutRouting } from './dto/external-account.response';
import { EXTERNAL_ACCOUNT_ID_EXAMPLE, OwnershipChallengeRoute, OwnershipVerifyRoute, startOwnershipChallenge, verifyOwnership } from './wallet-ownership';

const ID_EXAMPLE = EXTERNAL_ACCOUNT_ID_EXAMPLE;
const REVIEW =
  'In the sandbox the last 3 digits of the primary identifier (account number, IBAN, CLABE, phone, pix key, VPA or wallet address; ' +
  'for user@domain identifiers, of the username) drive name verification: 102 NOT_MATCHED (UNDER_REVIEW), 103 PARTIAL_MATCH (ACTIVE), ' +
  '104 PENDING (PENDING, resolves to MATCHED/ACTIVE after about 30 s with an EXTERNAL_ACCOUNT.STATUS_UPDATED webhook), 105 400 INVALID_BANK_ACCOUNT, ' +
  '106 UNSUPPORTED (ACTIVE), 107 CHECKED_BY_RECEIVING_FI (ACTIVE), other MATCHED (ACTIVE).';

@ApiTags('External Accounts')
@ApiBasicAuth('BasicAuth')
@ApiAccountInfoModels()
@Controller('customers/external-accounts')
export class CustomerExternalAccountsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: "Register a customer's external account",
    description:
      'Bank, mobile-money or crypto destination of a customer of the platform (unknown or foreign customer: 400 INVALID_INPUT naming customerId). ' +
      'accountType must agree with currency; every invalid or missing field is listed at once in details.errors[]. ' +
      'The same destination registered twice for one customer answers 409 CONFLICT with details.existingAccountId. ' +
      REVIEW,
  })
  @ApiCreatedResponse({ type: ExternalAccountResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'CONFLICT: this destination is already registered for the owner (details.existingAccountId)' })
  @ApiErrors(400, 401, 410)
  @ApiBody({ type: CreateCustomerExternalAccountRequest })
  // Bodies are passed on as received: the external-accounts service validates them together with its
  // rules (check digits, corridor and beneficiary tables) and lists every problem in one answer.
  create(@Body() body: unknown, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.createAccount, { ownerType: 'CUSTOMER', body }, caller);
  }

  @Get()
  @ApiOperation({
    summary: "List customers' external accounts",
    description: 'Newest first, cursor-paginated; `customerId` narrows to one customer. Removed (INACTIVE) accounts are included.',
  })
  @ApiOkResponse({ type: ExternalAccountPageDto })
  @ApiErrors(400, 401, 404)
  list(@Query() query: ListCustomerExternalAccountsQuery, @Caller() caller: CallerContext): Promise<ExternalAccountPage> {
    return this.services.request(
      EXTERNAL_ACCOUNTS_SUBJECTS.listAccounts,
      { ownerType: 'CUSTOMER', customerId: query.customerId, status: query.status, currency: query.currency, limit: query.limit, cursor: query.cursor },
      caller,
    );
  }

  @Get(':externalAccountId')
  @ApiOperation({ summary: "Get a customer's external account", description: 'Full, unmasked destination details.' })
  @ApiParam({ name: 'externalAccountId', example: ID_EXAMPLE })
  @ApiOkResponse({ type: ExternalAccountResponseDto })
  @ApiErrors(401, 404)
  async get(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return withoutRouting(await this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.getAccount, { externalAccountId, ownerType: 'CUSTOMER' }, caller));
  }

  @Patch(':externalAccountId')
  @ApiOperation({
    summary: "Update a customer's external account",
    description: 'New platformAccountId and/or accountInfo (same currency). New accountInfo re-runs review: the status and verification result may change. ' + REVIEW,
  })
  @ApiParam({ name: 'externalAccountId', example: ID_EXAMPLE })
  @ApiOkResponse({ type: ExternalAccountResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'INVALID_STATE_TRANSITION (removed account) or CONFLICT (destination already registered)' })
  @ApiErrors(400, 401, 404)
  @ApiBody({ type: UpdateExternalAccountRequest })
  update(@Param('externalAccountId') externalAccountId: string, @Body() body: unknown, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.updateAccount, { ownerType: 'CUSTOMER', externalAccountId, body }, caller);
  }

  @Delete(':externalAccountId')
  @ApiOperation({
    summary: "Remove a customer's external account",
    description:
      'The account becomes INACTIVE and stays readable (history). Repeating the call changes nothing. A trusted beneficiary (Strong Customer Authentication) answers 409 BENEFICIARY_TRUSTED: untrust it first.',
  })
  @ApiParam({ name: 'externalAccountId', example: ID_EXAMPLE })
  @ApiOkResponse({ type: ExternalAccountResponseDto, description: 'The account, now INACTIVE' })
  @ApiErrors(401, 404, 409)
  remove(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.removeAccount, { externalAccountId, ownerType: 'CUSTOMER' }, caller);
  }

  @OwnershipChallengeRoute("a customer's")
  challenge(@Param('externalAccountId') externalAccountId: string, @Body() body: OwnershipChallengeRequest, @Caller() caller: CallerContext): Promise<OwnershipChallenge> {
    return startOwnershipChallenge(this.services, 'CUSTOMER', externalAccountId, body, caller);
  }

  @OwnershipVerifyRoute("a customer's")
  verify(@Param('externalAccountId') externalAccountId: string, @Body() body: OwnershipVerifyRequest, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return verifyOwnership(this.services, 'CUSTOMER', externalAccountId, body, caller);
  }
}
