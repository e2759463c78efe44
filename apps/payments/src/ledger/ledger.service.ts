import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  amountFromWire,
  amountToWire,
  CallerContext,
  CaptureHoldRequest,
  CreateCreditRequest,
  CreateHoldRequest,
  CreateRefundRequest,
  Credit,
  FundInternalAccountRequest,
  Hold,
  InternalAccount,
  InternalAccountStatus,
  newId,
  ReleaseHoldRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, StatementBatcher, TransactionRunner } from '@paykit/persistence';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { InternalAccountWithBalance } from '../internal-accounts/entities/internal-account.entity';
import { toInternalAccount } from '../internal-accounts/internal-account.mapper';
import { accountNotActive, accountNotFound, insufficientFunds } from '../internal-accounts/internal-accounts.errors';
import { InternalAccountsService } from '../internal-accounts/internal-accounts.service';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { HoldEntity } from './entities/hold.entity';
import { toCredit, toHold } from './hold.mapper';
import { HoldsRepository, NewHold } from './holds.repository';
import { EntryKind, SystemPurpose } from './ledger-entry';
import { Balance, HoldCapture, HoldChange, LedgerOutcome } from './ledger-outcomes';
import { LedgerRepository } from './ledger.repository';

/**
 * Two hold and two capture statements in flight at a time, of up to 32 requests each: the
 * next batches fill while they run. Measured on the ledger bench: one statement of up to 64
 * let all workers fall into one batch, so every slow commit stalled them all (p99 over 100 ms);
 * more and smaller batches cost more commits and plans per request.
 */
const BATCHES_IN_FLIGHT = 2;
const MAX_BATCH = 32;

/** New money (sandbox funding, transfers in and out) moves only on an ACTIVE account. */
export const NEW_MOVEMENT_STATUSES: readonly InternalAccountStatus[] = ['ACTIVE'];
/**
 * Credits that settle earlier card activity (refunds, card credits) still reach a FROZEN
 * account; never a CLOSED one, which was closed empty and stays so.
 */
const SETTLEMENT_STATUSES: readonly InternalAccountStatus[] = ['ACTIVE', 'FROZEN'];

/**
 * Runs a batch statement; requests it left SHORT (their account could not cover the batch's
 * sum) run again alone, in order, so each answer is the one the request gets on its own.
 */
async function withShortRetriedAlone<T>(requests: T[], run: (requests: T[]) => Promise<LedgerOutcome[]>): Promise<LedgerOutcome[]> {
  const outcomes = await run(requests);
  if (requests.length === 1) return outcomes;
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.status === 'SHORT') [outcomes[i]] = await run([requests[i]]);
  }
  return outcomes;
}

/**
 * Money movements on internal accounts: sandbox funding and the hold lifecycle cards use
 * (hold, capture above or below the hold, release, refund). Each operation commits atomically
 * (one transaction, or one statement) writing one balanced entry or a hold change, idempotent
 * by the caller's key. Holds and captures from the message handlers are group-committed:
 * those arriving together share one statement, each answered as if it had run alone.
 */
@Injectable()
export class LedgerService implements BeforeApplicationShutdown {
  private readonly holdBatches = new StatementBatcher<NewHold, LedgerOutcome>({
    maxInFlight: BATCHES_IN_FLIGHT,
    maxBatch: MAX_BATCH,
    keyOf: (hold) => `${hold.platformId}|${hold.callerKey}`,
    run: (holds) => withShortRetriedAlone(holds, (batch) => this.ledger.placeHolds(batch)),
  });

