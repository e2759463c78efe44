import { Injectable } from '@nestjs/common';
import { CallerContext, ExternalAccountWithRouting, StablecoinOperationDestination } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { ExternalAccountsClient } from '../../counterparties/external-accounts.client';
import { InternalAccountWithBalance } from '../../internal-accounts/entities/internal-account.entity';
import { accountNotActive, accountNotFound } from '../../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { NEW_MOVEMENT_STATUSES } from '../../ledger/ledger.service';
import { StablecoinRow } from '../stablecoins.repository';

/** The accounts a mint or a burn pays from and to, checked before anything is written. */
@Injectable()
export class OperationParties {
  constructor(
    private readonly externalAccounts: ExternalAccountsClient,
    private readonly accounts: InternalAccountsRepository,
  ) {}

  /** A mint's destination: an internal account in the coin, or a Lightning external wallet. */
  async mintDestination(ctx: CallerContext, coin: StablecoinRow, accountId: string): Promise<StablecoinOperationDestination> {
    if (accountId.startsWith('InternalAccount:')) {
      return { accountId: (await this.internalAccount(ctx, accountId, coin.currency!, 'destination.accountId')).id };
    }
    if (accountId.startsWith('ExternalAccount:')) {
      const account = await this.externalAccounts.get(ctx, accountId);
      if (account.accountInfo.accountType !== 'LIGHTNING' && account.routing.network !== 'LIGHTNING') {
        throw ServiceError.invalidField(
          'destination.accountId',
          `External account ${account.id} is ${account.accountInfo.accountType}: minted coins go to a Lightning wallet (LIGHTNING)`,
        );
      }
      if (!account.routing.canReceivePayments) throw ServiceError.invalidField('destination.accountId', `External account ${account.id} is ${account.status}, not ACTIVE`);
      return { accountId: account.id };
    }
    throw ServiceError.invalidField('destination.accountId', 'destination.accountId must be an InternalAccount: or ExternalAccount: id');
  }

  async bankAccount(ctx: CallerContext, id: string, currency: string, field: string): Promise<ExternalAccountWithRouting> {
    const account = await this.externalAccounts.get(ctx, id);
    if (account.currency !== currency || account.routing.network !== undefined) {
      throw ServiceError.invalidField(field, `External account ${account.id} holds ${account.currency}: this operation needs a ${currency} bank account`);
    }
    if (!account.routing.canReceivePayments) throw ServiceError.invalidField(field, `External account ${account.id} is ${account.status}, not ACTIVE`);
    return account;
  }

  async internalAccount(ctx: CallerContext, id: string, currency: string, field: string): Promise<InternalAccountWithBalance> {
    const account = await this.accounts.findById(ctx.platformId, id);
    if (!account) throw accountNotFound(id);
    if (account.currencyCode !== currency) throw new ServiceError('INVALID_CURRENCY', `Internal account ${id} holds ${account.currencyCode}, not ${currency}`, { field });
    if (!NEW_MOVEMENT_STATUSES.includes(account.status)) throw accountNotActive(id, account.status);
    return account;
  }
}
