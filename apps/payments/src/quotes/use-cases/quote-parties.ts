import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CreateQuoteMessage, CustomerInfoFieldName, PayerDataFieldRequirement } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SandboxRules } from '@paykit/runtime';
import { ExternalAccountsClient } from '../../counterparties/external-accounts.client';
import { CurrencyCatalog } from '../../currencies/currency-catalog';
import { InternalAccountWithBalance } from '../../internal-accounts/entities/internal-account.entity';
import { accountNotActive, accountNotFound } from '../../internal-accounts/internal-accounts.errors';
import { InternalAccountsRepository } from '../../internal-accounts/internal-accounts.repository';
import { InternalAccountsService } from '../../internal-accounts/internal-accounts.service';
import { QuoteDestinationKind } from '../entities/quote.entity';

/** Where a quote pays, once resolved (before pricing). */
export interface ResolvedDestination {
  kind: QuoteDestinationKind;
  currency: string;
  accountId: string | null;
  umaAddress: string | null;
  /** The sandbox outcome key, for sandbox callers paying an external account. */
  sandboxOutcome: string | null;
  counterpartyInformation?: Record<string, unknown>;
}

/** A receiver lookup a quote names by `lookupId`: its receiver (UMA address or external account id) and the payer data it asks for. */
export interface QuoteLookup {
  kind: 'UMA_ADDRESS' | 'EXTERNAL_ACCOUNT';
  target: string;
  requiredPayerDataFields: PayerDataFieldRequirement[];
}

/** Resolves UMA receivers and kept lookups for quotes (the receiver-lookup feature provides it). */
export interface UmaReceiverResolver {
  resolveForQuote(ctx: CallerContext, umaAddress: string, currency: string | undefined): Promise<ResolvedDestination>;
  findLookup(platformId: string, lookupId: string): Promise<QuoteLookup | undefined>;
}
export const UMA_RECEIVER_RESOLVER = Symbol('UMA_RECEIVER_RESOLVER');

/** What a quote pays from, once resolved. */
export interface ResolvedSource {
  /** ACCOUNT sources: the account debited. */
  account: InternalAccountWithBalance | null;
  /** REALTIME_FUNDING sources: the account the payment is recorded against. */
  fundingAccountId: string | null;
  currency: string;
  customerId: string | null;
}

/** Who a new quote pays from and to: its source, its destination and the receiver lookup it names. */
@Injectable()
export class QuoteParties {
  constructor(
    private readonly accounts: InternalAccountsRepository,
    private readonly internalAccounts: InternalAccountsService,
    private readonly currencies: CurrencyCatalog,
    private readonly externalAccounts: ExternalAccountsClient,
    @Inject(UMA_RECEIVER_RESOLVER) private readonly umaReceivers: UmaReceiverResolver,
    private readonly sandbox: SandboxRules,
  ) {}

  findLookup(platformId: string, lookupId: string): Promise<QuoteLookup | undefined> {
    return this.umaReceivers.findLookup(platformId, lookupId);
  }

  async source(ctx: CallerContext, request: CreateQuoteMessage): Promise<ResolvedSource> {
    const resolved = await this.sourceOf(ctx, request);
    // An agent pays from its customer's money only: any other source is unknown to it.
    if (ctx.agent && resolved.customerId !== ctx.agent.customerId) {
      throw request.source.sourceType === 'REALTIME_FUNDING'
        ? unknownSourceCustomer(request.source.customerId!)
        : accountNotFound(request.source.accountId!, { field: 'source.accountId' });
    }
    return resolved;
  }

