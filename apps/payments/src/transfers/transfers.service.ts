import { createHash } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  amountFromWire,
  amountToWire,
  CallerContext,
  ExternalAccountWithRouting,
  ListTransactionsQuery,
  newId,
  Page,
  PaymentRail,
  PurposeOfPayment,
  SetDailyVolumeLimitRequest,
  DailyVolumeLimit,
  SetVelocityLimitRequest,
  SignedRetryOutcome,
  tenantPlatformId,
  Transaction,
  TransactionType,
  TransferInMessage,
  TransferOutMessage,
  VelocityLimit,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, decodeCursor, idCursor, IdempotencyStore, JobScheduler, Outbox, pageLimit, requestHash, ScheduleRequest, toPage, TransactionRunner } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient, signedAction, walletAuthOverTransport } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { isClientRetry, lockFingerprint, requestFingerprint, retryWindowStart } from '../client-retries';
import { CustomersClient } from '../counterparties/customers.client';
import { ExternalAccountsClient } from '../counterparties/external-accounts.client';
import { CurrencyInfo } from '../currencies/currencies.repository';
import { PaymentTransactionEntity } from './entities/payment-transaction.entity';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { InternalAccountWithBalance } from '../internal-accounts/entities/internal-account.entity';
import { accountNotActive, accountNotFound } from '../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { InternalAccountsService } from '../internal-accounts/internal-accounts.service';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LedgerService, NEW_MOVEMENT_STATUSES } from '../ledger/ledger.service';
import { transferOutcome, TransferStep } from './transfers.sandbox';
import { defaultRail, railsOf } from './payment-rails';
import { toTransaction, transactionStatusEvent } from './transaction.mapper';
import { NewTransaction, TransactionFilter, TransactionsRepository } from './transactions.repository';
import { ADVANCE_TRANSFER_JOB, AdvanceTransferJob } from './transfers.jobs';

const TRANSACTION_CURSOR = idCursor('Transaction');

export interface TransferRequest {
  type: TransactionType;
  internalAccountId: string;
  externalAccountId: string;
  /** Omitted on a transfer-out: the whole available balance; a transfer-in needs it. */
  amount?: number;
  currency?: string;
  description?: string;
  paymentRail?: PaymentRail;
  remittanceInformation?: string;
  purposeOfPayment?: PurposeOfPayment;
  idempotencyKey?: string;
  /** A client library's automatic retry (`X-Stainless-Retry-Count` 1 or more). */
  retryOf?: { attempt: number };
  /** Who asked, when not the platform's API itself: `agent:<agentId>` (part of the request's fingerprint). */
  origin?: string;
}

/** A transfer that passed every check before the database transaction, ready to move. */
export interface CheckedTransfer {
  request: TransferRequest;
  hash: string;
  /** Without an Idempotency-Key: the request's fingerprint, written with the transfer. */
  fingerprint?: string;
  account: InternalAccountWithBalance;
  external: ExternalAccountWithRouting;
  currency: CurrencyInfo;
  outcome: ReturnType<typeof transferOutcome>;
  /** The amount that moves: the request's, or (transfer-out without one) the available balance at the check. */
  amount: bigint;
  /** The platform's id of the owning customer (the platform's own id for its accounts). */
  platformCustomerId: string;
  /** OUTGOING: the rail and whether the request chose it. */
  rail?: { paymentRail: PaymentRail; mode: 'AUTO' | 'MANUAL' };
}

/**
 * What an agent's transfer adds to `move`: its policy step inside the transfer's database
 * transaction, and whether the transfer waits for the platform's approval.
 */
export interface MoveHooks {
  /** After the account lock, before anything is written (an agent's usage reservation; throwing refuses the transfer). */
  beforeWrite?: (manager: EntityManager) => Promise<void>;
  /** After the transfer is written, in the same transaction (the agent action that records it). */
  afterWrite?: (manager: EntityManager, transaction: Transaction) => Promise<void>;
  /**
   * Write the transfer PENDING holding nothing and counting against no limit; its balance and
   * limits are checked, its funds held and its steps scheduled only when approved (`startApproved`).
   */
  awaitApproval?: boolean;
}

