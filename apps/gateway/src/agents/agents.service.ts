import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AGENT_ACTIONS_SUBJECTS, AgentPolicy, AgentUsage, CallerContext, CUSTOMERS_SUBJECTS, newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { AuthInvalidations } from '../auth/auth-invalidations';
import { AgentFilter, AgentRow, AgentsRepository } from './agents.repository';
import { AgentDeviceCodeEntity } from './entities/agent-device-code.entity';
import { AgentPolicyUpdateRequest, AgentResource, AgentDeviceCodeResource, CreateAgentRequest, UpdateAgentRequest } from './agents.dto';

/** How long a device code can be redeemed. */
export const DEVICE_CODE_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an agent access token lives (pausing or deleting the agent stops it sooner, at once). */
export const AGENT_TOKEN_TTL_MS = 365 * 24 * 60 * 60 * 1000;
/** No 0/O or 1/I: the code is read and typed by people. */
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** `AGENT-` and three groups of four characters (e.g. `AGENT-7KQ2-M4XP-R9DZ`): 60 random bits, enough for a single-use code that expires. */
function newDeviceCode(): string {
  const group = (): string => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `AGENT-${group()}-${group()}-${group()}`;
}

/** Codes are compared by digest; people may type them in lower case. */
const codeDigest = (code: string): string => sha256(code.trim().toUpperCase());

