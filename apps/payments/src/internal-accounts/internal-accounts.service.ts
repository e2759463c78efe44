import { Injectable } from '@nestjs/common';
import {
  CallerContext,
  DEFAULT_PAGE_LIMIT,
  InternalAccount,
  InternalAccountRecord,
  InternalAccountType,
  ListInternalAccountsRequest,
  newId,
  Page,
  PAYMENTS_EVENTS,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, Outbox, TransactionRunner } from '@paykit/persistence';
import { CustomersClient } from '../counterparties/customers.client';
import { CurrencyCatalog } from '../currencies/currency-catalog';
import { decodeCursor, encodeCursor } from '../ledger/amounts';
import { LedgerRepository } from '../ledger/ledger.repository';
import { InternalAccountWithBalance } from './entities/internal-account.entity';
import { toInternalAccount, toInternalAccountRecord } from './internal-account.mapper';
import { InternalAccountsRepository } from './internal-accounts.repository';

/** Embedded wallets hold this currency; a platform enables them by supporting it. */
export const EMBEDDED_WALLET_CURRENCY = 'USDC';

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
    private readonly ledger: LedgerRepository,
    private readonly currencies: CurrencyCatalog,
    private readonly customers: CustomersClient,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
  ) {}

  async get(ctx: CallerContext, accountId: string): Promise<InternalAccountRecord> {
    const entity = await this.require(ctx.platformId, accountId);
    return toInternalAccountRecord(entity, await this.currencies.get(entity.currencyCode));
  }

  /** PATCH /internal-accounts/{id} (a signed action: the gateway applies it after the signed retry). */
  async updatePrivacy(ctx: CallerContext, accountId: string, privateEnabled: boolean): Promise<InternalAccount> {
    const current = await this.require(ctx.platformId, accountId);
    if (current.type !== 'EMBEDDED_WALLET') throw ServiceError.invalidField('privateEnabled', 'privateEnabled applies to EMBEDDED_WALLET accounts only');
    const updated = await this.transactions.run(async (manager) => {
      if (!(await this.accounts.setPrivateEnabled(manager, ctx.platformId, accountId, privateEnabled))) {
        throw new ServiceError('ACCOUNT_NOT_FOUND', `Internal account ${accountId} not found`);
      }
      const entity = (await this.accounts.findById(ctx.platformId, accountId, manager))!;
      const record = toInternalAccountRecord(entity, await this.currencies.get(entity.currencyCode));
      await this.outbox.add(manager, { subject: PAYMENTS_EVENTS.internalAccountUpdated, platformId: ctx.platformId, resourceId: accountId, data: record });
      return entity;
    });
    return toInternalAccount(updated, await this.currencies.get(updated.currencyCode));
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

  async require(platformId: string, accountId: string): Promise<InternalAccountWithBalance> {
    const entity = await this.accounts.findById(platformId, accountId);
    if (!entity) throw new ServiceError('ACCOUNT_NOT_FOUND', `Internal account ${accountId} not found`);
    return entity;
  }

  async list(ctx: CallerContext, request: ListInternalAccountsRequest): Promise<Page<InternalAccount>> {
    if (request.owner === 'PLATFORM') {
      // The platform's own accounts exist from its first look at them, in every supported currency.
      await this.provision({ platformId: ctx.platformId, customerId: null }, await this.customers.supportedCurrencies(ctx));
    }
    const limit = request.limit ?? DEFAULT_PAGE_LIMIT;
    const rows = await this.accounts.list(ctx.platformId, {
      owner: request.owner,
      customerId: request.owner === 'CUSTOMER' ? request.customerId : undefined,
      currency: request.currency,
      type: request.type,
      beforeId: decodeCursor(request.cursor),
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const data = await Promise.all(page.map(async (row) => toInternalAccount(row, await this.currencies.get(row.currencyCode))));
    return { data, hasMore: rows.length > limit, ...(rows.length > limit ? { nextCursor: encodeCursor(page[page.length - 1].id) } : {}) };
  }

  /**
   * Gives an owner a holding account per supported currency (fiat or crypto by currency)
   * and, for customers with an email on platforms supporting the wallet currency, an
   * embedded wallet. Idempotent: the (owner, currency, type) unique constraint decides.
   */
  async provision(owner: AccountOwner, currencyCodes: string[]): Promise<void> {
    const wanted: Array<{ currency: string; type: InternalAccountType }> = [];
    for (const code of new Set(currencyCodes)) {
      const currency = await this.currencies.find(code);
      if (!currency) continue;
      wanted.push({ currency: code, type: currency.isCrypto ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT' });
      if (owner.customerId && owner.email && code === EMBEDDED_WALLET_CURRENCY) wanted.push({ currency: code, type: 'EMBEDDED_WALLET' });
    }
    const existing = await this.accounts.ownedKeys(owner.platformId, owner.customerId);
    const missing = wanted.filter((want) => !existing.has(`${want.currency}|${want.type}`));
    if (missing.length === 0) return;
    try {
      await this.transactions.run(async (manager) => {
        for (const want of missing) {
          const id = newId('InternalAccount');
          const inserted = await this.accounts.insertIfAbsent(manager, {
            id,
            platformId: owner.platformId,
            customerId: owner.customerId,
            type: want.type,
            currencyCode: want.currency,
            walletEmail: want.type === 'EMBEDDED_WALLET' ? owner.email!.toLowerCase() : null,
          });
          if (!inserted) continue;
          await this.ledger.createHoldingAccount(manager, owner.platformId, id, want.currency);
          const entity = (await this.accounts.findById(owner.platformId, id, manager))!;
          await this.outbox.add(manager, {
            subject: PAYMENTS_EVENTS.internalAccountCreated,
            platformId: owner.platformId,
            resourceId: id,
            data: toInternalAccountRecord(entity, await this.currencies.get(want.currency)),
          });
        }
      });
    } catch (error) {
      // A concurrent provisioning of the same owner won the race: its accounts are the ones.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}