  private async sourceOf(ctx: CallerContext, request: CreateQuoteMessage): Promise<ResolvedSource> {
    const source =
      ctx.agent && request.source.sourceType === 'REALTIME_FUNDING' ? { ...request.source, customerId: request.source.customerId ?? ctx.agent.customerId } : request.source;
    if (source.sourceType === 'REALTIME_FUNDING') {
      const currency = source.currency!;
      if (!(await this.currencies.find(currency))) throw new ServiceError('INVALID_CURRENCY', `Unknown currency ${currency}`, { field: 'source.currency' });
      // The funds arrive from outside; the transaction is recorded against the payer customer's account in that currency, or the platform's.
      const [record] = source.customerId
        ? await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId: source.customerId, currency, limit: 1 })
        : (await this.internalAccounts.list(ctx, { owner: 'PLATFORM', currency, limit: 1 })).data;
      if (!record && source.customerId) {
        // No account in any currency: not a customer of the platform (the reference declares 400, not 404, for POST /quotes).
        const [anyAccount] = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId: source.customerId, limit: 1 });
        if (!anyAccount) throw unknownSourceCustomer(source.customerId);
      }
      if (!record) {
        throw new ServiceError('INVALID_CURRENCY', `${source.customerId ?? 'The platform'} has no ${currency} account to record a real-time funded payment against`, {
          field: 'source.currency',
        });
      }
      return { account: null, fundingAccountId: record.id, currency, customerId: source.customerId ?? null };
    }
    const account = await this.accounts.findById(ctx.platformId, source.accountId!);
    if (!account) throw accountNotFound(source.accountId!, { field: 'source.accountId' });
    if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
    if (source.customerId !== undefined && source.customerId !== account.customerId) {
      throw new ServiceError('COUNTERPARTY_NOT_ALLOWED', `Internal account ${account.id} does not belong to customer ${source.customerId}`, { field: 'source.customerId' });
    }
    return { account, fundingAccountId: null, currency: account.currencyCode, customerId: account.customerId };
  }

  async destination(ctx: CallerContext, request: CreateQuoteMessage, sourceCustomerId: string | null): Promise<ResolvedDestination> {
    const { destination } = request;
    if (destination.destinationType === 'UMA_ADDRESS') return this.umaReceivers.resolveForQuote(ctx, destination.umaAddress!, destination.currency);
    const accountId = destination.accountId!;
    if (accountId.startsWith('InternalAccount:')) {
      const account = await this.accounts.findById(ctx.platformId, accountId);
      if (!account) throw accountNotFound(accountId, { field: 'destination.accountId' });
      if (account.status !== 'ACTIVE') throw accountNotActive(account.id, account.status);
      return { kind: 'INTERNAL_ACCOUNT', currency: account.currencyCode, accountId: account.id, umaAddress: null, sandboxOutcome: null };
    }
    const external = await this.externalAccounts.get(ctx, accountId);
    // A customer pays its own beneficiaries or the platform's accounts; never another customer's.
    if (external.customerId !== undefined && sourceCustomerId !== null && external.customerId !== sourceCustomerId) {
      throw new ServiceError('COUNTERPARTY_NOT_ALLOWED', `External account ${external.id} belongs to another customer`, { field: 'destination.accountId' });
    }
    if (!external.routing.canReceivePayments) {
      throw new ServiceError('INVALID_BANK_ACCOUNT', `External account ${external.id} is ${external.status}; only ACTIVE accounts can be paid`, { status: external.status });
    }
    return {
      kind: 'EXTERNAL_ACCOUNT',
      currency: external.currency,
      accountId: external.id,
      umaAddress: null,
      sandboxOutcome: this.sandbox.applyTo(ctx) ? external.routing.primaryIdentifierLast3 : null,
    };
  }
}

/** A quote naming a lookup must name one of the caller's, made for the receiver it pays (a UMA address or an external account). */
export function assertLookupOf(lookupId: string | undefined, lookup: QuoteLookup | undefined, destination: ResolvedDestination): void {
  if (lookupId === undefined) return;
  const target = destination.kind === 'EXTERNAL_ACCOUNT' ? destination.accountId : destination.umaAddress;
  if (!lookup || lookup.target !== target) {
    throw new ServiceError('LOOKUP_REQUEST_NOT_FOUND', `Lookup ${lookupId} not found for ${target ?? destination.accountId}`, { field: 'lookupId' });
  }
}

/**
 * The mandatory payer data a quote's lookup asked for that `senderCustomerInfo` does not give:
 * the sending customer must have each (checked by the customers service with its readiness).
 */
export function payerDataToCheck(lookup: QuoteLookup | undefined, senderCustomerInfo: Record<string, unknown> | undefined): CustomerInfoFieldName[] {
  if (!lookup) return [];
  const given = (name: string) => senderCustomerInfo?.[name] !== undefined && senderCustomerInfo[name] !== null && senderCustomerInfo[name] !== '';
  return lookup.requiredPayerDataFields.filter((field) => field.mandatory && !given(field.name)).map((field) => field.name);
}

/** A customer named in the quote's source that is not the caller's to use: 400 naming the field (POST /quotes declares no 404). */
export function unknownSourceCustomer(customerId: string): ServiceError {
  return ServiceError.unknownReference('source.customerId', `Customer ${customerId} not found`);
}