export function agentNotFound(agentId: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Agent ${agentId} not found`, { agentId });
}

const ZERO_USAGE = (now: Date): AgentUsage => ({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0, ...resetDates(now) });

/** When the UTC day and month counters next start over. */
export function resetDates(now: Date): { dailyResetDate: string; monthlyResetMonth: string } {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { dailyResetDate: tomorrow.toISOString().slice(0, 10), monthlyResetMonth: nextMonth.toISOString().slice(0, 7) };
}

/**
 * Agents: a platform's delegates for one of its customers, with a policy. The gateway owns
 * them, their device codes and access tokens; payments owns what they spent (usage) and their
 * actions, and checks the policy the gateway sends with each money movement.
 */
@Injectable()
export class AgentsService {
  constructor(
    private readonly repository: AgentsRepository,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly invalidations: AuthInvalidations,
    private readonly clock: Clock,
  ) {}

  async create(caller: CallerContext, request: CreateAgentRequest): Promise<{ agent: AgentResource; deviceCode: AgentDeviceCodeResource }> {
    // The customer must be the platform's: an unknown one (or another platform's) in the body is a
    // 400 naming the field, as the reference declares for POST /agents.
    await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId: request.customerId }, caller).catch((error: unknown) => {
      if (error instanceof ServiceError && (error.code === 'USER_NOT_FOUND' || error.code === 'INVALID_INPUT')) {
        throw ServiceError.unknownReference('customerId', `Customer ${request.customerId} not found`);
      }
      throw error;
    });
    const agentId = newId('Agent');
    const code = newDeviceCode();
    const deviceCode = await this.repository.transaction(async (manager) => {
      await this.repository.insertAgent(manager, {
        id: agentId,
        platformId: caller.platformId,
        environment: caller.environment,
        name: request.name,
        customerId: request.customerId,
        policy: normalizedPolicy(request.policy),
      });
      return this.repository.insertDeviceCode(manager, {
        codeSha256: codeDigest(code),
        platformId: caller.platformId,
        agentId,
        expiresAt: expiresIn(DEVICE_CODE_TTL_MS),
      });
    });
    return { agent: await this.get(caller, agentId), deviceCode: toDeviceCode(code, deviceCode) };
  }

  async get(caller: CallerContext, agentId: string): Promise<AgentResource> {
    const [agent] = await this.withUsage(caller, [await this.require(caller.platformId, agentId)]);
    return agent;
  }

  async page(
    caller: CallerContext,
    filter: AgentFilter,
    limit: number,
    beforeId: string | undefined,
  ): Promise<{ rows: AgentRow[]; resources: Map<string, AgentResource>; totalCount: number }> {
    const [rows, totalCount] = await Promise.all([this.repository.page(caller.platformId, filter, limit, beforeId), this.repository.count(caller.platformId, filter)]);
    const resources = await this.withUsage(caller, rows);
    return { rows, resources: new Map(resources.map((agent) => [agent.id, agent])), totalCount };
  }

  async update(caller: CallerContext, agentId: string, request: UpdateAgentRequest): Promise<AgentResource> {
    await this.require(caller.platformId, agentId);
    // Every replica's cached verifications of its tokens go (a pause stops the agent at once).
    await this.invalidations.transaction([{ agentId }], (manager) =>
      this.repository.update(manager, caller.platformId, agentId, {
        ...(request.name !== undefined ? { name: request.name } : {}),
        ...(request.isPaused !== undefined ? { isPaused: request.isPaused } : {}),
      }),
    );
    return this.get(caller, agentId);
  }

  /** Only the fields sent change; spending limits merge field by field. */
  async updatePolicy(caller: CallerContext, agentId: string, request: AgentPolicyUpdateRequest): Promise<AgentResource> {
    const current = (await this.require(caller.platformId, agentId)).policy;
    const policy: AgentPolicy = {
      ...current,
      ...(request.permissions !== undefined ? { permissions: request.permissions } : {}),
      ...(request.defaultExecutionMode !== undefined ? { defaultExecutionMode: request.defaultExecutionMode } : {}),
      ...(request.spendingLimits !== undefined ? { spendingLimits: { ...current.spendingLimits, ...definedFields(request.spendingLimits) } } : {}),
      ...(request.accountRestrictions !== undefined ? { accountRestrictions: request.accountRestrictions } : {}),
      ...(request.approvalThresholds !== undefined ? { approvalThresholds: request.approvalThresholds } : {}),
    };
    await this.invalidations.transaction([{ agentId }], (manager) => this.repository.update(manager, caller.platformId, agentId, { policy: normalizedPolicy(policy) }));
    return this.get(caller, agentId);
  }

  async delete(caller: CallerContext, agentId: string): Promise<void> {
    await this.require(caller.platformId, agentId);
    await this.invalidations.transaction([{ agentId }], (manager) => this.repository.delete(manager, caller.platformId, agentId));
  }

  /** A new code for an agent whose software is not connected; earlier unredeemed codes stop working. */
  async regenerateDeviceCode(caller: CallerContext, agentId: string): Promise<AgentDeviceCodeResource> {
    const agent = await this.require(caller.platformId, agentId);
    if (agent.isConnected) throw new ServiceError('CONFLICT', `Agent ${agentId} is connected; delete it and create a new one to reinstall`, { agentId });
    const code = newDeviceCode();
    const row = await this.repository.transaction((manager) =>
      this.repository.insertDeviceCode(manager, { codeSha256: codeDigest(code), platformId: caller.platformId, agentId, expiresAt: expiresIn(DEVICE_CODE_TTL_MS) }),
    );
    return toDeviceCode(code, row);
  }

  async deviceCodeStatus(caller: CallerContext, code: string): Promise<{ code: string; redeemed: boolean }> {
    const row = await this.repository.findDeviceCode(codeDigest(code), caller.platformId);
    if (!row) throw deviceCodeNotFound();
    return { code, redeemed: row.redeemedAt !== null };
  }

  /**
   * The agent software trades its code for an access token: once (the code row is locked, so two
   * redemptions cannot both win), before it expires. The token is answered here only.
   */
  async redeem(code: string): Promise<{ agentId: string; agentName: string; accessToken: string; policy: AgentPolicy }> {
    const accessToken = `gat_${randomBytes(32).toString('hex')}`;
    return this.repository.transaction(async (manager) => {
      const row = await this.repository.lockDeviceCode(manager, codeDigest(code));
      if (!row || row.voidedAt !== null) throw deviceCodeNotFound();
      if (row.redeemedAt !== null) throw ServiceError.invalidField('code', 'This device code was already redeemed');
      if (row.expiresAt.getTime() <= Clock.real().getTime())
        throw new ServiceError('EXPIRED', 'This device code has expired; generate a new one', { expiresAt: row.expiresAt.toISOString() });
      const agent = await this.repository.find(row.platformId, row.agentId, manager);
      if (!agent) throw deviceCodeNotFound();
      await this.repository.markRedeemed(manager, row.codeSha256);
      await this.repository.insertAccessToken(manager, {
        id: newId('AgentToken'),
        platformId: agent.platformId,
        environment: agent.environment,
        agentId: agent.id,
        customerId: agent.customerId,
        tokenSha256: sha256(accessToken),
        expiresAt: expiresIn(AGENT_TOKEN_TTL_MS),
      });
      return { agentId: agent.id, agentName: agent.name, accessToken, policy: agent.policy };
    });
  }

  async require(platformId: string, agentId: string): Promise<AgentRow> {
    const agent = await this.repository.find(platformId, agentId);
    if (!agent) throw agentNotFound(agentId);
    return agent;
  }

  /** The agents as the API answers them, with the usage payments counts (one request for the page). */
  async withUsage(caller: CallerContext, rows: AgentRow[]): Promise<AgentResource[]> {
    if (rows.length === 0) return [];
    const { usage } = await this.services.request(AGENT_ACTIONS_SUBJECTS.usage, { agents: rows.map((row) => ({ agentId: row.id })) }, caller);
    const now = this.clock.now();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      customerId: row.customerId,
      isPaused: row.isPaused,
      isConnected: row.isConnected,
      policy: row.policy,
      usage: usage[row.id] ?? ZERO_USAGE(now),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }));
  }
}

/** Device codes and agent access tokens expire in real time, as API tokens do (auth plumbing: see Clock). */
function expiresIn(ms: number): Date {
  return new Date(Clock.real().getTime() + ms);
}

function deviceCodeNotFound(): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', 'Device code not found');
}

function toDeviceCode(code: string, row: AgentDeviceCodeEntity): AgentDeviceCodeResource {
  return { code, agentId: row.agentId, expiresAt: row.expiresAt.toISOString(), redeemed: row.redeemedAt !== null };
}

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

/** The policy as stored and answered: only the fields it has (validated class instances become plain data). */
function normalizedPolicy(policy: AgentPolicy): AgentPolicy {
  return JSON.parse(JSON.stringify(policy)) as AgentPolicy;
}
