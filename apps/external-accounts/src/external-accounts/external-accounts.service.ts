import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  ACCOUNT_TYPE_CURRENCY,
  ACCOUNT_TYPES,
  AccountInfo,
  AccountType,
  CallerContext,
  CreateCustomerExternalAccountRequest,
  CUSTOMERS_SUBJECTS,
  EXTERNAL_ACCOUNT_WEBHOOK_TYPES,
  EXTERNAL_ACCOUNTS_EVENTS,
  ExternalAccount,
  ExternalAccountOwnerType,
  ExternalAccountPage,
  ExternalAccountWithRouting,
  GetExternalAccountRequest,
  ListExternalAccountsMessage,
  newId,
  RemoveExternalAccountRequest,
  UpdateExternalAccountMessage,
  UpdateExternalAccountRequest,
} from '@paykit/contracts';
import { FieldError, ServiceError } from '@paykit/errors';
import { decodeCursor, idCursor, JobScheduler, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { DiscoveriesService } from '../discoveries/discoveries.service';
import { destinationFingerprint } from './account-identity';
import { accountRuleErrors } from './account-rules';
import { ExternalAccountEntity } from './entities/external-account.entity';
import { toExternalAccount, toExternalAccountWithRouting, toListedExternalAccount } from './external-account.mapper';
import { ExternalAccountsRepository } from './external-accounts.repository';
import { RESOLVE_VERIFICATION_JOB, ResolveVerificationJob } from './external-accounts.jobs';
import { reviewDestination, ReviewOutcome } from './name-verification';

const EXTERNAL_ACCOUNT_CURSOR = idCursor('ExternalAccount');

/** How long a PENDING name verification takes before it resolves (sandbox time, scaled). */
export const PENDING_VERIFICATION_DELAY_MS = 30_000;

/** The discovery corridor (country, currency) whose bankName list a type's bankName must come from. */
const DISCOVERY_CORRIDOR: Partial<Record<AccountType, { country: string; currency: string }>> = {
  PHP_ACCOUNT: { country: 'PH', currency: 'PHP' },
  NGN_ACCOUNT: { country: 'NG', currency: 'NGN' },
  ZAR_ACCOUNT: { country: 'ZA', currency: 'ZAR' },
  COP_ACCOUNT: { country: 'CO', currency: 'COP' },
  SLV_ACCOUNT: { country: 'SV', currency: 'USD' },
};

interface Owner {
  ownerType: ExternalAccountOwnerType;
  customerId: string | null;
}

@Injectable()
export class ExternalAccountsService implements OnModuleInit {
  constructor(
    private readonly accounts: ExternalAccountsRepository,
    private readonly discoveries: DiscoveriesService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly scheduler: JobScheduler,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(RESOLVE_VERIFICATION_JOB, (payload, manager) => this.resolvePendingVerification(payload, manager));
  }

  async create(ctx: CallerContext, ownerType: ExternalAccountOwnerType, request: CreateCustomerExternalAccountRequest): Promise<ExternalAccount> {
    const owner = this.ownerFor(ctx, ownerType, request.customerId);
    const info = toPlainInfo(request.accountInfo);
    const bankErrors = await this.bankNameErrors(info);
    if (bankErrors.length > 0) throw ServiceError.invalidInput(bankErrors);
    // Ownership is the customers service's to answer: asked before any transaction opens.
    if (owner.customerId) await this.assertCustomer(ctx, owner.customerId);
    const review = this.review(ctx, info);

    const now = new Date();
    const entity: ExternalAccountEntity = {
      id: newId('ExternalAccount'),
      platformId: ctx.platformId,
      ownerType: owner.ownerType,
      customerId: owner.customerId,
      status: review.status,
      currency: request.currency,
      platformAccountId: request.platformAccountId,
      accountType: info.accountType,
      accountInfo: info,
      beneficiaryVerificationStatus: review.verification,
      fingerprint: destinationFingerprint(request.currency, info),
      reviewVersion: 1,
      createdAt: now,
      updatedAt: now,
      removedAt: null,
    };
    const account = toExternalAccount(entity);
    await this.transactions.run(async (manager) => {
      if (!(await this.accounts.insertUnlessDuplicate(manager, entity))) {
        const existing = await this.accounts.findLiveByFingerprint(ctx.platformId, owner, entity.fingerprint, manager);
        throw duplicateError(existing?.id);
      }
      await this.outbox.add(manager, {
        subject: EXTERNAL_ACCOUNTS_EVENTS.accountCreated,
        platformId: ctx.platformId,
        resourceId: entity.id,
        data: account,
      });
      if (review.resolveLater) await this.scheduleResolution(manager, entity);
    });
    return account;
  }

  async get(ctx: CallerContext, request: GetExternalAccountRequest): Promise<ExternalAccountWithRouting> {
    const entity = await this.accounts.findByIdBatched(ctx.platformId, request.externalAccountId, request.ownerType);
    return toExternalAccountWithRouting(this.visible(ctx, entity, request.externalAccountId));
  }

  async list(ctx: CallerContext, request: ListExternalAccountsMessage): Promise<ExternalAccountPage> {
    const owner = request.ownerType === 'PLATFORM' ? this.ownerFor(ctx, 'PLATFORM', undefined) : undefined;
    let customerId = request.ownerType === 'CUSTOMER' ? request.customerId : undefined;
    if (request.ownerType === 'CUSTOMER' && ctx.agent) {
      if (customerId && customerId !== ctx.agent.customerId) throw customerNotFound(customerId);
      customerId = ctx.agent.customerId;
    }
    if (request.ownerType === 'PLATFORM' && request.customerId) {
      throw ServiceError.invalidField('customerId', 'customerId does not apply to platform external accounts');
    }
    const beforeId = decodeCursor(request.cursor, EXTERNAL_ACCOUNT_CURSOR);
    if (customerId) await this.assertCustomer(ctx, customerId);
    const limit = pageLimit(request.limit);
    const { rows, totalCount } = await this.accounts.list(
      ctx.platformId,
      { ownerType: owner?.ownerType ?? request.ownerType, customerId, status: request.status },
      { limit: limit + 1, beforeId },
    );
    return { ...toPage(rows, limit, toListedExternalAccount, EXTERNAL_ACCOUNT_CURSOR), totalCount };
  }

  /** New destination data (or label) for a live account; changed data re-runs review. */
  async update(ctx: CallerContext, target: Pick<UpdateExternalAccountMessage, 'ownerType' | 'externalAccountId'>, request: UpdateExternalAccountRequest): Promise<ExternalAccount> {
    const current = this.visible(ctx, await this.accounts.findById(ctx.platformId, target.externalAccountId, target.ownerType), target.externalAccountId);
    if (current.status === 'INACTIVE') throw notMutable(current.id);
    const info = request.accountInfo ? toPlainInfo(request.accountInfo) : undefined;
    let review: Review | undefined;
    if (info) {
      const errors = [...currencyAgreementErrors(current.currency, info), ...(await this.bankNameErrors(info))];
      if (errors.length > 0) throw ServiceError.invalidInput(errors);
      review = this.review(ctx, info);
    }
    return this.transactions.run(async (manager) => {
      const entity = await this.accounts.findById(ctx.platformId, current.id, target.ownerType, manager, true);
      if (!entity) throw accountNotFound(current.id);
      if (entity.status === 'INACTIVE') throw notMutable(entity.id);
      const before = entity.status;
      if (request.platformAccountId !== undefined) entity.platformAccountId = request.platformAccountId;
      if (info && review) {
        entity.fingerprint = destinationFingerprint(entity.currency, info);
        const duplicate = await this.accounts.findLiveByFingerprint(ctx.platformId, entity, entity.fingerprint, manager, entity.id);
        if (duplicate) throw duplicateError(duplicate.id);
        entity.accountType = info.accountType;
        entity.accountInfo = info;
        entity.status = review.status;
        entity.beneficiaryVerificationStatus = review.verification;
        entity.reviewVersion += 1;
      }
      entity.updatedAt = new Date();
      await this.accounts.save(manager, entity);
      const account = toExternalAccount(entity);
      await this.outbox.add(manager, { subject: EXTERNAL_ACCOUNTS_EVENTS.accountUpdated, platformId: ctx.platformId, resourceId: entity.id, data: account });
      if (entity.status !== before) await this.announceStatusChange(manager, entity);
      if (review?.resolveLater) await this.scheduleResolution(manager, entity);
      return account;
    });
  }

  /** Removal is a state change: the account becomes INACTIVE and stays readable. Repeating it is a no-op. */
  async remove(ctx: CallerContext, request: RemoveExternalAccountRequest): Promise<ExternalAccount> {
    return this.transactions.run(async (manager) => {
      const entity = this.visible(ctx, await this.accounts.findById(ctx.platformId, request.externalAccountId, request.ownerType, manager, true), request.externalAccountId);
      if (entity.status !== 'INACTIVE') {
        const now = new Date();
        entity.status = 'INACTIVE';
        entity.removedAt = now;
        entity.updatedAt = now;
        await this.accounts.save(manager, entity);
        await this.announceStatusChange(manager, entity);
      }
      return toExternalAccount(entity);
    });
  }

  /** Scheduler: a PENDING name verification (sandbox 104) resolves to MATCHED; the account becomes ACTIVE. */
  private async resolvePendingVerification({ platformId, externalAccountId, reviewVersion }: ResolveVerificationJob, manager: EntityManager): Promise<void> {
    const entity = await this.accounts.findById(platformId, externalAccountId, undefined, manager, true);
    // Removed, re-reviewed since, or already resolved: nothing to do (jobs may run more than once).
    if (!entity || entity.reviewVersion !== reviewVersion || entity.status !== 'PENDING' || entity.beneficiaryVerificationStatus !== 'PENDING') return;
    entity.beneficiaryVerificationStatus = 'MATCHED';
    entity.status = 'ACTIVE';
    entity.updatedAt = new Date();
    await this.accounts.save(manager, entity);
    await this.announceStatusChange(manager, entity);
  }

  private async announceStatusChange(manager: EntityManager, entity: ExternalAccountEntity): Promise<void> {
    await this.outbox.add(manager, {
      subject: EXTERNAL_ACCOUNTS_EVENTS.statusChanged,
      platformId: entity.platformId,
      resourceId: entity.id,
      webhookType: EXTERNAL_ACCOUNT_WEBHOOK_TYPES.statusChange,
      data: toExternalAccount(entity),
    });
  }

  private async scheduleResolution(manager: EntityManager, entity: ExternalAccountEntity): Promise<void> {
    await this.scheduler.schedule(manager, {
      kind: RESOLVE_VERIFICATION_JOB,
      payload: { platformId: entity.platformId, externalAccountId: entity.id, reviewVersion: entity.reviewVersion },
      delayMs: PENDING_VERIFICATION_DELAY_MS,
      sandboxDelay: true,
      dedupeKey: `${RESOLVE_VERIFICATION_JOB.name}:${entity.id}:${entity.reviewVersion}`,
    });
  }

  private review(ctx: CallerContext, info: AccountInfo): Review {
    const outcome: ReviewOutcome = reviewDestination(info, ctx.environment === 'sandbox');
    if (outcome.kind === 'REJECTED') {
      throw new ServiceError('INVALID_BANK_ACCOUNT', 'The destination account is invalid or cannot receive funds');
    }
    return outcome;
  }

  /** bankName must be exactly one of the corridor's discovery entries (the list comes back in the error). */
  private async bankNameErrors(info: AccountInfo): Promise<FieldError[]> {
    const corridor = DISCOVERY_CORRIDOR[info.accountType];
    if (!corridor || typeof info.bankName !== 'string') return [];
    const names = await this.discoveries.bankNames(corridor.country, corridor.currency);
    if (names.includes(info.bankName)) return [];
    return [
      {
        field: 'accountInfo.bankName',
        message: `accountInfo.bankName must be one of the bankName values of GET /discoveries?country=${corridor.country}&currency=${corridor.currency}`,
        constraint: { enum: names },
      },
    ];
  }

  private ownerFor(ctx: CallerContext, ownerType: ExternalAccountOwnerType, customerId: string | undefined): Owner {
    if (ownerType === 'PLATFORM') {
      // Agents act for one customer; the platform's own accounts are not theirs.
      if (ctx.agent) throw new ServiceError('FORBIDDEN', 'Agents cannot manage platform external accounts');
      if (customerId !== undefined) throw ServiceError.invalidField('customerId', 'customerId does not apply to platform external accounts');
      return { ownerType, customerId: null };
    }
    const resolved = customerId ?? ctx.agent?.customerId;
    if (!resolved) throw ServiceError.invalidInput([{ field: 'customerId', message: 'customerId is required' }]);
    if (ctx.agent && resolved !== ctx.agent.customerId) throw customerNotFound(resolved);
    return { ownerType, customerId: resolved };
  }

  private async assertCustomer(ctx: CallerContext, customerId: string): Promise<void> {
    try {
      await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, ctx);
    } catch (error) {
      if (error instanceof ServiceError && (error.code === 'USER_NOT_FOUND' || error.code === 'INVALID_INPUT')) throw customerNotFound(customerId);
      throw error;
    }
  }

  /** Unknown, another platform's, or outside an agent's customer: the same 404. */
  private visible(ctx: CallerContext, entity: ExternalAccountEntity | null, id: string): ExternalAccountEntity {
    if (!entity || (ctx.agent && entity.customerId !== ctx.agent.customerId)) throw accountNotFound(id);
    return entity;
  }
}

