import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import {
  AGENT_ACTION_STATUSES,
  AGENT_ACTION_TYPES,
  AGENT_EXECUTION_MODES,
  AGENT_PERMISSIONS,
  AgentAccountRestrictions,
  AgentAction,
  AgentActionStatus,
  AgentActionType,
  AgentApprovalThresholds,
  AgentExecutionMode,
  AgentPermission,
  AgentPolicy,
  AgentSpendingLimitsUpdate,
  AgentTransferDetails,
  AgentUsage,
  PageQuery,
  Quote,
  Transaction,
} from '@paykit/contracts';
import { IsOneOf } from '@paykit/validation';
import { QuoteResponseDto } from '../quotes/dto/quote.response';
import { TransactionResponseDto } from '../payments/dto/transaction.response';

export const AGENT_ID_EXAMPLE = 'Agent:019542f5-b3e7-1d02-0000-000000000001';
export const AGENT_ACTION_ID_EXAMPLE = 'AgentAction:019542f5-b3e7-1d02-0000-000000000099';
export const DEVICE_CODE_EXAMPLE = 'AGENT-X7K9-M2P4-Q8RT';

/** Query booleans arrive as text. */
const toBoolean = ({ value }: { value: unknown }): unknown => (value === 'true' ? true : value === 'false' ? false : value);
const DATE_TIME = { strict: true } as const;
const dateTimeContext = { context: { constraint: { format: 'date-time' } } };

