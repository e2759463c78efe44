import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPropertyOptional,
  ApiTags,
  PickType,
} from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import {
  AGENT_ACTIONS_SUBJECTS,
  AgentAction,
  CallerContext,
  CardTransaction,
  CreateCustomerExternalAccountRequest,
  CreateQuoteRequest,
  Quote,
  QUOTES_SUBJECTS,
  EXTERNAL_ACCOUNTS_SUBJECTS,
  ExternalAccount,
  ExternalAccountPage,
  InternalAccount,
  ListPlatformInternalAccountsQuery,
  ListTransactionsQuery,
  Page,
  PAYMENTS_SUBJECTS,
  PageQuery,
  Transaction,
  TransferInRequest,
  TransferOutRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { AuthenticatedAgent, Caller, CurrentAgent } from '../auth/caller.decorator';
import { RequiresAgentPermission } from '../auth/permissions';
import { AgentAuthOnly } from '../auth/public.decorator';
import {
  ApiTransactionListWithCardsResponse,
  ApiTransactionOrCardTransactionResponse,
  getCardTransaction,
  isCardTransactionId,
  listWithCardTransactions,
} from '../cards/card-transaction-lookup';
import { ExternalAccountPageDto, ExternalAccountResponseDto, withoutRouting } from '../external-accounts/dto/external-account.response';
import { ApiErrors } from '../http/api-errors.decorator';
import { CLIENT_RETRIES, CLIENT_RETRY_HEADER, clientRetry } from '../http/client-retry';
import { InternalAccountListResponseDto, publicInternalAccount } from '../payments/dto/internal-account.response';
import { createQuoteMessage } from '../quotes/quotes.controller';
import { QuoteResponseDto } from '../quotes/dto/quote.response';
import { AGENT_ACTION_ID_EXAMPLE, AgentActionDto, AgentActionListResponseDto, AgentDto, AgentResource, ListOwnActionsQuery } from './agents.dto';
import { AgentsService } from './agents.service';

const IDEMPOTENCY_HEADER = { name: 'Idempotency-Key', required: false, description: 'Same key and body: the first answer again, no second movement.' };
const POLICY_CHECKS =
  'Checked against the policy before anything moves: the accounts must be the customer’s (and allowed by `accountRestrictions`), the amount within the per-transaction, ' +
  'daily and monthly limits and the daily count (403 VELOCITY_LIMIT_EXCEEDED otherwise). In APPROVAL_REQUIRED mode, or above the approval threshold, the action waits ' +
  'PENDING_APPROVAL (webhook AGENT_ACTION.PENDING_APPROVAL) until the platform approves or rejects it; otherwise it is APPROVED with its transaction.';

export class AgentInternalAccountsQuery extends ListPlatformInternalAccountsQuery {}

export class AgentExternalAccountsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only accounts in this currency', example: 'USD' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  currency?: string;
}

export class AgentTransactionsQuery extends PickType(ListTransactionsQuery, [
  'accountIdentifier',
  'senderAccountIdentifier',
  'receiverAccountIdentifier',
  'status',
  'type',
  'reference',
  'startDate',
  'endDate',
  'limit',
  'cursor',
  'sortOrder',
] as const) {}

/**
 * What an agent does for its customer, with its own AgentAuth bearer token: every call is bound
 * to the agent's customer (another customer's ids answer 404) and, where money moves, to its policy.
 * The reads and writes reuse the platform routes' handlers, called with the customer's scope.
 */
