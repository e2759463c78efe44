import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import {
  AccountInfo,
  CallerContext,
  CORRIDORS,
  CreateCustomerExternalAccountRequest,
  Customer,
  CUSTOMERS_SUBJECTS,
  EXTERNAL_ACCOUNT_WEBHOOK_TYPES,
  EXTERNAL_ACCOUNTS_EVENTS,
  ExternalAccount,
  ExternalAccountOwnerType,
  ExternalAccountPage,
  ExternalAccountWithRouting,
  GetExternalAccountRequest,
  ListExternalAccountsMessage,
  ExternalAccountWarning,
  newId,
  OwnershipChallenge,
  OwnershipChallengeMessage,
  OwnershipVerifyMessage,
  RemoveExternalAccountRequest,
  UpdateExternalAccountMessage,
  tenantContext,
  UpdateExternalAccountRequest,
  WALLET_AUTH_SCA_SUBJECTS,
} from '@paykit/contracts';
import { FieldError, ServiceError } from '@paykit/errors';
import { decodeCursor, idCursor, isUniqueViolation, JobScheduler, Outbox, pageLimit, toPage, TransactionRunner, Clock } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { DiscoveriesService } from '../discoveries/discoveries.service';
import { destinationFingerprint } from './account-identity';
import { accountWarnings, isAccountType, validateCreateBody, validateUpdateBody } from './account-rules';
import { ExternalAccountEntity, StoredOwnershipChallenge } from './entities/external-account.entity';
import { toExternalAccount, toExternalAccountWithRouting } from './external-account.mapper';
import { ExternalAccountsRepository } from './external-accounts.repository';
import { COMPLETE_LIVENESS_JOB, CompleteLivenessJob, RESOLVE_VERIFICATION_JOB, ResolveVerificationJob } from './external-accounts.jobs';
import { sandboxLivenessOutcome } from './external-accounts.sandbox';
import { needsOwnershipProof, reviewDestination, ReviewOutcome } from './name-verification';
import { isWalletSignature } from './wallet-signatures';

const EXTERNAL_ACCOUNT_CURSOR = idCursor('ExternalAccount');

/** How long a PENDING name verification takes before it resolves (sandbox time, scaled). */
export const PENDING_VERIFICATION_DELAY_MS = 30_000;

