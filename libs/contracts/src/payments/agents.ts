import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOneOf } from '@paykit/validation';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PageQuery } from '../common';
import { CreateQuoteMessage, Quote } from './quotes';
import { Transaction } from './replies';
import { TransferInMessage, TransferOutMessage } from './requests';

/** What an agent may do (reference `AgentPermission`). Wire values: frozen. */
export const AGENT_PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'] as const;
export type AgentPermission = (typeof AGENT_PERMISSIONS)[number];

export const AGENT_EXECUTION_MODES = ['AUTO', 'APPROVAL_REQUIRED'] as const;
export type AgentExecutionMode = (typeof AGENT_EXECUTION_MODES)[number];

export const AGENT_ACTION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];

export const AGENT_ACTION_TYPES = ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] as const;
export type AgentActionType = (typeof AGENT_ACTION_TYPES)[number];

const CURRENCY = { description: 'ISO 4217 currency code', example: 'USD' };

export class AgentSpendingLimits {
  @ApiProperty({ ...CURRENCY, description: 'The currency every amount limit is denominated in' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10)
  currency!: string;

  @ApiProperty({ type: 'integer', description: 'Most the agent may move in one transaction (smallest unit)', example: 50000 })
  @IsDefined()
  @IsInt()
  perTransactionLimit!: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Most the agent may move per UTC day; null: no daily limit', example: 500000 })
  @IsOptional()
  @IsInt()
  dailyLimit?: number | null;

  @ApiPropertyOptional({ type: 'integer', description: 'Most transactions the agent may initiate per UTC day', example: 10 })
  @IsOptional()
  @IsInt()
  dailyTransactionLimit?: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Most the agent may move per UTC month; null: no monthly limit', example: 5000000 })
  @IsOptional()
  @IsInt()
  monthlyLimit?: number | null;
}

/** A partial update of the spending limits: only the fields sent change. */
export class AgentSpendingLimitsUpdate {
  @ApiPropertyOptional({ ...CURRENCY, description: 'The currency every amount limit is denominated in' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(10)
  currency?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Most the agent may move in one transaction', example: 50000 })
  @IsOptional()
  @IsInt()
  perTransactionLimit?: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Most per UTC day; null removes the limit', example: 500000 })
  @IsOptional()
  @IsInt()
  dailyLimit?: number | null;

  @ApiPropertyOptional({ type: 'integer', description: 'Most transactions per UTC day', example: 10 })
  @IsOptional()
  @IsInt()
  dailyTransactionLimit?: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Most per UTC month; null removes the limit', example: 5000000 })
  @IsOptional()
  @IsInt()
  monthlyLimit?: number | null;
}

export class AgentAccountRule {
  @ApiProperty({ description: 'The internal account this rule applies to', example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000001' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  accountId!: string;

  @ApiPropertyOptional({ enum: AGENT_EXECUTION_MODES, description: "Overrides the policy's default execution mode on this account" })
  @IsOptional()
  @IsOneOf(AGENT_EXECUTION_MODES)
  executionMode?: AgentExecutionMode;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Overrides the per-transaction limit on this account; null inherits it', example: 10000 })
  @IsOptional()
  @IsInt()
  perTransactionLimit?: number | null;
}

export class AgentAccountRestrictions {
  @ApiPropertyOptional({ type: [String], nullable: true, description: 'The only internal accounts the agent may use; null: every account of its customer' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  allowedAccountIds?: string[] | null;

  @ApiPropertyOptional({ type: [AgentAccountRule], description: 'Per-account overrides of the policy' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => AgentAccountRule)
  accountRules?: AgentAccountRule[];
}

export class AgentApprovalThresholds {
  @ApiPropertyOptional({ ...CURRENCY, description: 'The currency of `amount` (the spending limits currency when absent)' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  currency?: string;

  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Any transaction above this amount waits for approval, even in AUTO mode', example: 100000 })
  @IsOptional()
  @IsInt()
  amount?: number | null;
}

export class AgentPolicy {
  @ApiProperty({ enum: AGENT_PERMISSIONS, isArray: true, description: 'What the agent may do' })
  @IsArray()
  @IsOneOf(AGENT_PERMISSIONS, { each: true })
  permissions!: AgentPermission[];

  @ApiProperty({ enum: AGENT_EXECUTION_MODES, description: 'AUTO: actions execute at once; APPROVAL_REQUIRED: every action waits for the platform' })
  @IsOneOf(AGENT_EXECUTION_MODES)
  defaultExecutionMode!: AgentExecutionMode;

  @ApiProperty({ type: AgentSpendingLimits })
  @IsDefined()
  @ValidateNested()
  @Type(() => AgentSpendingLimits)
  spendingLimits!: AgentSpendingLimits;

  @ApiPropertyOptional({ type: AgentAccountRestrictions })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentAccountRestrictions)
  accountRestrictions?: AgentAccountRestrictions;

  @ApiPropertyOptional({ type: AgentApprovalThresholds })
  @IsOptional()
  @ValidateNested()
  @Type(() => AgentApprovalThresholds)
  approvalThresholds?: AgentApprovalThresholds;
}

/** The agent a money movement is made for, with the policy it is checked against (sent by the gateway, which owns agents). */
export class AgentScope {
  @IsString()
  @IsNotEmpty()
  agentId!: string;

  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @IsDefined()
  @ValidateNested()
  @Type(() => AgentPolicy)
  policy!: AgentPolicy;
}

export interface AgentUsage {
  dailyTransactionCount: number;
  dailySpend: number;
  dailyResetDate: string;
  monthlySpend: number;
  monthlyResetMonth: string;
}

export interface AgentTransferDetails {
  amount: number;
  currency: string;
  sourceAccountId: string;
  destinationAccountId: string;
}

export interface AgentAction {
  id: string;
  agentId: string;
  customerId: string;
  platformCustomerId: string;
  status: AgentActionStatus;
  type: AgentActionType;
  quote?: Quote;
  transferDetails?: AgentTransferDetails;
  transaction?: Transaction;
  rejectionReason?: string;
  /** FAILED actions: why (INSUFFICIENT_FUNDS, VELOCITY_LIMIT_EXCEEDED, ACCOUNT_NOT_ACTIVE, QUOTE_EXPIRED...). */
  failureReason?: string;
  createdAt: string;
  updatedAt: string;
}

export class AgentTransferOutMessage {
  @IsDefined()
  @ValidateNested()
  @Type(() => AgentScope)
  agent!: AgentScope;

  @IsDefined()
  @ValidateNested()
  @Type(() => TransferOutMessage)
  transfer!: TransferOutMessage;
}

export class AgentTransferInMessage {
  @IsDefined()
  @ValidateNested()
  @Type(() => AgentScope)
  agent!: AgentScope;

  @IsDefined()
  @ValidateNested()
  @Type(() => TransferInMessage)
  transfer!: TransferInMessage;
}

/** `POST /agents/me/quotes` with `immediatelyExecute`: the quote is created, then submitted for execution as the agent's action. */
export class AgentCreateQuoteMessage {
  @IsDefined()
  @ValidateNested()
  @Type(() => AgentScope)
  agent!: AgentScope;

  @IsDefined()
  @ValidateNested()
  @Type(() => CreateQuoteMessage)
  quote!: CreateQuoteMessage;
}

export class AgentExecuteQuoteMessage {
  @IsDefined()
  @ValidateNested()
  @Type(() => AgentScope)
  agent!: AgentScope;

  @IsString()
  @IsNotEmpty()
  quoteId!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotencyKey?: string;
}

export class AgentActionRef {
  @IsString()
  @IsNotEmpty()
  agentId!: string;

  @IsString()
  @IsNotEmpty()
  actionId!: string;
}

export class AgentActionDecisionMessage extends AgentActionRef {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;
}

export class ListAgentActionsMessage extends PageQuery {
  @IsOptional()
  @IsString()
  agentId?: string;

  @IsOptional()
  @IsString()
  customerId?: string;

  @IsOptional()
  @IsOneOf(AGENT_ACTION_STATUSES)
  status?: AgentActionStatus;

  @IsOptional()
  @IsISO8601()
  startDate?: string;

  @IsOptional()
  @IsISO8601()
  endDate?: string;

  @IsOptional()
  @IsIn(['asc', 'desc'])
  sortOrder?: 'asc' | 'desc';
}

export class AgentUsageQuery {
  @IsString()
  @IsNotEmpty()
  agentId!: string;
}

export class AgentUsageMessage {
  @IsArray()
  @ArrayMaxSize(101)
  @ValidateNested({ each: true })
  @Type(() => AgentUsageQuery)
  agents!: AgentUsageQuery[];
}

export interface AgentUsageReply {
  /** By agent id; an agent that never moved money reads zeros. */
  usage: Record<string, AgentUsage>;
}

export const AGENT_ACTIONS_SUBJECTS = {
  transferOut: 'payments.agent-action.transfer-out',
  transferIn: 'payments.agent-action.transfer-in',
  executeQuote: 'payments.agent-action.execute-quote',
  createQuote: 'payments.agent-action.create-quote',
  get: 'payments.agent-action.get',
  list: 'payments.agent-action.list',
  approve: 'payments.agent-action.approve',
  reject: 'payments.agent-action.reject',
  usage: 'payments.agent-usage.get',
} as const;

export const AGENT_ACTIONS_EVENTS = {
  /** An agent's action waits for the platform; `webhookType` AGENT_ACTION.PENDING_APPROVAL, data = the AgentAction. */
  pendingApproval: 'payments.events.agent-action.pending-approval',
} as const;

export const AGENT_ACTION_WEBHOOK_TYPES = { pendingApproval: 'AGENT_ACTION.PENDING_APPROVAL' } as const;

export interface AgentActionsContract {
  [AGENT_ACTIONS_SUBJECTS.transferOut]: { request: AgentTransferOutMessage; reply: AgentAction };
  [AGENT_ACTIONS_SUBJECTS.transferIn]: { request: AgentTransferInMessage; reply: AgentAction };
  [AGENT_ACTIONS_SUBJECTS.executeQuote]: { request: AgentExecuteQuoteMessage; reply: AgentAction };
  [AGENT_ACTIONS_SUBJECTS.createQuote]: { request: AgentCreateQuoteMessage; reply: Quote };
  [AGENT_ACTIONS_SUBJECTS.get]: { request: AgentActionRef; reply: AgentAction };
  [AGENT_ACTIONS_SUBJECTS.list]: { request: ListAgentActionsMessage; reply: { data: AgentAction[]; hasMore: boolean; nextCursor?: string; totalCount: number } };
  [AGENT_ACTIONS_SUBJECTS.approve]: { request: AgentActionRef; reply: AgentAction };
  [AGENT_ACTIONS_SUBJECTS.reject]: { request: AgentActionDecisionMessage; reply: AgentAction };
  [AGENT_ACTIONS_SUBJECTS.usage]: { request: AgentUsageMessage; reply: AgentUsageReply };
}
