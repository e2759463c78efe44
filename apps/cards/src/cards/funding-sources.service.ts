import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CARD_ELIGIBLE_CURRENCIES, InternalAccountRecord, PAYMENTS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { isSandboxIneligibleFundingSource } from './cards.sandbox';

/**
 * Spec rule 6 of PATCH /cards/{id}: each source belongs to the cardholder, is in the
 * card-eligible currency and in the card's currency; otherwise 400 FUNDING_SOURCE_INELIGIBLE.
 * Asks the payments service (the owner of internal accounts); never inside a transaction.
 */
@Injectable()
export class FundingSourcesService {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly sandbox: SandboxRules,
  ) {}

  /** Returns the currency code the sources share. */
  async assertEligible(ctx: CallerContext, cardholderId: string, accountIds: string[], cardCurrency?: string): Promise<string> {
    // Sandbox binding table first: it needs no account to exist.
    accountIds.forEach((accountId, index) => {
      if (this.sandbox.applyTo(ctx) && isSandboxIneligibleFundingSource(accountId)) {
        throw ineligible(index, accountId, 'the issuer refused to bind this account');
      }
    });
    const accounts = await Promise.all(accountIds.map((accountId) => this.fetch(ctx, accountId)));
    let currency = cardCurrency;
    accounts.forEach((account, index) => {
      const accountId = accountIds[index];
      if (!account) throw ineligible(index, accountId, 'no such internal account');
      if (account.customerId !== cardholderId) throw ineligible(index, accountId, 'the account does not belong to the cardholder');
      if (!(CARD_ELIGIBLE_CURRENCIES as readonly string[]).includes(account.currencyCode)) {
        throw ineligible(index, accountId, `${account.currencyCode} is not a card-eligible currency (${CARD_ELIGIBLE_CURRENCIES.join(', ')})`);
      }
      currency ??= account.currencyCode;
      if (account.currencyCode !== currency) throw ineligible(index, accountId, `the account is in ${account.currencyCode}, the card in ${currency}`);
      if (account.status === 'CLOSED') throw ineligible(index, accountId, 'the account is closed');
    });
    return currency!;
  }

  private async fetch(ctx: CallerContext, accountId: string): Promise<InternalAccountRecord | undefined> {
    try {
      return await this.services.request(PAYMENTS_SUBJECTS.getInternalAccount, { accountId }, ctx);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) return undefined;
      throw error;
    }
  }
}

function ineligible(index: number, accountId: string, reason: string): ServiceError {
  return new ServiceError('FUNDING_SOURCE_INELIGIBLE', `Funding source ${accountId} is ineligible: ${reason}`, {
    field: `fundingSources[${index}]`,
    accountId,
    reason,
  });
}