  private readonly captureBatches = new StatementBatcher<HoldCapture, LedgerOutcome>({
    maxInFlight: BATCHES_IN_FLIGHT,
    maxBatch: MAX_BATCH,
    keyOf: (capture) => capture.holdId,
    run: (captures) => withShortRetriedAlone(captures, (batch) => this.ledger.captureHolds(batch)),
  });

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly holds: HoldsRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly currencies: CurrencyCatalog,
    private readonly transactions: TransactionRunner,
    private readonly dataSource: DataSource,
    private readonly internalAccounts: InternalAccountsService,
  ) {}

  /** Before the database closes: what is queued fails, the statements running finish. */
  async beforeApplicationShutdown(): Promise<void> {
    const reason = new ServiceError('SERVICE_UNAVAILABLE', 'The payments service is shutting down');
    await Promise.all([this.holdBatches.close(reason), this.captureBatches.close(reason)]);
  }

  /** Sandbox: credits the account from the platform's sandbox funding source, instantly. */
  async fund(ctx: CallerContext, request: FundInternalAccountRequest): Promise<InternalAccount> {
    const account = await this.requireAccount(ctx.platformId, request.accountId);
    const amount = amountFromWire(request.amount);
    await this.transactions.run(async (manager) => {
      await this.lockAccountWithin(manager, ctx.platformId, account.id, NEW_MOVEMENT_STATUSES);
      await this.ledger.creditFromSystem(manager, {
        platformId: ctx.platformId,
        kind: 'SANDBOX_FUNDING',
        referenceId: account.id,
        accountId: account.id,
        currency: account.currencyCode,
        from: 'SANDBOX_FUNDING',
        amount,
      });
      await this.internalAccounts.announceBalance(manager, ctx.platformId, account.id);
    });
    const updated = (await this.accounts.findById(ctx.platformId, account.id))!;
    return toInternalAccount(updated, await this.currencies.get(updated.currencyCode));
  }

  /**
   * Through the hold batcher: one statement on its own (no transaction around it, no outbox
   * events). Anything else than placed or short of money (a replay, an unknown or inactive
   * account) is told apart afterwards, on the rare path.
   */
  async createHold(ctx: CallerContext, request: CreateHoldRequest): Promise<Hold> {
    const amount = amountFromWire(request.amount);
    const reference = request.reference ?? null;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const outcome = await this.holdBatches
        .add({ id: newId('Hold'), platformId: ctx.platformId, accountId: request.accountId, currencyCode: request.currency, callerKey: request.callerKey, amount, reference })
        .catch((error: unknown): LedgerOutcome => {
          // The key was taken concurrently (a statement of another process): answer like a replay.
          if (isUniqueViolation(error, 'uq_hold_caller_key')) return { status: 'SKIPPED' };
          throw error;
        });
      if (outcome.status === 'DONE') return toHold(outcome.change.hold, outcome.change.balance);
      if (outcome.status === 'SHORT') throw insufficientFunds();
      const earlier = await this.holds.findByCallerKey(ctx.platformId, request.callerKey);
      if (earlier) return this.replayHold(earlier, request);
      const account = await this.requireAccount(ctx.platformId, request.accountId);
      if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
      if (request.currency !== account.currencyCode) {
        throw new ServiceError('INVALID_CURRENCY', `The account holds ${account.currencyCode}, not ${request.currency}`);
      }
      // Placeable now though not when the statement ran (the account changed meanwhile): again.
    }
    throw new Error(`Hold ${request.callerKey} could not be placed`);
  }

  /**
   * Places a hold inside the caller's transaction (transfers); undefined when the caller key
   * already exists (or the account is not ACTIVE in that currency, which the caller checked).
   */
  async holdWithin(
    manager: EntityManager,
    platformId: string,
    account: Pick<InternalAccountWithBalance, 'id' | 'currencyCode'>,
    amount: bigint,
    callerKey: string,
    reference: string | null,
  ): Promise<HoldChange | undefined> {
    const [outcome] = await this.ledger.placeHolds(
      [{ id: newId('Hold'), platformId, accountId: account.id, currencyCode: account.currencyCode, callerKey, amount, reference }],
      manager,
    );
    if (outcome.status === 'SHORT') throw insufficientFunds();
    return outcome.status === 'DONE' ? outcome.change : undefined;
  }

  async captureHold(ctx: CallerContext, request: CaptureHoldRequest): Promise<Hold> {
    const amount = amountFromWire(request.amount);
    const capture: HoldCapture = {
      platformId: ctx.platformId,
      holdId: request.holdId,
      amount,
      resolutionKey: request.callerKey,
      counterparty: 'CARD_SETTLEMENT',
      kind: 'HOLD_CAPTURE',
    };
    const captured = await this.capture(capture, undefined, (next) => this.captureBatches.add(next));
    if (captured) return toHold(captured.hold, captured.balance);
    return this.replayResolution(this.dataSource.manager, ctx.platformId, request.holdId, 'CAPTURED', request.callerKey, amount);
  }

  /**
   * Resolves a PENDING hold inside the caller's transaction (transfers) by posting `amount`
   * to a contra account: below the hold the rest goes back to the available balance, above
   * it the excess must be available. Undefined when the hold is no longer PENDING.
   */
  async captureWithin(
    manager: EntityManager,
    platformId: string,
    holdId: string,
    amount: bigint,
    resolutionKey: string,
    counterparty: SystemPurpose,
    kind: EntryKind,
  ): Promise<HoldChange | undefined> {
    const capture: HoldCapture = { platformId, holdId, amount, resolutionKey, counterparty, kind };
    return this.capture(capture, manager, async (next) => (await this.ledger.captureHolds([next], manager))[0]);
  }

  private async capture(capture: HoldCapture, manager: EntityManager | undefined, run: (capture: HoldCapture) => Promise<LedgerOutcome>): Promise<HoldChange | undefined> {
    let outcome = await run(capture);
    if (outcome.status === 'SKIPPED') {
      // A hold still PENDING was skipped for want of the contra account: the platform's first
      // capture in that currency creates it, then captures.
      const hold = await this.holds.findById(capture.platformId, capture.holdId, manager);
      if (hold?.status !== 'PENDING') return undefined;
      await this.ledger.systemAccount(manager ?? this.dataSource.manager, capture.platformId, hold.currencyCode, capture.counterparty);
      outcome = await run(capture);
    }
    if (outcome.status === 'SHORT') throw insufficientFunds();
    return outcome.status === 'DONE' ? outcome.change : undefined;
  }

  async releaseHold(ctx: CallerContext, request: ReleaseHoldRequest): Promise<Hold> {
    const manager = this.dataSource.manager;
    const released = await this.releaseWithin(manager, ctx.platformId, request.holdId, request.callerKey);
    if (released) return toHold(released.hold, released.balance);
    return this.replayResolution(manager, ctx.platformId, request.holdId, 'RELEASED', request.callerKey, 0n);
  }

  /** PENDING -> RELEASED: the held amount is available again. Undefined when the hold is no longer PENDING. */
  async releaseWithin(manager: EntityManager, platformId: string, holdId: string, resolutionKey: string): Promise<HoldChange | undefined> {
    return this.ledger.releaseHold(manager, platformId, holdId, resolutionKey);
  }

  /** Credits part or all of a captured hold back to its account; refunds never exceed the captured amount. */
  async refund(ctx: CallerContext, request: CreateRefundRequest): Promise<Hold> {
    const earlier = await this.holds.findRefund(ctx.platformId, request.callerKey);
    if (earlier) return this.replayRefund(ctx.platformId, earlier, request);
    try {
      return await this.transactions.run(async (manager) => {
        const amount = amountFromWire(request.amount);
        const hold = await this.holds.addRefund(manager, ctx.platformId, request.holdId, amount);
        if (!hold) {
          const current = await this.holds.findById(ctx.platformId, request.holdId, manager);
          if (!current) throw new ServiceError('REFERENCE_NOT_FOUND', `Hold ${request.holdId} not found`, { holdId: request.holdId });
          if (current.status !== 'CAPTURED') throw new ServiceError('INVALID_STATE_TRANSITION', `Hold ${current.id} is ${current.status}; only a captured hold can be refunded`);
          throw new ServiceError('AMOUNT_OUT_OF_RANGE', `Refunds of hold ${current.id} would exceed its captured amount`, {
            capturedAmount: amountToWire(current.capturedAmount),
            refundedAmount: amountToWire(current.refundedAmount),
          });
        }
        await this.lockAccountWithin(manager, ctx.platformId, hold.accountId, SETTLEMENT_STATUSES);
        const posted = await this.ledger.creditFromSystem(manager, {
          platformId: ctx.platformId,
          kind: 'HOLD_REFUND',
          referenceId: hold.id,
          accountId: hold.accountId,
          currency: hold.currencyCode,
          from: 'CARD_SETTLEMENT',
          amount,
        });
        await this.holds.insertRefund(manager, { id: newId('Refund'), platformId: ctx.platformId, holdId: hold.id, callerKey: request.callerKey, amount, entryId: posted.entryId });
        return toHold(hold, posted.balances.get(hold.accountId)!);
      });
    } catch (error) {
      if (!isUniqueViolation(error, 'uq_hold_refund_caller_key')) throw error;
      return this.replayRefund(ctx.platformId, (await this.holds.findRefund(ctx.platformId, request.callerKey))!, request);
    }
  }

  /** Credits an account from the card settlement account (card credits and advices), once per caller key. */
  async credit(ctx: CallerContext, request: CreateCreditRequest): Promise<Credit> {
    const earlier = await this.holds.findCredit(ctx.platformId, request.callerKey);
    if (earlier) return this.replayCredit(earlier, request);
    const account = await this.requireAccount(ctx.platformId, request.accountId);
    if (request.currency !== account.currencyCode) {
      throw new ServiceError('INVALID_CURRENCY', `The account holds ${account.currencyCode}, not ${request.currency}`);
    }
    const amount = amountFromWire(request.amount);
    try {
      return await this.transactions.run(async (manager) => {
        await this.lockAccountWithin(manager, ctx.platformId, account.id, SETTLEMENT_STATUSES);
        const id = newId('Credit');
        const posted = await this.ledger.creditFromSystem(manager, {
          platformId: ctx.platformId,
          kind: 'CARD_CREDIT',
          referenceId: id,
          accountId: account.id,
          currency: account.currencyCode,
          from: 'CARD_SETTLEMENT',
          amount,
        });
        const reference = request.reference ?? null;
        const createdAt = await this.holds.insertCredit(manager, {
          id,
          platformId: ctx.platformId,
          accountId: account.id,
          currency: account.currencyCode,
          callerKey: request.callerKey,
          amount,
          reference,
          entryId: posted.entryId,
        });
        return toCredit({ id, accountId: account.id, currency: account.currencyCode, amount, reference, createdAt }, posted.balances.get(account.id)!);
      });
    } catch (error) {
      if (!isUniqueViolation(error, 'uq_account_credit_caller_key')) throw error;
      return this.replayCredit((await this.holds.findCredit(ctx.platformId, request.callerKey))!, request);
    }
  }

  private async replayCredit(
    earlier: { id: string; accountId: string; currency: string; amount: bigint; reference: string | null; createdAt: Date },
    request: CreateCreditRequest,
  ): Promise<Credit> {
    if (earlier.accountId !== request.accountId || earlier.amount !== amountFromWire(request.amount) || earlier.currency !== request.currency) {
      throw new ServiceError('CONFLICT', `Caller key ${request.callerKey} was already used for a different credit`, { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    return toCredit(earlier, await this.currentBalance(undefined, earlier.accountId));
  }

  /**
   * The one status guard of credits and transfers: checks the account's status with its row
   * locked until the caller's transaction ends, so a concurrent status change either waits
   * for this movement or is seen by it (money never lands on an account closed empty).
   * Holds need no lock: their statement checks ACTIVE itself, and a closed account has
   * nothing to hold.
   */
  async lockAccountWithin(manager: EntityManager, platformId: string, accountId: string, allowed: readonly InternalAccountStatus[]): Promise<void> {
    const status = await this.accounts.lockStatus(manager, platformId, accountId, 'share');
    if (!status) throw accountNotFound(accountId);
    if (!allowed.includes(status)) throw accountNotActive(accountId, status);
  }

  private async requireAccount(platformId: string, accountId: string): Promise<InternalAccountWithBalance> {
    const account = await this.accounts.findById(platformId, accountId);
    if (!account) throw accountNotFound(accountId);
    return account;
  }

  private async currentBalance(manager: EntityManager | undefined, accountId: string): Promise<Balance> {
    return (await this.ledger.balance(manager ?? this.dataSource.manager, accountId))!;
  }

  private async replayHold(earlier: HoldEntity, request: CreateHoldRequest): Promise<Hold> {
    if (earlier.accountId !== request.accountId || earlier.amount !== amountFromWire(request.amount) || earlier.currencyCode !== request.currency) {
      throw new ServiceError('CONFLICT', `Caller key ${request.callerKey} was already used for a different hold`, { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    return toHold(earlier, await this.currentBalance(undefined, earlier.accountId));
  }

  /** A capture or release that found the hold resolved: the same key and outcome is a replay, anything else a conflict. */
  private async replayResolution(manager: EntityManager, platformId: string, holdId: string, to: 'CAPTURED' | 'RELEASED', key: string, amount: bigint): Promise<Hold> {
    const hold = await this.holds.findById(platformId, holdId, manager);
    if (!hold) throw new ServiceError('REFERENCE_NOT_FOUND', `Hold ${holdId} not found`, { holdId });
    if (hold.status === to && hold.resolutionKey === key && (to === 'RELEASED' || hold.capturedAmount === amount)) {
      return toHold(hold, await this.currentBalance(manager, hold.accountId));
    }
    throw new ServiceError('INVALID_STATE_TRANSITION', `Hold ${hold.id} is already ${hold.status}`);
  }

  private async replayRefund(platformId: string, earlier: { holdId: string; amount: bigint }, request: CreateRefundRequest): Promise<Hold> {
    if (earlier.holdId !== request.holdId || earlier.amount !== amountFromWire(request.amount)) {
      throw new ServiceError('CONFLICT', `Caller key ${request.callerKey} was already used for a different refund`, { reason: 'IDEMPOTENCY_KEY_REUSED' });
    }
    const hold = (await this.holds.findById(platformId, earlier.holdId))!;
    return toHold(hold, await this.currentBalance(undefined, hold.accountId));
  }
}