@ApiTags('Agent Operations')
@ApiBearerAuth('AgentAuth')
@AgentAuthOnly()
@Controller('agents/me')
export class AgentOperationsController {
  constructor(
    private readonly agents: AgentsService,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get the calling agent', description: 'Its profile, policy and usage.' })
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors(401)
  me(@CurrentAgent() agent: AuthenticatedAgent, @Caller() caller: CallerContext): Promise<AgentResource> {
    return this.agents.get(caller, agent.agentId);
  }

  @Get('internal-accounts')
  @RequiresAgentPermission('VIEW_TRANSACTIONS')
  @ApiOperation({ summary: "List the customer's internal accounts", description: 'Needs VIEW_TRANSACTIONS. Newest first, cursor-paginated.' })
  @ApiOkResponse({ type: InternalAccountListResponseDto })
  @ApiErrors(400, 401)
  async internalAccounts(@Query() query: AgentInternalAccountsQuery, @CurrentAgent() agent: AuthenticatedAgent, @Caller() caller: CallerContext): Promise<Page<InternalAccount>> {
    const page = await this.services.request(
      PAYMENTS_SUBJECTS.listInternalAccounts,
      { owner: 'CUSTOMER', customerId: agent.customerId, currency: query.currency, type: query.type, limit: query.limit, cursor: query.cursor },
      caller,
    );
    return { ...page, data: page.data.map(publicInternalAccount) };
  }

  @Get('external-accounts')
  @RequiresAgentPermission('MANAGE_EXTERNAL_ACCOUNTS')
  @ApiOperation({ summary: "List the customer's external accounts", description: 'Needs MANAGE_EXTERNAL_ACCOUNTS. Newest first, cursor-paginated.' })
  @ApiOkResponse({ type: ExternalAccountPageDto })
  @ApiErrors(400, 401)
  externalAccounts(@Query() query: AgentExternalAccountsQuery, @CurrentAgent() agent: AuthenticatedAgent, @Caller() caller: CallerContext): Promise<ExternalAccountPage> {
    return this.services.request(
      EXTERNAL_ACCOUNTS_SUBJECTS.listAccounts,
      { ownerType: 'CUSTOMER', customerId: agent.customerId, currency: query.currency, limit: query.limit, cursor: query.cursor },
      caller,
    );
  }

  @Post('external-accounts')
  @HttpCode(201)
  @RequiresAgentPermission('MANAGE_EXTERNAL_ACCOUNTS')
  @ApiOperation({
    summary: 'Register an external account for the customer',
    description:
      'Needs MANAGE_EXTERNAL_ACCOUNTS. As POST /customers/external-accounts; `customerId` may be left out (it is the agent’s customer, and no other: ' +
      'another answers 400 INVALID_INPUT naming customerId).',
  })
  @ApiBody({ type: CreateCustomerExternalAccountRequest })
  @ApiCreatedResponse({ type: ExternalAccountResponseDto })
  @ApiErrors(400, 401, 409)
  // Passed on as received, as on the platform route: the external-accounts service validates it and scopes it to the agent's customer.
  createExternalAccount(@Body() body: unknown, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.createAccount, { ownerType: 'CUSTOMER', body }, caller);
  }

  @Get('external-accounts/:externalAccountId')
  @RequiresAgentPermission('MANAGE_EXTERNAL_ACCOUNTS')
  @ApiOperation({ summary: "Get one of the customer's external accounts", description: "Needs MANAGE_EXTERNAL_ACCOUNTS. Another customer's account answers 404." })
  @ApiParam({ name: 'externalAccountId', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: ExternalAccountResponseDto })
  @ApiErrors(401, 404)
  async externalAccount(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<ExternalAccount> {
    return withoutRouting(await this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.getAccount, { externalAccountId, ownerType: 'CUSTOMER' }, caller));
  }