/** How long an ownership challenge stays open, and how long the sandbox's hosted liveness check takes. */
export const OWNERSHIP_CHALLENGE_TTL_MS = 15 * 60_000;
export const LIVENESS_DELAY_MS = 30_000;

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
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(RESOLVE_VERIFICATION_JOB, (payload, manager) => this.resolvePendingVerification(payload, manager));
    this.scheduler.register(COMPLETE_LIVENESS_JOB, (payload, manager) => this.completeLiveness(payload, manager));
  }

  /** `body` as the client sent it: validated here with the discovery-list check in the same pass, so every problem is listed at once. */
  async create(ctx: CallerContext, ownerType: ExternalAccountOwnerType, body: unknown): Promise<ExternalAccount> {
    const rawInfo = (body as { accountInfo?: unknown } | null)?.accountInfo;
    const bank = await this.bankNameCheck(rawInfo);
    const request: CreateCustomerExternalAccountRequest = validateCreateBody(ownerType, body, bank.errors);
    const owner = this.ownerFor(ctx, ownerType, request.customerId);
    const { info, platformAccountId } = splitPlatformAccountId(toPlainInfo(request.accountInfo), request.platformAccountId);
    // Ownership is the customers service's to answer: asked before any transaction opens.
    if (owner.customerId) {
      // A deleted customer keeps its accounts (and their history) but gets no new one.
      const customer = await this.assertCustomer(ctx, owner.customerId, 'customerId');
      if (customer.isDeleted) throw new ServiceError('CUSTOMER_DELETED', `Customer ${owner.customerId} has been deleted`);
    }
    const review = this.review(ctx, info, request.ownershipType);

    const now = this.clock.now();
    const entity: ExternalAccountEntity = {
      id: newId('ExternalAccount'),
      platformId: ctx.platformId,
      ownerType: owner.ownerType,
      customerId: owner.customerId,
      status: review.status,
      currency: request.currency,
      platformAccountId: platformAccountId ?? null,
      ownershipType: request.ownershipType ?? null,
      defaultUmaDepositAccount: request.defaultUmaDepositAccount ?? null,
      accountType: info.accountType,
      accountInfo: info,
      beneficiaryVerificationStatus: review.verification,
      warnings: [...accountWarnings(info), ...bank.warnings],
      ownershipChallenge: null,
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
      { ownerType: owner?.ownerType ?? request.ownerType, customerId, status: request.status, currency: request.currency },
      { limit: limit + 1, beforeId },
    );
    return { ...toPage(rows, limit, toExternalAccount, EXTERNAL_ACCOUNT_CURSOR), totalCount };
  }

  /**
   * New destination data (or label) for a live account; changed data re-runs review. `body` as the
   * client sent it (UpdateExternalAccountRequest), validated here against the stored currency with
   * the discovery-list check.
   */
  async update(ctx: CallerContext, target: Pick<UpdateExternalAccountMessage, 'ownerType' | 'externalAccountId'>, body: unknown): Promise<ExternalAccount> {
    const current = this.visible(ctx, await this.accounts.findById(ctx.platformId, target.externalAccountId, target.ownerType), target.externalAccountId);
    if (current.status === 'INACTIVE') throw notMutable(current.id);
    const bank = await this.bankNameCheck((body as { accountInfo?: unknown } | null)?.accountInfo);
    const request: UpdateExternalAccountRequest = validateUpdateBody(body, current.currency, bank.errors);
    const split = request.accountInfo ? splitPlatformAccountId(toPlainInfo(request.accountInfo), request.platformAccountId) : undefined;
    const info = split?.info;
    let review: Review | undefined;
    let warnings: ExternalAccountWarning[] = [];
    if (info) {
      review = this.review(ctx, info, current.ownershipType);
      warnings = [...accountWarnings(info), ...bank.warnings];
    }
    const platformAccountId = split ? split.platformAccountId : request.platformAccountId;
    const fingerprint = info ? destinationFingerprint(current.currency, info) : undefined;
    try {
      return await this.transactions.run(async (manager) => {
        const entity = await this.accounts.findById(ctx.platformId, current.id, target.ownerType, manager, true);
        if (!entity) throw accountNotFound(current.id);
        if (entity.status === 'INACTIVE') throw notMutable(entity.id);
        const before = entity.status;
        if (platformAccountId !== undefined) entity.platformAccountId = platformAccountId;
        if (info && review && fingerprint) {
          entity.fingerprint = fingerprint;
          const duplicate = await this.accounts.findLiveByFingerprint(ctx.platformId, entity, entity.fingerprint, manager, entity.id);
          if (duplicate) throw duplicateError(duplicate.id);
          entity.accountType = info.accountType;
          entity.accountInfo = info;
          entity.status = review.status;
          entity.beneficiaryVerificationStatus = review.verification;
          entity.warnings = warnings;
          entity.ownershipChallenge = null;
          entity.reviewVersion += 1;
        }
        entity.updatedAt = this.clock.now();
        await this.accounts.save(manager, entity);
        const account = toExternalAccount(entity);
        await this.outbox.add(manager, { subject: EXTERNAL_ACCOUNTS_EVENTS.accountUpdated, platformId: ctx.platformId, resourceId: entity.id, data: account });
        if (entity.status !== before) await this.announceStatusChange(manager, entity);
        if (review?.resolveLater) await this.scheduleResolution(manager, entity);
        return account;
      });
    } catch (error) {
      // The same destination was registered for the owner (or another account changed to it) after
      // the check above and before this commit: answered as the check answers.
      if (!fingerprint || !isUniqueViolation(error, 'ux_external_account_destination')) throw error;
      throw duplicateError((await this.accounts.findLiveByFingerprint(ctx.platformId, current, fingerprint, undefined, current.id))?.id);
    }
  }

  /** Removal is a state change: the account becomes INACTIVE and stays readable. Repeating it is a no-op. */
  async remove(ctx: CallerContext, request: RemoveExternalAccountRequest): Promise<ExternalAccount> {
    // A trusted beneficiary (Strong Customer Authentication, owned by wallet-auth) is untrusted first.
    if (request.ownerType !== 'PLATFORM' && (await this.services.request(WALLET_AUTH_SCA_SUBJECTS.getTrust, { externalAccountId: request.externalAccountId }, ctx)).trusted) {
      throw new ServiceError(
        'BENEFICIARY_TRUSTED',
        `External account ${request.externalAccountId} is a trusted beneficiary: untrust it (POST .../untrust and its /confirm) before deleting it`,
      );
    }
    return this.transactions.run(async (manager) => {
      const entity = this.visible(ctx, await this.accounts.findById(ctx.platformId, request.externalAccountId, request.ownerType, manager, true), request.externalAccountId);
      if (entity.status !== 'INACTIVE') {
        const now = this.clock.now();
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
    entity.updatedAt = this.clock.now();
    await this.accounts.save(manager, entity);
    await this.announceStatusChange(manager, entity);
  }

  private async announceStatusChange(manager: EntityManager, entity: ExternalAccountEntity): Promise<void> {
    await this.outbox.add(manager, {
      subject: EXTERNAL_ACCOUNTS_EVENTS.statusChanged,
      platformId: entity.platformId,
      resourceId: entity.id,
      webhookType: EXTERNAL_ACCOUNT_WEBHOOK_TYPES.statusUpdated,
      data: toExternalAccount(entity),
    });
  }

  private async scheduleResolution(manager: EntityManager, entity: ExternalAccountEntity): Promise<void> {
    await this.scheduler.schedule(manager, {
      kind: RESOLVE_VERIFICATION_JOB,
      platformId: entity.platformId,
      payload: { platformId: entity.platformId, externalAccountId: entity.id, reviewVersion: entity.reviewVersion },
      delayMs: PENDING_VERIFICATION_DELAY_MS,
      sandboxDelay: true,
      dedupeKey: `${RESOLVE_VERIFICATION_JOB.name}:${entity.id}:${entity.reviewVersion}`,
    });
  }

  private review(ctx: CallerContext, info: AccountInfo, ownershipType: ExternalAccountEntity['ownershipType'] | undefined): Review {
    const outcome: ReviewOutcome = reviewDestination(info, this.sandbox.applyTo(ctx), ownershipType);
    if (outcome.kind === 'REJECTED') {
      throw new ServiceError('INVALID_BANK_ACCOUNT', 'The destination account is invalid or cannot receive funds');
    }
    return outcome;
  }

  /**
   * bankName against the corridor's discovery list: an error where SPEC.md requires a listed bank
   * (PHP), a warning elsewhere (the reference API takes any bank name). Corridors without a
   * discovery list are not checked.
   */
  private async bankNameCheck(info: unknown): Promise<{ errors: FieldError[]; warnings: ExternalAccountWarning[] }> {
    const none = { errors: [], warnings: [] };
    if (typeof info !== 'object' || info === null || !isAccountType((info as { accountType?: unknown }).accountType)) return none;
    const { accountType, bankName } = info as { accountType: AccountInfo['accountType']; bankName?: unknown };
    const corridor = CORRIDORS[accountType];
    if (!corridor.bankNameList || !corridor.country || !corridor.currencies || typeof bankName !== 'string') return none;
    const country = corridor.country;
    const currency = corridor.currencies[0];
    const names = await this.discoveries.bankNames(country, currency);
    if (names.length === 0 || names.includes(bankName)) return none;
    const where = `GET /discoveries?country=${country}&currency=${currency}`;
    if (corridor.bankNameList === 'error') {
      return {
        errors: [{ field: 'accountInfo.bankName', message: `accountInfo.bankName must be one of the bankName values of ${where}`, constraint: { enum: names } }],
        warnings: [],
      };
    }
    return { errors: [], warnings: [{ field: 'accountInfo.bankName', message: `accountInfo.bankName is not one of the bankName values of ${where}` }] };
  }

  /**
   * Start (or restart) ownership verification of a first-party self-custody wallet in
   * PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED: any earlier challenge is abandoned, and an
   * UNVERIFIED account is pending again.
   */
  async startOwnershipChallenge(ctx: CallerContext, request: OwnershipChallengeMessage): Promise<OwnershipChallenge> {
    return this.transactions.run(async (manager) => {
      const entity = this.visible(ctx, await this.accounts.findById(ctx.platformId, request.externalAccountId, request.ownerType, manager, true), request.externalAccountId);
      if (!needsOwnershipProof(entity.accountInfo, entity.ownershipType)) {
        throw new ServiceError('CONFLICT', 'Ownership verification applies only to first-party self-custody wallets (no vaspName)');
      }
      if (entity.status !== 'PENDING_OWNERSHIP_VERIFICATION' && entity.status !== 'UNVERIFIED') {
        throw new ServiceError('CONFLICT', `External account ${entity.id} is ${entity.status}: its ownership needs no verification`);
      }
      const now = this.clock.now();
      const challengeId = randomUUID();
      const expiresAt = new Date(now.getTime() + OWNERSHIP_CHALLENGE_TTL_MS).toISOString();
      const address = String(entity.accountInfo.address);
      const challenge: StoredOwnershipChallenge =
        request.method === 'WALLET_SIGNATURE'
          ? { id: challengeId, method: 'WALLET_SIGNATURE', messageToSign: `I verify that I control the wallet ${address}. Nonce: ${challengeId}`, expiresAt }
          : { id: challengeId, method: 'LIVENESS', verificationLink: `https://liveness.sandbox.invalid/session/${challengeId}`, expiresAt };
      const before = entity.status;
      entity.ownershipChallenge = challenge;
      entity.status = 'PENDING_OWNERSHIP_VERIFICATION';
      entity.updatedAt = now;
      await this.accounts.save(manager, entity);
      if (entity.status !== before) await this.announceStatusChange(manager, entity);
      if (challenge.method === 'LIVENESS') {
        await this.scheduler.schedule(manager, {
          kind: COMPLETE_LIVENESS_JOB,
          platformId: entity.platformId,
          payload: { platformId: entity.platformId, externalAccountId: entity.id, challengeId },
          delayMs: LIVENESS_DELAY_MS,
          sandboxDelay: true,
          dedupeKey: `${COMPLETE_LIVENESS_JOB.name}:${challengeId}`,
        });
      }
      const { id: _id, ...reply } = challenge;
      return reply;
    });
  }

  /**
   * Complete a WALLET_SIGNATURE challenge: a signature by the wallet's key over the exact message
   * makes the account ACTIVE; a wrong or late one makes it UNVERIFIED (committed) and answers 400.
   */
  async verifyOwnership(ctx: CallerContext, request: OwnershipVerifyMessage): Promise<ExternalAccount> {
    const outcome = await this.transactions.run(async (manager) => {
      const entity = this.visible(ctx, await this.accounts.findById(ctx.platformId, request.externalAccountId, request.ownerType, manager, true), request.externalAccountId);
      const challenge = entity.ownershipChallenge;
      if (entity.status !== 'PENDING_OWNERSHIP_VERIFICATION' || challenge?.method !== 'WALLET_SIGNATURE' || !challenge.messageToSign) {
        throw new ServiceError('CONFLICT', `External account ${entity.id} has no WALLET_SIGNATURE challenge outstanding`);
      }
      const now = this.clock.now();
      const network = CORRIDORS[entity.accountInfo.accountType].network;
      const expired = now.getTime() > Date.parse(challenge.expiresAt);
      const valid = !expired && network !== undefined && isWalletSignature(network, String(entity.accountInfo.address), challenge.messageToSign, request.signature);
      entity.status = valid ? 'ACTIVE' : 'UNVERIFIED';
      entity.ownershipChallenge = null;
      entity.updatedAt = now;
      await this.accounts.save(manager, entity);
      await this.announceStatusChange(manager, entity);
      return { account: toExternalAccount(entity), expired, valid };
    });
    if (!outcome.valid) {
      const message = outcome.expired
        ? 'The challenge expired before the signature arrived: start a new challenge'
        : 'The signature is not the wallet signing messageToSign: start a new challenge';
      throw ServiceError.invalidInput([{ field: 'signature', message }]);
    }
    return outcome.account;
  }

  /** Scheduler: the hosted liveness check of a challenge completes (sandbox table: address suffix 002 fails). */
  private async completeLiveness({ platformId, externalAccountId, challengeId }: CompleteLivenessJob, manager: EntityManager): Promise<void> {
    const entity = await this.accounts.findById(platformId, externalAccountId, undefined, manager, true);
    // Replaced by a newer challenge, removed, or already done: nothing to do (jobs may run more than once).
    if (!entity || entity.ownershipChallenge?.id !== challengeId || entity.status !== 'PENDING_OWNERSHIP_VERIFICATION') return;
    const sandbox = this.sandbox.applyTo(tenantContext(platformId, `liveness:${challengeId}`));
    entity.status = !sandbox || sandboxLivenessOutcome(entity.accountInfo) === 'PASSED' ? 'ACTIVE' : 'UNVERIFIED';
    entity.ownershipChallenge = null;
    entity.updatedAt = this.clock.now();
    await this.accounts.save(manager, entity);
    await this.announceStatusChange(manager, entity);
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
    // Another customer named in the body is unknown to the agent.
    if (ctx.agent && resolved !== ctx.agent.customerId) throw unknownCustomerIn('customerId', resolved);
    return { ownerType, customerId: resolved };
  }

  /**
   * The customer, asked of the customers service. Unknown (or another platform's): 404
   * USER_NOT_FOUND for a customer in the query, 400 INVALID_INPUT naming `bodyField` for one in a
   * request body (the reference declares no 404 there).
   */
  private async assertCustomer(ctx: CallerContext, customerId: string, bodyField?: string): Promise<Customer> {
    try {
      return await this.services.request(CUSTOMERS_SUBJECTS.getCustomer, { customerId }, ctx);
    } catch (error) {
      if (error instanceof ServiceError && (error.code === 'USER_NOT_FOUND' || error.code === 'INVALID_INPUT')) {
        throw bodyField ? unknownCustomerIn(bodyField, customerId) : customerNotFound(customerId);
      }
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

/**
 * The validated accountInfo as plain JSON: absent optional fields dropped, and so are nulls, which
 * validation took as absent (a stored null would be answered where the documented type is a string).
 */
function toPlainInfo(info: object): AccountInfo {
  return JSON.parse(JSON.stringify(info, (_key, value: unknown) => (value === null ? undefined : value))) as AccountInfo;
}

/**
 * The platform's id for the account: the top-level field, or (as in the reference API's own
 * example) the one given inside accountInfo, which is not part of the stored destination.
 */
/** The top-level platformAccountId wins (null removes it); else the one the reference's example nests in accountInfo. */
function splitPlatformAccountId<T extends string | null | undefined>(info: AccountInfo, platformAccountId: T): { info: AccountInfo; platformAccountId: T | string | undefined } {
  const { platformAccountId: nested, ...rest } = info;
  return { info: rest, platformAccountId: platformAccountId !== undefined ? platformAccountId : typeof nested === 'string' ? nested : undefined };
}

function accountNotFound(id: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `External account ${id} not found`);
}

function customerNotFound(id: string): ServiceError {
  return new ServiceError('USER_NOT_FOUND', `Customer ${id} not found`);
}

function unknownCustomerIn(field: string, id: string): ServiceError {
  return ServiceError.unknownReference(field, `Customer ${id} not found`);
}

function notMutable(id: string): ServiceError {
  return new ServiceError('INVALID_STATE_TRANSITION', `External account ${id} is INACTIVE (removed) and cannot change`);
}

function duplicateError(existingAccountId: string | undefined): ServiceError {
  return new ServiceError('CONFLICT', 'This destination is already registered for this owner', existingAccountId ? { existingAccountId } : undefined);
}
