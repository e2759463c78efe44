import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  amountToWire,
  CallerContext,
  INTERNAL_ACCOUNT_WEBHOOK_TYPES,
  InternalAccount,
  InternalAccountRecord,
  InternalAccountStatus,
  InternalAccountTargetStatus,
  InternalAccountType,
  ListInternalAccountsRequest,
  newIdAvoidingSuffixes,
  NewEvent,
  Page,
  PAYMENTS_EVENTS,
  SANDBOX_INELIGIBLE_FUNDING_SUFFIXES,
  SignedRetryOutcome,
  UpdateInternalAccountPrivacyRequest,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { decodeCursor, idCursor, Outbox, pageLimit, toPage, TransactionRunner } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient, signedAction, walletAuthOverTransport } from '@paykit/transport';
import { CustomersClient, PlatformAccountSettings } from '../counterparties/customers.client';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { InternalAccountWithBalance } from './entities/internal-account.entity';
import { toInternalAccount, toInternalAccountRecord } from './internal-account.mapper';
import { accountNotFound } from './internal-accounts.errors';
import { InternalAccountsRepository, NewInternalAccount } from './internal-accounts.repository';

const INTERNAL_ACCOUNT_CURSOR = idCursor('InternalAccount');

/** Embedded wallets hold this currency: a platform has them when it supports it and has not turned them off. */
export const EMBEDDED_WALLET_CURRENCY = 'USDC';

/**
 * The statuses each target status may be entered from: ACTIVE <-> FROZEN, ACTIVE or FROZEN
 * -> CLOSED. CLOSED is terminal; PENDING is not used by the sandbox today.
 */
const ENTERED_FROM: Record<InternalAccountTargetStatus, readonly InternalAccountStatus[]> = {
  ACTIVE: ['FROZEN'],
  FROZEN: ['ACTIVE'],
  CLOSED: ['ACTIVE', 'FROZEN'],
};

export interface AccountOwner {
  platformId: string;
  /** Null: the platform's own accounts. */
  customerId: string | null;
  /** Customers with an email get an embedded wallet bound to it. */
  email?: string;
}

