import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AGENT_ACTIONS_SUBJECTS, AgentAction, CallerContext, Page } from '@paykit/contracts';
import { decodeCursor, idCursor, pageLimit, toPage } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { RequiresPermission } from '../auth/permissions';
import { Public } from '../auth/public.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import {
  AGENT_ACTION_ID_EXAMPLE,
  AGENT_ID_EXAMPLE,
  AgentActionDto,
  AgentActionListResponseDto,
  AgentActionRejectRequest,
  AgentCreateResponseDto,
  AgentDeviceCodeDto,
  AgentDeviceCodeRedeemResponseDto,
  AgentDeviceCodeResource,
  AgentDeviceCodeStatusDto,
  AgentDto,
  AgentListResponseDto,
  AgentPolicyUpdateRequest,
  AgentResource,
  CreateAgentRequest,
  DEVICE_CODE_EXAMPLE,
  ListAgentApprovalsQuery,
  ListAgentsQuery,
  UpdateAgentRequest,
} from './agents.dto';
import { AgentsService, DEVICE_CODE_TTL_MS } from './agents.service';

const AGENT_CURSOR = idCursor('Agent');
const date = (value: string | undefined): Date | undefined => (value === undefined ? undefined : new Date(value));
const AGENT_ID = { name: 'agentId', example: AGENT_ID_EXAMPLE };
const ACTION_ID = { name: 'actionId', example: AGENT_ACTION_ID_EXAMPLE };
const CODE = { name: 'code', example: DEVICE_CODE_EXAMPLE };