export function incoming(request: TransferInMessage): TransferRequest {
  return {
    type: 'INCOMING',
    internalAccountId: request.destination.accountId,
    externalAccountId: request.source.accountId,
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    idempotencyKey: request.idempotencyKey,
    retryOf: request.retryOf,
  };
}

export function outgoing(request: TransferOutMessage): TransferRequest {
  return {
    type: 'OUTGOING',
    internalAccountId: request.source.accountId,
    externalAccountId: request.destination.accountId,
    amount: request.amount,
    currency: request.currency,
    description: request.description,
    paymentRail: request.destination.paymentRail,
    remittanceInformation: request.remittanceInformation,
    purposeOfPayment: request.purposeOfPayment,
    idempotencyKey: request.idempotencyKey,
    retryOf: request.retryOf,
  };
}

/**
 * Transfers between internal and external accounts. Every check that needs another service
 * (the external account, the customer's readiness) runs before the database transaction;
 * the transaction then writes the transfer, its hold or entry, its event and its
 * idempotency record together. Later status changes run on the durable scheduler.
 */
@Injectable()
export class TransfersService implements OnModuleInit {
  constructor(
    private readonly transfers: TransactionsRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly internalAccounts: InternalAccountsService,
    private readonly ledger: LedgerRepository,
    private readonly ledgerService: LedgerService,
    private readonly currencies: CurrencyCatalog,
    private readonly customers: CustomersClient,
    private readonly externalAccounts: ExternalAccountsClient,
    private readonly idempotency: IdempotencyStore,
    private readonly scheduler: JobScheduler,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.scheduler.register(ADVANCE_TRANSFER_JOB, (payload, manager) => this.advance(payload, manager));
  }

  /**
   * POST /transfer-out. Sending from an EMBEDDED_WALLET is a signed action of that wallet (SPEC
   * "Embedded wallet sessions" 1): every check runs first on both calls, so its 4xx come before
   * the challenge, and the money moves only once wallet-auth has consumed a challenge signed by a
   * session of the wallet. A repeat of an answered Idempotency-Key gets that answer, unsigned.
   */
  async transferOut(ctx: CallerContext, request: TransferOutMessage): Promise<SignedRetryOutcome<Transaction>> {
    const checked = await this.check(ctx, outgoing(request));
    if ('earlier' in checked) return { result: checked.earlier };
    const source = checked.account;
    if (source.type !== 'EMBEDDED_WALLET') return { result: await this.move(ctx, checked) };
    if (!request.signedRetry) throw new ServiceError('WALLET_SIGNATURE_MISSING', `A transfer from embedded wallet ${source.id} must be signed by a session of the wallet`);
    return signedAction(walletAuthOverTransport(this.services), ctx, { accountId: source.id, operation: 'TRANSFER_OUT', input: request.signedRetry }, () =>
      this.move(ctx, checked),
    );
  }

  async transferIn(ctx: CallerContext, request: TransferInMessage): Promise<Transaction> {
    const checked = await this.check(ctx, incoming(request));
    return 'earlier' in checked ? checked.earlier : this.move(ctx, checked);
  }