type Review = Extract<ReviewOutcome, { kind: 'DECIDED' }>;

/** The validated accountInfo as plain JSON (absent optional fields dropped). */
function toPlainInfo(info: object): AccountInfo {
  return JSON.parse(JSON.stringify(info)) as AccountInfo;
}

/** On update the currency is the stored one: the new accountType must agree with it. */
function currencyAgreementErrors(currency: string, info: AccountInfo): FieldError[] {
  const errors = accountRuleErrors(currency, info);
  return errors.map((error) =>
    error.field === 'currency'
      ? {
          field: 'accountInfo.accountType',
          message: `accountInfo.accountType must agree with the account's currency ${currency}`,
          constraint: { enum: ACCOUNT_TYPES.filter((type) => ACCOUNT_TYPE_CURRENCY[type] === currency || (ACCOUNT_TYPE_CURRENCY[type] === null && currency !== 'BTC')) },
        }
      : error,
  );
}

function accountNotFound(id: string): ServiceError {
  return new ServiceError('EXTERNAL_ACCOUNT_NOT_FOUND', `External account ${id} not found`);
}

function customerNotFound(id: string): ServiceError {
  return new ServiceError('USER_NOT_FOUND', `Customer ${id} not found`);
}

function notMutable(id: string): ServiceError {
  return new ServiceError('INVALID_STATE_TRANSITION', `External account ${id} is INACTIVE (removed) and cannot change`);
}

function duplicateError(existingAccountId: string | undefined): ServiceError {
  return new ServiceError('DUPLICATE_EXTERNAL_ACCOUNT', 'This destination is already registered for this owner', existingAccountId ? { existingAccountId } : undefined);
}