/** The platform's agents: created for a customer with a policy, paused, re-coded, deleted; their pending actions decided. Needs MANAGE. */
@ApiTags('Agent Management')
@ApiBasicAuth('BasicAuth')
@RequiresPermission('MANAGE')
@Controller('agents')
export class AgentsController {
  constructor(
    private readonly agents: AgentsService,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'Create an agent',
    description:
      'An agent acts for one customer of the platform (unknown or foreign customer: 400 INVALID_INPUT naming customerId) within its policy. The answer carries a device code ' +
      `the agent software redeems once, within ${DEVICE_CODE_TTL_MS / 3_600_000} hours, for its access token.`,
  })
  @ApiCreatedResponse({ type: AgentCreateResponseDto })
  @ApiErrors(400, 401)
  create(@Body() body: CreateAgentRequest, @Caller() caller: CallerContext): Promise<{ agent: AgentResource; deviceCode: AgentDeviceCodeResource }> {
    return this.agents.create(caller, body);
  }

  @Get()
  @ApiOperation({ summary: 'List agents', description: 'Live agents of the platform, newest first, cursor-paginated, with their usage.' })
  @ApiOkResponse({ type: AgentListResponseDto })
  @ApiErrors(400, 401)
  async list(@Query() query: ListAgentsQuery, @Caller() caller: CallerContext): Promise<Page<AgentResource>> {
    const limit = pageLimit(query.limit);
    const { rows, resources, totalCount } = await this.agents.page(
      caller,
      {
        customerId: query.customerId,
        isPaused: query.isPaused,
        isConnected: query.isConnected,
        createdAfter: date(query.createdAfter),
        createdBefore: date(query.createdBefore),
        updatedAfter: date(query.updatedAfter),
        updatedBefore: date(query.updatedBefore),
      },
      limit,
      decodeCursor(query.cursor, AGENT_CURSOR),
    );
    return { ...toPage(rows, limit, (row) => resources.get(row.id)!, AGENT_CURSOR), totalCount };
  }

  @Get('approvals')
  @ApiOperation({
    summary: 'List agent actions waiting for approval',
    description: 'PENDING_APPROVAL actions of every agent of the platform (or of one agent or customer), newest first unless `sortOrder=asc`.',
  })
  @ApiOkResponse({ type: AgentActionListResponseDto })
  @ApiErrors(400, 401)
  approvals(@Query() query: ListAgentApprovalsQuery, @Caller() caller: CallerContext): Promise<Page<AgentAction>> {
    return this.services.request(
      AGENT_ACTIONS_SUBJECTS.list,
      {
        status: 'PENDING_APPROVAL',
        agentId: query.agentId,
        customerId: query.customerId,
        startDate: query.startDate,
        endDate: query.endDate,
        sortOrder: query.sortOrder,
        limit: query.limit,
        cursor: query.cursor,
      },
      caller,
    );
  }

  @Get('device-codes/:code/status')
  @ApiOperation({ summary: 'Get device code status', description: "Whether the platform's device code was redeemed (poll it after creating an agent)." })
  @ApiParam(CODE)
  @ApiOkResponse({ type: AgentDeviceCodeStatusDto })
  @ApiErrors(401, 404)
  status(@Param('code') code: string, @Caller() caller: CallerContext): Promise<{ code: string; redeemed: boolean }> {
    return this.agents.deviceCodeStatus(caller, code);
  }

  @Post('device-codes/:code/redeem')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Redeem a device code',
    description:
      'Called by the agent software, without credentials: the code is the proof. Answers the AgentAuth `accessToken` once (only its digest is kept). ' +
      'A code works once (again: 400 INVALID_INPUT) and until it expires (400 EXPIRED); an unknown or superseded code answers 404.',
    security: [],
  })
  @ApiParam(CODE)
  @ApiOkResponse({ type: AgentDeviceCodeRedeemResponseDto })
  @ApiErrors(400, 404)
  redeem(@Param('code') code: string): ReturnType<AgentsService['redeem']> {
    return this.agents.redeem(code);
  }

  @Get(':agentId')
  @ApiOperation({ summary: 'Get an agent', description: "With its policy and usage. Another platform's agent answers 404." })
  @ApiParam(AGENT_ID)
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors(401, 404)
  get(@Param('agentId') agentId: string, @Caller() caller: CallerContext): Promise<AgentResource> {
    return this.agents.get(caller, agentId);
  }

  @Patch(':agentId')
  @ApiOperation({ summary: 'Update an agent', description: 'Renames it, or pauses (`isPaused: true`: its access token answers 401 at once) or resumes it.' })
  @ApiParam(AGENT_ID)
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors(400, 401, 404)
  update(@Param('agentId') agentId: string, @Body() body: UpdateAgentRequest, @Caller() caller: CallerContext): Promise<AgentResource> {
    return this.agents.update(caller, agentId, body);
  }

  @Delete(':agentId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an agent', description: 'Its access tokens and unredeemed device codes stop working at once.' })
  @ApiParam(AGENT_ID)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(401, 404)
  async remove(@Param('agentId') agentId: string, @Caller() caller: CallerContext): Promise<void> {
    await this.agents.delete(caller, agentId);
  }

  @Patch(':agentId/policy')
  @ApiOperation({ summary: "Update an agent's policy", description: 'Only the fields sent change (spending limits field by field); the next action is checked against it.' })
  @ApiParam(AGENT_ID)
  @ApiOkResponse({ type: AgentDto })
  @ApiErrors(400, 401, 404)
  updatePolicy(@Param('agentId') agentId: string, @Body() body: AgentPolicyUpdateRequest, @Caller() caller: CallerContext): Promise<AgentResource> {
    return this.agents.updatePolicy(caller, agentId, body);
  }

  @Post(':agentId/device-codes')
  @ApiOperation({
    summary: 'Regenerate a device code',
    description: 'For an agent whose software is not connected (connected: 409 CONFLICT). Earlier unredeemed codes of the agent stop working.',
  })
  @ApiParam(AGENT_ID)
  @ApiCreatedResponse({ type: AgentDeviceCodeDto })
  @ApiErrors(400, 401, 404, 409)
  regenerate(@Param('agentId') agentId: string, @Caller() caller: CallerContext): Promise<AgentDeviceCodeResource> {
    return this.agents.regenerateDeviceCode(caller, agentId);
  }

  @Post(':agentId/actions/:actionId/approve')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Approve an agent action',
    description:
      'A PENDING_APPROVAL action executes against the balance and limits of this moment: its funds are held and the transfer proceeds (APPROVED), or, if a check fails, the action is FAILED with failureReason and nothing moves. ' +
      'Same as POST /transactions/{id}/approve on its transaction. An action already decided answers 409 INVALID_STATE_TRANSITION.',
  })
  @ApiParam(AGENT_ID)
  @ApiParam(ACTION_ID)
  @ApiOkResponse({ type: AgentActionDto })
  @ApiErrors(400, 401, 404, 409)
  async approve(@Param('agentId') agentId: string, @Param('actionId') actionId: string, @Caller() caller: CallerContext): Promise<AgentAction> {
    await this.agents.require(caller.platformId, agentId);
    return this.services.request(AGENT_ACTIONS_SUBJECTS.approve, { agentId, actionId }, caller);
  }

  @Post(':agentId/actions/:actionId/reject')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reject an agent action',
    description: 'A PENDING_APPROVAL action is REJECTED: nothing moves (a waiting action holds nothing) and its transfer fails. Decided already: 409 INVALID_STATE_TRANSITION.',
  })
  @ApiParam(AGENT_ID)
  @ApiParam(ACTION_ID)
  @ApiBody({ type: AgentActionRejectRequest, required: false })
  @ApiOkResponse({ type: AgentActionDto })
  @ApiErrors(400, 401, 404, 409)
  async reject(
    @Param('agentId') agentId: string,
    @Param('actionId') actionId: string,
    @Body() body: AgentActionRejectRequest,
    @Caller() caller: CallerContext,
  ): Promise<AgentAction> {
    await this.agents.require(caller.platformId, agentId);
    return this.services.request(AGENT_ACTIONS_SUBJECTS.reject, { agentId, actionId, ...(body.reason !== undefined ? { reason: body.reason } : {}) }, caller);
  }
}