  /**
   * Every check that comes before the database transaction (those that need another service
   * included), or the earlier answer of a repeated Idempotency-Key, or (without a key) of the
   * request a client library's automatic retry repeats.
   */
  async check(ctx: CallerContext, request: TransferRequest): Promise<CheckedTransfer | { earlier: Transaction }> {
    const { idempotencyKey, retryOf, origin, ...body } = request;
    const operation = `transfer-${request.type === 'OUTGOING' ? 'out' : 'in'}`;
    const hash = requestHash({ operation, ...body });
    // The platform is the column beside it; the route is the operation and who sent it (an agent's route is its own).
    const fingerprint = idempotencyKey ? undefined : requestFingerprint(operation, origin, body);
    const account = await this.accounts.findById(ctx.platformId, request.internalAccountId);
    // Looked for after the account is read: a transfer under the same key that committed before
    // that read left its answer too, so a retry racing it replays instead of seeing its hold.
    if (idempotencyKey) {
      const earlier = await this.idempotency.replay<Transaction>(this.dataSource.manager, ctx.platformId, idempotencyKey, hash);
      if (earlier) return { earlier };
    }
    if (fingerprint && isClientRetry(retryOf)) {
      const earlier = await this.retried(ctx.platformId, fingerprint);
      if (earlier) return { earlier: await this.toResource(earlier) };
    }
    const internalField = request.type === 'OUTGOING' ? 'source' : 'destination';
    const externalField = request.type === 'OUTGOING' ? 'destination' : 'source';
    if (request.type === 'INCOMING' && request.amount === undefined) {
      // A pull cannot default to "everything": the external account's balance is not known here.
      throw new ServiceError('INVALID_AMOUNT', 'A transfer-in needs an amount: the balance of the external account cannot be read', { field: 'amount' });
    }
    if (!account) throw accountNotFound(request.internalAccountId, { field: `${internalField}.accountId` });
    if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
    const external = await this.externalAccounts.get(ctx, request.externalAccountId);
    assertCounterparty(account, external, externalField);
    const rail = request.type === 'OUTGOING' ? chooseRail(external, request.paymentRail) : undefined;
    const currency = await this.currencies.get(account.currencyCode);
    if (external.currency !== account.currencyCode || (request.currency !== undefined && request.currency !== account.currencyCode)) {
      throw new ServiceError(
        'INVALID_CURRENCY',
        `Both accounts and the amount must be in one currency (internal ${account.currencyCode}, external ${external.currency}${request.currency ? `, amount ${request.currency}` : ''})`,
      );
    }
    // Without an amount, a transfer-out sends what is available now; the hold re-checks it under the account's lock.
    const amount = request.amount !== undefined ? amountFromWire(request.amount) : account.posted - account.held;
    if (request.amount === undefined && amount <= 0n) {
      throw new ServiceError('INVALID_AMOUNT', `Internal account ${account.id} has no available balance to send`, { field: 'amount', availableBalance: amountToWire(amount) });
    }
    assertAmountInRange(amount, currency);
    const customer = account.customerId ? await this.customers.assertReady(ctx, account.customerId, account.currencyCode) : undefined;
    const outcome = transferOutcome(this.sandbox.applyTo(ctx), external.routing.primaryIdentifierLast3);
    // A customer service of the previous release does not tell the platform's id: the customer id stands in.
    const platformCustomerId = customer ? (customer.platformCustomerId ?? customer.customerId) : ctx.platformId;
    return { request, hash, ...(fingerprint ? { fingerprint } : {}), account, external, currency, outcome, amount, platformCustomerId, ...(rail ? { rail } : {}) };
  }

  /** The most recent transfer with this fingerprint of the last 24 hours of the platform's time. */
  private retried(platformId: string, fingerprint: string, manager?: EntityManager): Promise<PaymentTransactionEntity | undefined> {
    return this.transfers.findByFingerprint(platformId, fingerprint, retryWindowStart(this.clock), manager);
  }