@Injectable()
export class InternalAccountsService {
  constructor(
    private readonly accounts: InternalAccountsRepository,
    private readonly currencies: CurrencyCatalog,
    private readonly customers: CustomersClient,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  async get(ctx: CallerContext, accountId: string): Promise<InternalAccountRecord> {
    const entity = await this.require(ctx.platformId, accountId);
    return toInternalAccountRecord(entity, await this.currencies.get(entity.currencyCode));
  }

  /**
   * PATCH /internal-accounts/{id}: a signed action of the wallet. Unknown account 404 and a
   * non-wallet 400 come before any challenge.
   */
  async updatePrivacy(ctx: CallerContext, request: UpdateInternalAccountPrivacyRequest): Promise<SignedRetryOutcome<InternalAccount>> {
    const current = await this.require(ctx.platformId, request.accountId);
    // privateEnabled is the only updatable field: an update without it would change nothing.
    const { privateEnabled } = request;
    if (privateEnabled === undefined) throw ServiceError.invalidField('privateEnabled', 'Give at least one field to update: privateEnabled');
    if (current.type !== 'EMBEDDED_WALLET') throw ServiceError.invalidField('privateEnabled', 'privateEnabled applies to EMBEDDED_WALLET accounts only');
    return signedAction(walletAuthOverTransport(this.services), ctx, { accountId: current.id, operation: 'WALLET_PRIVACY_UPDATE', input: request.signedRetry }, () =>
      this.setPrivacy(ctx, current.id, privateEnabled),
    );
  }

  private async setPrivacy(ctx: CallerContext, accountId: string, privateEnabled: boolean): Promise<InternalAccount> {
    const updated = await this.transactions.run(async (manager) => {
      if (!(await this.accounts.setPrivateEnabled(manager, ctx.platformId, accountId, privateEnabled))) {
        throw accountNotFound(accountId);
      }
      const entity = (await this.accounts.findById(ctx.platformId, accountId, manager))!;
      const record = toInternalAccountRecord(entity, await this.currencies.get(entity.currencyCode));
      await this.outbox.add(manager, { subject: PAYMENTS_EVENTS.internalAccountUpdated, platformId: ctx.platformId, resourceId: accountId, data: record });
      return entity;
    });
    return toInternalAccount(updated, await this.currencies.get(updated.currencyCode));
  }

  /**
   * Announces an account's balance as it stands inside the caller's transaction, which just moved
   * it: the event commits with the movement (INTERNAL_ACCOUNT.BALANCE_UPDATED).
   */
  async announceBalance(manager: EntityManager, platformId: string, accountId: string): Promise<void> {
    const entity = await this.accounts.findById(platformId, accountId, manager);
    if (!entity) return;
    await this.outbox.add(manager, {
      subject: PAYMENTS_EVENTS.internalAccountBalanceChanged,
      platformId,
      resourceId: accountId,
      webhookType: INTERNAL_ACCOUNT_WEBHOOK_TYPES.balanceUpdated,
      data: toInternalAccount(entity, await this.currencies.get(entity.currencyCode)),
    });
  }

  /** Keeps an embedded wallet's email equal to its customer's, announcing the change to wallet-auth. */
  async updateWalletEmail(platformId: string, customerId: string, email: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      for (const id of await this.accounts.setWalletEmail(manager, platformId, customerId, email.toLowerCase())) {
        const entity = (await this.accounts.findById(platformId, id, manager))!;
        const record = toInternalAccountRecord(entity, await this.currencies.get(entity.currencyCode));
        await this.outbox.add(manager, { subject: PAYMENTS_EVENTS.internalAccountUpdated, platformId, resourceId: id, data: record });
      }
    });
  }

  /**
   * Sandbox simulator: moves an account along the status table (ENTERED_FROM). The change and
   * its INTERNAL_ACCOUNT.STATUS_UPDATED event commit together; a refused change changes nothing.
   */
  async setStatus(ctx: CallerContext, accountId: string, status: InternalAccountTargetStatus): Promise<InternalAccount> {
    return this.transactions.run(async (manager) => {
      // Locked first, so that closing sees every movement committed before it and none lands after it.
      if (!(await this.accounts.lockStatus(manager, ctx.platformId, accountId, 'update'))) {
        throw accountNotFound(accountId);
      }
      if (!(await this.accounts.changeStatus(manager, ctx.platformId, accountId, ENTERED_FROM[status], status))) {
        throw await this.statusChangeRefusal(manager, ctx.platformId, accountId, status);
      }
      const entity = (await this.accounts.findById(ctx.platformId, accountId, manager))!;
      const account = toInternalAccount(entity, await this.currencies.get(entity.currencyCode));
      await this.outbox.add(manager, {
        subject: PAYMENTS_EVENTS.internalAccountStatusChanged,
        platformId: ctx.platformId,
        resourceId: accountId,
        webhookType: INTERNAL_ACCOUNT_WEBHOOK_TYPES.statusUpdated,
        data: account,
      });
      return account;
    });
  }

  /** Why the locked account did not move to `status`: the transition is not in the table, or the account is not empty. */
  private async statusChangeRefusal(manager: EntityManager, platformId: string, accountId: string, status: InternalAccountTargetStatus): Promise<ServiceError> {
    const current = (await this.accounts.findById(platformId, accountId, manager))!;
    if (!ENTERED_FROM[status].includes(current.status)) {
      const why = current.status === 'CLOSED' ? 'CLOSED is terminal' : `${status} cannot be entered from ${current.status}`;
      return new ServiceError('INVALID_STATE_TRANSITION', `Internal account ${accountId} is ${current.status}: ${why}`, { status: current.status, requestedStatus: status });
    }
    const details = {
      status: current.status,
      requestedStatus: status,
      postedAmount: amountToWire(current.posted),
      pendingHoldAmount: amountToWire(current.held),
      incomingTransferInFlight: await this.accounts.hasIncomingTransferInFlight(manager, platformId, accountId),
    };
    const reasons = [
      ...(current.posted !== 0n ? [`a balance of ${current.posted}`] : []),
      ...(current.held !== 0n ? [`pending holds of ${current.held}`] : []),
      ...(details.incomingTransferInFlight ? ['an incoming transfer in flight'] : []),
    ];
    return new ServiceError('INVALID_STATE_TRANSITION', `Internal account ${accountId} cannot be closed: it has ${reasons.join(', ')}`, details);
  }

  async require(platformId: string, accountId: string): Promise<InternalAccountWithBalance> {
    const entity = await this.accounts.findById(platformId, accountId);
    if (!entity) throw accountNotFound(accountId);
    return entity;
  }

  async list(ctx: CallerContext, request: ListInternalAccountsRequest): Promise<Page<InternalAccount>> {
    if (request.owner === 'PLATFORM') {
      // The platform's own accounts exist from its first look at them, in every supported currency.
      await this.provision(ctx.platformId, [{ customerId: null }], await this.customers.accountSettings(ctx));
    }
    const limit = pageLimit(request.limit);
    const filter = {
      owner: request.owner,
      customerId: request.owner === 'CUSTOMER' ? request.customerId : undefined,
      currency: request.currency,
      type: request.type,
    };
    const [rows, totalCount] = await Promise.all([
      this.accounts.list(ctx.platformId, { ...filter, beforeId: decodeCursor(request.cursor, INTERNAL_ACCOUNT_CURSOR), limit: limit + 1 }),
      this.accounts.count(ctx.platformId, filter),
    ]);
    const page = toPage(rows, limit, async (row) => toInternalAccount(row, await this.currencies.get(row.currencyCode)), INTERNAL_ACCOUNT_CURSOR);
    return { ...page, data: await Promise.all(page.data), totalCount };
  }

  /**
   * Gives each owner (customers of one platform, or the platform itself) a holding account per
   * supported currency (fiat or crypto by currency) and, for customers with an email on platforms
   * that support the wallet currency and keep embedded wallets enabled, an embedded wallet. A
   * batch of owners costs one statement for every account and ledger account and one for the
   * events: one `customer-accounts.provisioned` per customer that got accounts (or is owed none),
   * none per account. Idempotent: the (owner, currency, type) unique constraint decides, so a
   * repeat creates and announces nothing. Turning wallets off provisions no new ones; existing ones stay.
   */
  async provision(platformId: string, owners: Array<Omit<AccountOwner, 'platformId'>>, platform: PlatformAccountSettings): Promise<void> {
    const offered: Array<{ code: string; type: InternalAccountType }> = [];
    for (const code of new Set(platform.currencyCodes)) {
      const currency = await this.currencies.find(code);
      if (currency) offered.push({ code, type: currency.isCrypto ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT' });
    }
    const wanted: NewInternalAccount[] = [];
    // A customer owed no account at all (none of the platform's currencies is offered here) is ready as it is.
    const owedNone: string[] = [];
    for (const owner of owners) {
      const walletEmail = owner.customerId && owner.email && platform.embeddedWalletsEnabled ? owner.email.toLowerCase() : null;
      const accounts = offered.flatMap(({ code, type }) => [
        { currencyCode: code, type, walletEmail: null },
        ...(walletEmail && code === EMBEDDED_WALLET_CURRENCY ? [{ currencyCode: code, type: 'EMBEDDED_WALLET' as const, walletEmail }] : []),
      ]);
      if (accounts.length === 0 && owner.customerId) owedNone.push(owner.customerId);
      for (const account of accounts) {
        wanted.push({ ...account, id: newIdAvoidingSuffixes('InternalAccount', SANDBOX_INELIGIBLE_FUNDING_SUFFIXES), platformId, customerId: owner.customerId });
      }
    }
    if (wanted.length === 0 && owedNone.length === 0) return;
    await this.transactions.run(async (manager) => {
      const inserted = wanted.length > 0 ? await this.accounts.insertManyIfAbsent(manager, wanted) : [];
      const byCustomer = new Map<string, InternalAccountWithBalance[]>(owedNone.map((customerId) => [customerId, []]));
      for (const account of inserted) {
        if (account.customerId) byCustomer.set(account.customerId, [...(byCustomer.get(account.customerId) ?? []), account]);
      }
      await this.outbox.addMany(
        manager,
        [...byCustomer].map(([customerId, accounts]) => accountsProvisioned(platformId, customerId, accounts)),
      );
    });
  }
}

/** `payments.events.customer-accounts.provisioned` of a customer's accounts just created. */
function accountsProvisioned(platformId: string, customerId: string, inserted: InternalAccountWithBalance[]): NewEvent<typeof PAYMENTS_EVENTS.customerAccountsProvisioned> {
  const wallet = inserted.find((account) => account.type === 'EMBEDDED_WALLET');
  return {
    subject: PAYMENTS_EVENTS.customerAccountsProvisioned,
    platformId,
    resourceId: customerId,
    data: {
      customerId,
      accountIds: inserted.map((account) => account.id),
      ...(wallet ? { walletAccountId: wallet.id, walletEmail: wallet.walletEmail ?? undefined } : {}),
    },
  };
}