  @Delete('external-accounts/:externalAccountId')
  @HttpCode(204)
  @RequiresAgentPermission('MANAGE_EXTERNAL_ACCOUNTS')
  @ApiOperation({ summary: "Remove one of the customer's external accounts", description: 'Needs MANAGE_EXTERNAL_ACCOUNTS. The account becomes INACTIVE.' })
  @ApiParam({ name: 'externalAccountId', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(401, 404)
  async removeExternalAccount(@Param('externalAccountId') externalAccountId: string, @Caller() caller: CallerContext): Promise<void> {
    await this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.removeAccount, { externalAccountId, ownerType: 'CUSTOMER' }, caller);
  }

  @Get('transactions')
  @RequiresAgentPermission('VIEW_TRANSACTIONS')
  @ApiOperation({ summary: "List the customer's transactions", description: 'Needs VIEW_TRANSACTIONS. As GET /transactions, bound to the agent’s customer.' })
  @ApiTransactionListWithCardsResponse()
  @ApiErrors(400, 401)
  transactions(@Query() query: AgentTransactionsQuery, @CurrentAgent() agent: AuthenticatedAgent, @Caller() caller: CallerContext): Promise<Page<Transaction | CardTransaction>> {
    const filters = { ...query, customerId: agent.customerId };
    return listWithCardTransactions(this.services, filters, caller, (cursor, limit) =>
      this.services.request(
        PAYMENTS_SUBJECTS.listTransactions,
        {
          customerId: agent.customerId,
          accountIdentifier: query.accountIdentifier,
          senderAccountIdentifier: query.senderAccountIdentifier,
          receiverAccountIdentifier: query.receiverAccountIdentifier,
          status: query.status,
          type: query.type,
          reference: query.reference,
          startDate: query.startDate,
          endDate: query.endDate,
          sortOrder: query.sortOrder,
          limit,
          cursor,
        },
        caller,
      ),
    );
  }

  @Get('transactions/:transactionId')
  @RequiresAgentPermission('VIEW_TRANSACTIONS')
  @ApiOperation({ summary: "Get one of the customer's transactions", description: "Needs VIEW_TRANSACTIONS. Another customer's transaction answers 404." })
  @ApiParam({ name: 'transactionId', example: 'Transaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiTransactionOrCardTransactionResponse()
  @ApiErrors(401, 404)
  async transaction(
    @Param('transactionId') transactionId: string,
    @CurrentAgent() agent: AuthenticatedAgent,
    @Caller() caller: CallerContext,
  ): Promise<Transaction | CardTransaction> {
    const found = isCardTransactionId(transactionId)
      ? await getCardTransaction(this.services, transactionId, caller)
      : await this.services.request(PAYMENTS_SUBJECTS.getTransaction, { transactionId }, caller);
    if (found.customerId !== agent.customerId) throw new ServiceError('TRANSACTION_NOT_FOUND', `Transaction ${transactionId} not found`);
    return found;
  }

  @Post('transfer-out')
  @HttpCode(201)
  @RequiresAgentPermission('CREATE_TRANSFERS')
  @ApiOperation({
    summary: 'Send funds to one of the customer’s external accounts',
    description: `Needs CREATE_TRANSFERS. As POST /transfer-out. ${POLICY_CHECKS} ${CLIENT_RETRIES} A retry answers the action of this agent's earlier request.`,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiCreatedResponse({ type: AgentActionDto })
  @ApiErrors(400, 401, 403, 404, 409)
  transferOut(
    @Body() body: TransferOutRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers(CLIENT_RETRY_HEADER) retryCount: string | undefined,
    @CurrentAgent() agent: AuthenticatedAgent,
    @Caller() caller: CallerContext,
  ): Promise<AgentAction> {
    return this.services.request(
      AGENT_ACTIONS_SUBJECTS.transferOut,
      {
        agent: scopeOf(agent),
        transfer: {
          source: { accountId: body.source.accountId },
          destination: { accountId: body.destination.accountId, ...(body.destination.paymentRail !== undefined ? { paymentRail: body.destination.paymentRail } : {}) },
          ...(body.amount !== undefined ? { amount: body.amount } : {}),
          ...(body.currency !== undefined ? { currency: body.currency } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.remittanceInformation !== undefined ? { remittanceInformation: body.remittanceInformation } : {}),
          ...(body.purposeOfPayment !== undefined ? { purposeOfPayment: body.purposeOfPayment } : {}),
          ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
          ...clientRetry(retryCount),
        },
      },
      caller,
    );
  }

  @Post('transfer-in')
  @HttpCode(201)
  @RequiresAgentPermission('CREATE_TRANSFERS')
  @ApiOperation({
    summary: 'Pull funds from one of the customer’s external accounts',
    description: `Needs CREATE_TRANSFERS. As POST /transfer-in. ${POLICY_CHECKS} ${CLIENT_RETRIES} A retry answers the action of this agent's earlier request.`,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiCreatedResponse({ type: AgentActionDto })
  @ApiErrors(400, 401, 403, 404, 409)
  transferIn(
    @Body() body: TransferInRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers(CLIENT_RETRY_HEADER) retryCount: string | undefined,
    @CurrentAgent() agent: AuthenticatedAgent,
    @Caller() caller: CallerContext,
  ): Promise<AgentAction> {
    return this.services.request(
      AGENT_ACTIONS_SUBJECTS.transferIn,
      {
        agent: scopeOf(agent),
        transfer: {
          source: { accountId: body.source.accountId },
          destination: { accountId: body.destination.accountId },
          ...(body.amount !== undefined ? { amount: body.amount } : {}),
          ...(body.currency !== undefined ? { currency: body.currency } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
          ...clientRetry(retryCount),
        },
      },
      caller,
    );
  }

  @Post('quotes')
  @HttpCode(201)
  @RequiresAgentPermission('CREATE_QUOTES')
  @ApiOperation({
    summary: 'Create a quote for the customer',
    description:
      'Needs CREATE_QUOTES. As POST /quotes, from the customer’s own accounts only (another source account answers 404; another customer in ' +
      '`source.customerId`, 400 INVALID_INPUT naming it). With `immediatelyExecute` the quote is ' +
      'submitted for execution as an agent action, checked against the policy like POST /agents/me/quotes/{quoteId}/execute. ' +
      `With \`immediatelyExecute\`: ${CLIENT_RETRIES} A retry answers this agent's earlier quote as GET returns it now. A repeated Idempotency-Key answers the quote its first call created and submitted.`,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiCreatedResponse({ type: QuoteResponseDto })
  @ApiErrors(400, 401, 403, 404, 409)
  createQuote(
    @Body() body: CreateQuoteRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers(CLIENT_RETRY_HEADER) retryCount: string | undefined,
    @CurrentAgent() agent: AuthenticatedAgent,
    @Caller() caller: CallerContext,
  ): Promise<Quote> {
    const message = createQuoteMessage(body, idempotencyKey, retryCount);
    if (!message.immediatelyExecute) return this.services.request(QUOTES_SUBJECTS.createQuote, message, caller);
    // An agent's execution always goes through its policy: payments creates the quote, then submits it as the agent's action.
    return this.services.request(AGENT_ACTIONS_SUBJECTS.createQuote, { agent: scopeOf(agent), quote: message }, caller);
  }

  @Get('quotes/:quoteId')
  @RequiresAgentPermission('CREATE_QUOTES')
  @ApiOperation({ summary: 'Get one of the customer’s quotes', description: "Needs CREATE_QUOTES. Another customer's quote answers 404." })
  @ApiParam({ name: 'quoteId', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiOkResponse({ type: QuoteResponseDto })
  @ApiErrors(401, 404)
  quote(@Param('quoteId') quoteId: string, @Caller() caller: CallerContext): Promise<Quote> {
    return this.services.request(QUOTES_SUBJECTS.getQuote, { quoteId }, caller);
  }

  @Post('quotes/:quoteId/execute')
  @HttpCode(200)
  @RequiresAgentPermission('EXECUTE_QUOTES')
  @ApiOperation({
    summary: 'Execute one of the customer’s quotes',
    description:
      'Needs EXECUTE_QUOTES. Checked against the policy with the quote’s sending amount (limits: 403 VELOCITY_LIMIT_EXCEEDED). In APPROVAL_REQUIRED mode or above the ' +
      'threshold the action waits PENDING_APPROVAL (webhook AGENT_ACTION.PENDING_APPROVAL) and the quote executes when the platform approves it (FAILED if it expired ' +
      'meanwhile); otherwise it executes now and the action is APPROVED. Quotes paid from an embedded wallet need the customer’s signature: agents cannot execute them (403).',
  })
  @ApiParam({ name: 'quoteId', example: 'Quote:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiOkResponse({ type: AgentActionDto })
  @ApiErrors(400, 401, 403, 404, 409)
  executeQuote(
    @Param('quoteId') quoteId: string,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @CurrentAgent() agent: AuthenticatedAgent,
    @Caller() caller: CallerContext,
  ): Promise<AgentAction> {
    return this.services.request(AGENT_ACTIONS_SUBJECTS.executeQuote, { agent: scopeOf(agent), quoteId, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) }, caller);
  }

  @Get('actions')
  @ApiOperation({ summary: "List the agent's own actions", description: 'Newest first; poll it for the platform’s decisions.' })
  @ApiOkResponse({ type: AgentActionListResponseDto })
  @ApiErrors(400, 401)
  actions(@Query() query: ListOwnActionsQuery, @CurrentAgent() agent: AuthenticatedAgent, @Caller() caller: CallerContext): Promise<Page<AgentAction>> {
    return this.services.request(AGENT_ACTIONS_SUBJECTS.list, { agentId: agent.agentId, status: query.status, limit: query.limit, cursor: query.cursor }, caller);
  }

  @Get('actions/:actionId')
  @ApiOperation({ summary: 'Get one of the agent’s actions', description: "Another agent's action answers 404." })
  @ApiParam({ name: 'actionId', example: AGENT_ACTION_ID_EXAMPLE })
  @ApiOkResponse({ type: AgentActionDto })
  @ApiErrors(401, 404)
  action(@Param('actionId') actionId: string, @CurrentAgent() agent: AuthenticatedAgent, @Caller() caller: CallerContext): Promise<AgentAction> {
    return this.services.request(AGENT_ACTIONS_SUBJECTS.get, { agentId: agent.agentId, actionId }, caller);
  }
}

/** The agent as payments checks it: its customer and policy as of this request. */
function scopeOf(agent: AuthenticatedAgent): { agentId: string; customerId: string; policy: AuthenticatedAgent['policy'] } {
  return { agentId: agent.agentId, customerId: agent.customerId, policy: agent.policy };
}