  /**
   * The transfer, its hold or entry, its event and its idempotency record (or, without a key, its
   * request fingerprint), in one transaction.
   */
  async move(ctx: CallerContext, checked: CheckedTransfer, hooks: MoveHooks = {}): Promise<Transaction> {
    const { request, hash, fingerprint, account, external, currency, outcome, amount, platformCustomerId, rail } = checked;
    const { idempotencyKey } = request;
    return this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
      if (fingerprint) {
        // Requests with one fingerprint take their turns: a client's retry that came while the try it
        // repeats was still running waits for it here, then answers it instead of moving the money again.
        await lockFingerprint(manager, ctx.platformId, fingerprint);
        if (isClientRetry(request.retryOf)) {
          const earlier = await this.retried(ctx.platformId, fingerprint, manager);
          if (earlier) return this.toResource(earlier);
        }
      }
      // Checked again under the account's lock: it may have been frozen or closed since the check above.
      await this.ledgerService.lockAccountWithin(manager, ctx.platformId, account.id, NEW_MOVEMENT_STATUSES);
      await hooks.beforeWrite?.(manager);
      if (account.customerId && !hooks.awaitApproval) await this.assertWithinVelocity(manager, ctx.platformId, account.customerId, currency.code, amount);
      const id = newId('Transaction');
      let holdId: string | null = null;
      if (request.type === 'OUTGOING' && outcome.kind === 'ACCEPTED' && !hooks.awaitApproval) {
        // The amount leaves the available balance now; it is posted or returned when the transfer settles.
        holdId = (await this.ledgerService.holdWithin(manager, ctx.platformId, account, amount, `transfer:${id}`, id))!.hold.id;
        // After the hold (a withdrawal the balance cannot cover answers that 4xx): it counts against the platform's daily volume in its currency.
        await this.reserveDailyVolume(manager, ctx.platformId, currency.code, amount);
        await this.internalAccounts.announceBalance(manager, ctx.platformId, account.id);
      }
      const failed = outcome.kind === 'FAILS_IMMEDIATELY';
      const row: NewTransaction = {
        id,
        platformId: ctx.platformId,
        type: request.type,
        status: failed ? 'FAILED' : 'PENDING',
        customerId: account.customerId,
        platformCustomerId: account.customerId ? platformCustomerId : null,
        internalAccountId: account.id,
        externalAccountId: external.id,
        currencyCode: currency.code,
        amount,
        holdId,
        description: request.description ?? null,
        failureReason: failed ? outcome.failureReason : null,
        paymentRail: rail?.paymentRail ?? null,
        railSelectionMode: rail?.mode ?? null,
        remittanceInformation: request.remittanceInformation ?? null,
        purposeOfPayment: request.purposeOfPayment ?? null,
        // A wallet destination: the transfer goes out on the address's network (the sandbox names its transfer by a generated hash).
        cryptoNetwork: external.routing.network ?? null,
        onChainTransactionHash: external.routing.network ? sandboxTransactionHash(id) : null,
        requestFingerprint: fingerprint ?? null,
      };
      // The transfer, its event and its first step in one statement (the row is known before it is written).
      const now = this.clock.now();
      const transaction = toTransaction(this.transfers.entityOf(row, now), currency, ctx.platformId);
      const first = outcome.kind === 'ACCEPTED' && !hooks.awaitApproval ? this.stepJob(ctx.platformId, id, outcome.steps) : undefined;
      await this.outbox.addWithChange(
        manager,
        this.transfers.insertStatement(row, now),
        transactionStatusEvent(ctx.platformId, transaction),
        first ? [this.scheduler.scheduleStatement([first])] : [],
      );
      await hooks.afterWrite?.(manager, transaction);
      return transaction;
    });
  }

  /**
   * The scheduled next step of an accepted transfer. A step that finds the transfer already
   * past it does nothing, so a retried job never moves money twice; settling an outgoing
   * transfer captures its hold (or releases it on failure), an incoming one credits the account.
   */
  async advance(payload: AdvanceTransferJob, manager: EntityManager): Promise<void> {
    const current = await this.transfers.findById(payload.platformId, payload.transactionId, manager, true);
    if (!current || current.status === 'COMPLETED' || current.status === 'FAILED') return;
    if (payload.status === 'PROCESSING' && current.status !== 'PENDING') return;
    const amount = current.amount;
    if (current.type === 'OUTGOING' && current.holdId) {
      if (payload.status === 'COMPLETED') {
        await this.ledgerService.captureWithin(manager, payload.platformId, current.holdId, amount, `transfer:${current.id}:settle`, 'EXTERNAL_CLEARING', 'TRANSFER_OUT');
      } else if (payload.status === 'FAILED') {
        await this.ledgerService.releaseWithin(manager, payload.platformId, current.holdId, `transfer:${current.id}:fail`);
      }
    }
    if (current.type === 'INCOMING' && payload.status === 'COMPLETED') {
      await this.ledger.creditFromSystem(manager, {
        platformId: payload.platformId,
        kind: 'TRANSFER_IN',
        referenceId: current.id,
        accountId: current.internalAccountId,
        currency: current.currencyCode,
        from: 'EXTERNAL_CLEARING',
        amount,
      });
    }
    // Settling moved the account's money (a capture changes the total, a release or credit the available balance).
    const moved = (current.type === 'OUTGOING' && current.holdId !== null && payload.status !== 'PROCESSING') || (current.type === 'INCOMING' && payload.status === 'COMPLETED');
    if (moved) await this.internalAccounts.announceBalance(manager, payload.platformId, current.internalAccountId);
    // The transfer's move, its event and the next step: one statement.
    const now = this.clock.now();
    const failureReason = payload.failureReason ?? null;
    const next = this.stepJob(payload.platformId, current.id, payload.next ?? []);
    const changed = await this.outbox.addWithChange(
      manager,
      this.transfers.transitionStatement(payload.platformId, current.id, current.status, payload.status, failureReason, now),
      transactionStatusEvent(payload.platformId, await this.toResource(this.transfers.transitioned(current, payload.status, failureReason, now))),
      next ? [this.scheduler.scheduleStatement([next])] : [],
    );
    // Unreachable while the row lock holds; if it were not, nothing of this step may commit.
    if (!changed) throw new Error(`Transaction ${current.id} changed status concurrently`);
  }

  /**
   * A transfer that waited for the platform's approval (holding nothing) proceeds, checked
   * against the account and the customer's limits of this moment: under the account's lock, the
   * velocity limit, then the hold of its funds; then its steps, as its outcome gave them when it
   * was written. A check that fails throws (INSUFFICIENT_BALANCE, VELOCITY_LIMIT_EXCEEDED,
   * ACCOUNT_NOT_ACTIVE) and the caller's transaction writes nothing. A transfer written before
   * waiting stopped holding (it has its hold already) is not checked again.
   */
  async startApproved(manager: EntityManager, platformId: string, transactionId: string, steps: TransferStep[]): Promise<void> {
    const current = await this.transfers.findById(platformId, transactionId, manager, true);
    if (!current) throw new Error(`Transaction ${transactionId} vanished while it was approved`);
    if (current.holdId === null) {
      await this.ledgerService.lockAccountWithin(manager, platformId, current.internalAccountId, NEW_MOVEMENT_STATUSES);
      if (current.customerId) await this.assertWithinVelocity(manager, platformId, current.customerId, current.currencyCode, current.amount);
      if (current.type === 'OUTGOING' && steps.length > 0) {
        const placed = (await this.ledgerService.holdWithin(
          manager,
          platformId,
          { id: current.internalAccountId, currencyCode: current.currencyCode },
          current.amount,
          `transfer:${current.id}`,
          current.id,
        ))!;
        await this.reserveDailyVolume(manager, platformId, current.currencyCode, current.amount);
        await this.transfers.setHold(manager, platformId, current.id, placed.hold.id);
        await this.internalAccounts.announceBalance(manager, platformId, current.internalAccountId);
      }
    }
    await this.scheduleSteps(manager, platformId, transactionId, steps);
  }

  /** Schedules the first of `steps`, carrying the rest: a transfer's steps never overtake each other. */
  private async scheduleSteps(manager: EntityManager, platformId: string, transactionId: string, steps: TransferStep[]): Promise<void> {
    const job = this.stepJob(platformId, transactionId, steps);
    if (job) await this.scheduler.schedule(manager, job);
  }

  /** The job of the first of `steps`, carrying the rest; none when no step is left. */
  private stepJob(platformId: string, transactionId: string, steps: TransferStep[]): ScheduleRequest<AdvanceTransferJob> | undefined {
    const [step, ...rest] = steps;
    if (!step) return undefined;
    const payload: AdvanceTransferJob = { platformId, transactionId, status: step.status, ...(step.failureReason ? { failureReason: step.failureReason } : {}), next: rest };
    return { kind: ADVANCE_TRANSFER_JOB, platformId, payload, delayMs: step.delayMs, sandboxDelay: true, dedupeKey: `${transactionId}:${step.status}` };
  }

  async get(ctx: CallerContext, transactionId: string): Promise<Transaction> {
    const entity = await this.transfers.findById(ctx.platformId, transactionId);
    if (!entity) throw new ServiceError('TRANSACTION_NOT_FOUND', `Transaction ${transactionId} not found`);
    return this.toResource(entity);
  }

  /** The transaction as the API returns it, in its sent and received currencies. */
  async toResource(entity: PaymentTransactionEntity): Promise<Transaction> {
    return toTransaction(entity, await this.currencies.get(entity.currencyCode), entity.platformId, await this.currencies.get(entity.receivedCurrencyCode ?? entity.currencyCode));
  }

  async list(ctx: CallerContext, query: ListTransactionsQuery): Promise<Page<Transaction>> {
    const limit = pageLimit(query.limit);
    const filter: Omit<TransactionFilter, 'afterCursorId' | 'ascending' | 'limit'> = {
      accountIds: [query.accountId, query.accountIdentifier].filter((id): id is string => id !== undefined),
      senderAccountId: query.senderAccountIdentifier,
      receiverAccountId: query.receiverAccountIdentifier,
      // The platform's own id (as the wire shows it, not the tenant's) selects the transactions of its own accounts (they have no customer).
      owner: query.customerId === undefined ? undefined : query.customerId === tenantPlatformId(ctx.platformId) ? { platform: true } : { customerId: query.customerId },
      platformCustomerId: query.platformCustomerId,
      status: query.status,
      type: query.type,
      reference: query.reference,
      createdFrom: latest(query.createdAfter, query.startDate),
      createdBefore: query.createdBefore ? new Date(query.createdBefore) : undefined,
      createdUntil: query.endDate ? new Date(query.endDate) : undefined,
    };
    const [rows, totalCount] = await Promise.all([
      this.transfers.list(ctx.platformId, { ...filter, ascending: query.sortOrder === 'asc', afterCursorId: decodeCursor(query.cursor, TRANSACTION_CURSOR), limit: limit + 1 }),
      this.transfers.count(ctx.platformId, filter),
    ]);
    const page = toPage(rows, limit, async (row) => this.toResource(row), TRANSACTION_CURSOR);
    return { ...page, data: await Promise.all(page.data), totalCount };
  }

  async setVelocityLimit(ctx: CallerContext, request: SetVelocityLimitRequest): Promise<VelocityLimit> {
    if (!(await this.currencies.find(request.currency))) throw new ServiceError('INVALID_CURRENCY', `Unknown currency ${request.currency}`);
    await this.transfers.setVelocityLimit(
      ctx.platformId,
      request.customerId,
      request.currency,
      request.maxCountPerDay ?? null,
      request.maxAmountPerDay === undefined ? null : amountFromWire(request.maxAmountPerDay),
    );
    return request.maxCountPerDay === undefined && request.maxAmountPerDay === undefined
      ? { customerId: request.customerId, currency: request.currency }
      : {
          customerId: request.customerId,
          currency: request.currency,
          ...(request.maxCountPerDay !== undefined ? { maxCountPerDay: request.maxCountPerDay } : {}),
          ...(request.maxAmountPerDay !== undefined ? { maxAmountPerDay: request.maxAmountPerDay } : {}),
        };
  }

  /**
   * Counts `amount` against the platform's daily volume limit in `currency` (the day of the
   * platform's time, so the sandbox clock moves it), or 429 DAILY_VOLUME_LIMIT_EXCEEDED naming the
   * limit and what is left of it today. The day it counted in, for `releaseDailyVolume`.
   */
  async reserveDailyVolume(manager: EntityManager, platformId: string, currency: string, amount: bigint): Promise<string> {
    const day = this.clock.now().toISOString().slice(0, 10);
    const reserved = await this.transfers.reserveDailyVolume(manager, platformId, currency, day, amount);
    if (reserved && !reserved.added) {
      throw new ServiceError('DAILY_VOLUME_LIMIT_EXCEEDED', `The amount would exceed the platform's daily volume limit of ${amountToWire(reserved.limit)} in ${currency}`, {
        limit: { currency, maxAmountPerDay: amountToWire(reserved.limit), period: 'DAY' },
        remainingVolume: amountToWire(reserved.remaining),
        requestedAmount: amountToWire(amount),
        day,
      });
    }
    return day;
  }

  async releaseDailyVolume(manager: EntityManager, platformId: string, currency: string, day: string, amount: bigint): Promise<void> {
    await this.transfers.releaseDailyVolume(manager, platformId, currency, day, amount);
  }

  async setDailyVolumeLimit(ctx: CallerContext, request: SetDailyVolumeLimitRequest): Promise<DailyVolumeLimit> {
    await this.transfers.setDailyVolumeLimit(
      ctx.platformId,
      request.currency,
      request.maxAmountPerDay === null || request.maxAmountPerDay === undefined ? null : BigInt(request.maxAmountPerDay),
    );
    return { currency: request.currency, ...(request.maxAmountPerDay !== null && request.maxAmountPerDay !== undefined ? { maxAmountPerDay: request.maxAmountPerDay } : {}) };
  }

  private async assertWithinVelocity(manager: EntityManager, platformId: string, customerId: string, currency: string, amount: bigint): Promise<void> {
    const usage = await this.transfers.lockVelocity(manager, platformId, customerId, currency);
    if (!usage) return;
    const overCount = usage.maxCount !== null && usage.count + 1 > usage.maxCount;
    const overAmount = usage.maxAmount !== null && usage.amount + amount > usage.maxAmount;
    if (overCount || overAmount) {
      throw new ServiceError('VELOCITY_LIMIT_EXCEEDED', `The customer's ${overCount ? 'daily transfer count' : 'daily transfer amount'} limit in ${currency} would be exceeded`, {
        ...(usage.maxCount !== null ? { maxCountPerDay: usage.maxCount } : {}),
        ...(usage.maxAmount !== null ? { maxAmountPerDay: amountToWire(usage.maxAmount) } : {}),
        countLast24h: usage.count,
        amountLast24h: amountToWire(usage.amount),
      });
    }
  }
}