export class CreateAgentRequest {
  @ApiProperty({ description: 'A name to recognise the agent by', example: 'Payroll Automation Agent', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiProperty({ description: 'The customer of the platform the agent acts for', example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  customerId!: string;

  @ApiProperty({ type: AgentPolicy })
  @IsDefined()
  @ValidateNested()
  @Type(() => AgentPolicy)
  policy!: AgentPolicy;
}

export class UpdateAgentRequest {
  @ApiPropertyOptional({ description: 'A new name', example: 'Updated Payroll Agent', maxLength: 200 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ description: 'true pauses the agent (its token answers 401 at once), false resumes it', example: true })
  @ValidateIf((body: UpdateAgentRequest) => body.isPaused !== undefined || body.name === undefined)
  @IsBoolean({ message: 'isPaused must be a boolean (send name, isPaused or both)' })
  isPaused?: boolean;
}

export class AgentPolicyUpdateRequest {
  @ApiPropertyOptional({ enum: AGENT_PERMISSIONS, isArray: true, description: 'Replaces the whole list' })
  @IsOptional()
  @IsOneOf(AGENT_PERMISSIONS, { each: true })
  permissions?: AgentPermission[];

  @ApiPropertyOptional({ enum: AGENT_EXECUTION_MODES })
  @IsOptional()
  @IsOneOf(AGENT_EXECUTION_MODES)
  defaultExecutionMode?: AgentExecutionMode;

  @ApiPropertyOptional({ type: AgentSpendingLimitsUpdate, description: 'Only the fields sent change' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentSpendingLimitsUpdate)
  spendingLimits?: AgentSpendingLimitsUpdate;

  @ApiPropertyOptional({ type: AgentAccountRestrictions, description: 'Replaces the restrictions' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentAccountRestrictions)
  accountRestrictions?: AgentAccountRestrictions;

  @ApiPropertyOptional({ type: AgentApprovalThresholds, description: 'Replaces the thresholds' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentApprovalThresholds)
  approvalThresholds?: AgentApprovalThresholds;
}

export class ListAgentsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only agents of this customer' })
  @IsOptional()
  @IsString()
  customerId?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'Only paused (true) or running (false) agents' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  isPaused?: boolean;

  @ApiPropertyOptional({ type: Boolean, description: 'Only agents whose device code was (true) or was not (false) redeemed' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  isConnected?: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created at or after' })
  @IsOptional()
  @IsISO8601(DATE_TIME, dateTimeContext)
  createdAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created at or before' })
  @IsOptional()
  @IsISO8601(DATE_TIME, dateTimeContext)
  createdBefore?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Updated at or after' })
  @IsOptional()
  @IsISO8601(DATE_TIME, dateTimeContext)
  updatedAfter?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Updated at or before' })
  @IsOptional()
  @IsISO8601(DATE_TIME, dateTimeContext)
  updatedBefore?: string;
}

export class ListAgentApprovalsQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only actions of this agent' })
  @IsOptional()
  @IsString()
  agentId?: string;

  @ApiPropertyOptional({ description: 'Only actions for this customer' })
  @IsOptional()
  @IsString()
  customerId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Submitted at or after' })
  @IsOptional()
  @IsISO8601(DATE_TIME, dateTimeContext)
  startDate?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Submitted at or before' })
  @IsOptional()
  @IsISO8601(DATE_TIME, dateTimeContext)
  endDate?: string;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'desc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  sortOrder?: 'asc' | 'desc';
}

export class ListOwnActionsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: AGENT_ACTION_STATUSES, description: 'Only actions in this status' })
  @IsOptional()
  @IsOneOf(AGENT_ACTION_STATUSES)
  status?: AgentActionStatus;
}

export class AgentActionRejectRequest {
  @ApiPropertyOptional({ description: 'Why, kept on the action', example: "Transaction amount exceeds customer's current risk limit." })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}

export interface AgentResource {
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  isConnected: boolean;
  policy: AgentPolicy;
  usage: AgentUsage;
  createdAt: string;
  updatedAt: string;
}

export interface AgentDeviceCodeResource {
  code: string;
  agentId: string;
  expiresAt: string;
  redeemed: boolean;
}

export class AgentUsageDto implements AgentUsage {
  @ApiProperty({ type: 'integer', description: 'Transactions initiated today (UTC)', example: 3 }) dailyTransactionCount!: number;
  @ApiProperty({ type: 'integer', description: "Spent today, in the policy's currency", example: 150000 }) dailySpend!: number;
  @ApiProperty({ format: 'date', description: 'When the daily counters start over', example: '2025-07-22' }) dailyResetDate!: string;
  @ApiProperty({ type: 'integer', description: "Spent this month, in the policy's currency", example: 750000 }) monthlySpend!: number;
  @ApiProperty({ description: 'The year-month when the monthly counter starts over', example: '2025-08' }) monthlyResetMonth!: string;
}

export class AgentDto implements AgentResource {
  @ApiProperty({ example: AGENT_ID_EXAMPLE }) id!: string;
  @ApiProperty({ example: 'Payroll Automation Agent' }) name!: string;
  @ApiProperty({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }) customerId!: string;
  @ApiProperty({ description: 'A paused agent can do nothing (its token answers 401)' }) isPaused!: boolean;
  @ApiProperty({ description: 'Whether its device code was redeemed (it holds a live access token)' }) isConnected!: boolean;
  @ApiProperty({ type: AgentPolicy }) policy!: AgentPolicy;
  @ApiProperty({ type: AgentUsageDto }) usage!: AgentUsage;
  @ApiProperty({ format: 'date-time', example: '2025-07-21T17:32:28Z' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', example: '2025-07-21T17:32:28Z' }) updatedAt!: string;
}

export class AgentDeviceCodeDto implements AgentDeviceCodeResource {
  @ApiProperty({ description: 'The code the agent software redeems (shown here only; single use)', example: DEVICE_CODE_EXAMPLE }) code!: string;
  @ApiProperty({ example: AGENT_ID_EXAMPLE }) agentId!: string;
  @ApiProperty({ format: 'date-time', example: '2025-07-22T17:32:28Z' }) expiresAt!: string;
  @ApiProperty({ example: false }) redeemed!: boolean;
}

export class AgentCreateResponseDto {
  @ApiProperty({ type: AgentDto }) agent!: AgentDto;
  @ApiProperty({ type: AgentDeviceCodeDto }) deviceCode!: AgentDeviceCodeDto;
}

export class AgentListResponseDto {
  @ApiProperty({ type: [AgentDto], description: 'Newest first' }) data!: AgentDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ type: 'integer', description: 'How many agents match the filters, every page together', example: 1 }) totalCount!: number;
}

export class AgentDeviceCodeStatusDto {
  @ApiProperty({ example: DEVICE_CODE_EXAMPLE }) code!: string;
  @ApiProperty({ example: false }) redeemed!: boolean;
}

export class AgentDeviceCodeRedeemResponseDto {
  @ApiProperty({ example: AGENT_ID_EXAMPLE }) agentId!: string;
  @ApiProperty({ example: 'Payroll Automation Agent' }) agentName!: string;
  @ApiProperty({ description: 'The AgentAuth bearer token: answered here once, only its digest is kept', example: 'gat_ed0ad25881e234cc28fb2dec0a4fe64e' })
  accessToken!: string;
  @ApiProperty({ type: AgentPolicy }) policy!: AgentPolicy;
}

export class AgentTransferDetailsDto implements AgentTransferDetails {
  @ApiProperty({ type: 'integer', format: 'int64', example: 50000 }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 'InternalAccount:a12dcbd6-dced-4ec4-b756-3c3a9ea3d123' }) sourceAccountId!: string;
  @ApiProperty({ example: 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }) destinationAccountId!: string;
}

export class AgentActionDto implements AgentAction {
  @ApiProperty({ example: AGENT_ACTION_ID_EXAMPLE }) id!: string;
  @ApiProperty({ example: AGENT_ID_EXAMPLE }) agentId!: string;
  @ApiProperty({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000010' }) customerId!: string;
  @ApiProperty({ example: 'user-a1b2c3' }) platformCustomerId!: string;
  @ApiProperty({ enum: AGENT_ACTION_STATUSES }) status!: AgentActionStatus;
  @ApiProperty({ enum: AGENT_ACTION_TYPES }) type!: AgentActionType;
  @ApiPropertyOptional({ type: QuoteResponseDto, description: 'EXECUTE_QUOTE actions: the quote' }) quote?: Quote;
  @ApiPropertyOptional({ type: AgentTransferDetailsDto, description: 'TRANSFER_OUT and TRANSFER_IN actions: what moves' }) transferDetails?: AgentTransferDetails;
  @ApiPropertyOptional({ type: TransactionResponseDto, description: 'Once approved: the resulting transaction' }) transaction?: Transaction;
  @ApiPropertyOptional({ description: 'REJECTED actions: the reason given' }) rejectionReason?: string;
  @ApiPropertyOptional({
    description:
      'FAILED actions: why, checked when the action was approved or executed (INSUFFICIENT_FUNDS, VELOCITY_LIMIT_EXCEEDED, ACCOUNT_NOT_ACTIVE, or the code of the refusal, e.g. QUOTE_EXPIRED)',
    example: 'INSUFFICIENT_FUNDS',
  })
  failureReason?: string;
  @ApiProperty({ format: 'date-time', example: '2025-10-03T15:00:00Z' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', example: '2025-10-03T15:02:00Z' }) updatedAt!: string;
}

export class AgentActionListResponseDto {
  @ApiProperty({ type: [AgentActionDto] }) data!: AgentActionDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ type: 'integer', description: 'How many actions match the filters, every page together', example: 1 }) totalCount!: number;
}