/** The later of two optional instants (both filters apply). */
function latest(...values: Array<string | undefined>): Date | undefined {
  const dates = values.filter((value): value is string => value !== undefined).map((value) => new Date(value));
  return dates.length === 0 ? undefined : new Date(Math.max(...dates.map((date) => date.getTime())));
}

/**
 * The rail of a payout: the requested one, which must be among the rails the external account
 * lists (when it lists them), or the account's default.
 */
function chooseRail(external: ExternalAccountWithRouting, requested: PaymentRail | undefined): { paymentRail: PaymentRail; mode: 'AUTO' | 'MANUAL' } | undefined {
  if (requested === undefined) {
    const rail = defaultRail(external);
    return rail ? { paymentRail: rail, mode: 'AUTO' } : undefined;
  }
  const rails = railsOf(external);
  if (rails && rails.length > 0 && !rails.includes(requested)) {
    throw ServiceError.invalidInput([
      { field: 'destination.paymentRail', message: `External account ${external.id} takes ${rails.join(', ')}, not ${requested}`, constraint: { enum: rails } },
    ]);
  }
  return { paymentRail: requested, mode: 'MANUAL' };
}

/** The external account must be the internal account owner's (the same customer, or both the platform's) and able to receive payments. */
function assertCounterparty(account: InternalAccountWithBalance, external: ExternalAccountWithRouting, field: string): void {
  if ((external.customerId ?? null) !== account.customerId) {
    throw new ServiceError('COUNTERPARTY_NOT_ALLOWED', `External account ${external.id} does not belong to the owner of internal account ${account.id}`, {
      field: `${field}.accountId`,
    });
  }
  if (!external.routing.canReceivePayments) {
    throw new ServiceError('INVALID_BANK_ACCOUNT', `External account ${external.id} is ${external.status}; only ACTIVE accounts can be used`, { status: external.status });
  }
}

function assertAmountInRange(amount: bigint, currency: CurrencyInfo): void {
  if (amount < 1n || amount > currency.maxTransferAmount) {
    throw new ServiceError('AMOUNT_OUT_OF_RANGE', `A transfer in ${currency.code} must be between 1 and ${currency.maxTransferAmount} (smallest unit)`, {
      min: 1,
      max: amountToWire(currency.maxTransferAmount),
    });
  }
}

/** The hash of a wallet transfer's on-chain leg: derived from the transaction id (no chain is reached in this build). */
function sandboxTransactionHash(transactionId: string): string {
  return createHash('sha256').update(`onchain:${transactionId}`).digest('hex');
}
