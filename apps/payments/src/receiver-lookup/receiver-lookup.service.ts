import { Injectable } from '@nestjs/common';
import {
  amountToWire,
  CallerContext,
  CurrencyPreference,
  LookupExternalAccountReceiverRequest,
  LookupUmaReceiverRequest,
  newId,
  PayerDataFieldRequirement,
  ReceiverLookup,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SandboxRules } from '@paykit/runtime';
import { ExternalAccountsClient } from '../counterparties/external-accounts.client';
import { CurrencyCatalog, toCurrency } from '../currencies/currency-catalog';
import { ExchangeRatesService } from '../exchange-rates/exchange-rates.service';
import { RATE_SCALE, receivingFor } from '../exchange-rates/pricing';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { ResolvedDestination, UmaReceiverResolver } from '../quotes/use-cases/quote-parties';
import { SANDBOX_UMA_DOMAIN, sandboxUmaOutcomeKey, sandboxUmaReceiver } from './receiver-lookup.sandbox';
import { DirectoryEntry, ReceiverLookupRecord, ReceiverLookupRepository } from './receiver-lookup.repository';
import { parseUmaAddress } from './uma-address';

/** The sending currency estimates use when the sender has no account to tell. */
const DEFAULT_SENDING_CURRENCY = 'USD';

/** What a UMA receiver is: a sandbox counterparty, or a customer of this deployment with its accounts. */
type UmaReceiver =
  | { kind: 'SANDBOX'; address: string; currency: string; name: string; outcome: string | null }
  | { kind: 'CUSTOMER'; address: string; entry: DirectoryEntry; accounts: Array<{ id: string; currency: string }> };

/**
 * What a UMA receiver asks of the payer (its name and country for the receiving institution's
 * compliance); a quote naming the lookup needs each mandatory one, from the sending customer or
 * its `senderCustomerInfo`.
 */
const PAYER_DATA: PayerDataFieldRequirement[] = [
  { name: 'FULL_NAME', mandatory: true },
  { name: 'COUNTRY_OF_RESIDENCE', mandatory: true },
  { name: 'EMAIL', mandatory: false },
];
/** What a bank payout asks of the payer: the originator's name and address travel with a cross-border payment. */
const EXTERNAL_ACCOUNT_PAYER_DATA: PayerDataFieldRequirement[] = [
  { name: 'FULL_NAME', mandatory: true },
  { name: 'POSTAL_ADDRESS', mandatory: true },
];

/**
 * Who a receiver is and what it can receive: the sandbox UMA counterparties (sandbox callers
 * only), the UMA addresses of this deployment's customers (from the directory the customers'
 * events keep), and external accounts. Nothing calls the internet: any other address is not
 * found. Each lookup is kept, so a quote can name it by `lookupId`.
 */
@Injectable()
export class ReceiverLookupService implements UmaReceiverResolver {
  constructor(
    private readonly lookups: ReceiverLookupRepository,
    private readonly accounts: InternalAccountsRepository,
    private readonly externalAccounts: ExternalAccountsClient,
    private readonly rates: ExchangeRatesService,
    private readonly currencies: CurrencyCatalog,
    private readonly sandbox: SandboxRules,
  ) {}

  async lookupUma(ctx: CallerContext, request: LookupUmaReceiverRequest): Promise<ReceiverLookup> {
    const receiver = await this.umaReceiver(ctx, request.receiverUmaAddress, 'receiverUmaAddress');
    const sending = await this.sendingCurrency(ctx, request.customerId);
    const receivable = receiver.kind === 'SANDBOX' ? [receiver.currency] : [...new Set(receiver.accounts.map((a) => a.currency))];
    const lookupId = newId('LookupRequest');
    await this.lookups.insertLookup(ctx.platformId, lookupId, 'UMA_ADDRESS', receiver.address, PAYER_DATA);
    return { supportedCurrencies: await this.preferences(sending, receivable), requiredPayerDataFields: PAYER_DATA, lookupId, receiverUmaAddress: receiver.address };
  }

  async lookupExternalAccount(ctx: CallerContext, request: LookupExternalAccountReceiverRequest): Promise<ReceiverLookup> {
    const external = await this.externalAccounts.get(ctx, request.accountId);
    const sending = await this.sendingCurrency(ctx, request.customerId);
    const lookupId = newId('LookupRequest');
    await this.lookups.insertLookup(ctx.platformId, lookupId, 'EXTERNAL_ACCOUNT', external.id, EXTERNAL_ACCOUNT_PAYER_DATA);
    return {
      supportedCurrencies: await this.preferences(sending, [external.currency]),
      requiredPayerDataFields: EXTERNAL_ACCOUNT_PAYER_DATA,
      lookupId,
      accountId: external.id,
    };
  }

  /** The quote side: where a payment to `umaAddress` goes, in which currency. */
  async resolveForQuote(ctx: CallerContext, umaAddress: string, currency: string | undefined): Promise<ResolvedDestination> {
    const receiver = await this.umaReceiver(ctx, umaAddress, 'destination.umaAddress');
    if (receiver.kind === 'SANDBOX') {
      if (currency !== undefined && currency !== receiver.currency) {
        throw new ServiceError('INVALID_CURRENCY', `${receiver.address} receives ${receiver.currency} only`, {
          field: 'destination.currency',
          supportedCurrencies: [receiver.currency],
        });
      }
      return {
        kind: 'UMA_SANDBOX',
        currency: receiver.currency,
        accountId: null,
        umaAddress: receiver.address,
        sandboxOutcome: receiver.outcome,
        counterpartyInformation: { FULL_NAME: receiver.name },
      };
    }
    const account = currency === undefined ? receiver.accounts[0] : receiver.accounts.find((a) => a.currency === currency);
    if (!account) {
      throw new ServiceError('INVALID_CURRENCY', `${receiver.address} cannot receive ${currency ?? 'any currency'}`, {
        field: 'destination.currency',
        supportedCurrencies: receiver.accounts.map((a) => a.currency),
      });
    }
    return { kind: 'UMA_CUSTOMER', currency: account.currency, accountId: account.id, umaAddress: receiver.address, sandboxOutcome: null };
  }

  /** The caller's lookup `lookupId` (a quote naming it checks its receiver and required payer data). */
  findLookup(platformId: string, lookupId: string): Promise<ReceiverLookupRecord | undefined> {
    return this.lookups.findLookup(platformId, lookupId);
  }

  private async umaReceiver(ctx: CallerContext, value: string, field: string): Promise<UmaReceiver> {
    const address = parseUmaAddress(value, field);
    if (this.sandbox.applyTo(ctx)) {
      const sandbox = sandboxUmaReceiver(address);
      if (sandbox) return { kind: 'SANDBOX', address, currency: sandbox.currency, name: sandbox.name, outcome: sandboxUmaOutcomeKey(sandbox.behaviour) };
    }
    const entry = address.endsWith(`@${SANDBOX_UMA_DOMAIN}`) ? undefined : await this.lookups.findByAddress(ctx.platformId, address);
    if (!entry) throw new ServiceError('UMA_NOT_FOUND', `No receiver at ${address}`);
    const accounts = (await this.accounts.list(entry.platformId, { owner: 'CUSTOMER', customerId: entry.customerId, type: 'INTERNAL_FIAT', limit: 100 }))
      .filter((a) => a.status === 'ACTIVE')
      .sort((a, b) => (a.currencyCode === DEFAULT_SENDING_CURRENCY ? -1 : b.currencyCode === DEFAULT_SENDING_CURRENCY ? 1 : a.currencyCode.localeCompare(b.currencyCode)))
      .map((a) => ({ id: a.id, currency: a.currencyCode }));
    if (accounts.length === 0) throw new ServiceError('UMA_NOT_FOUND', `The receiver at ${address} has no account that can receive payments`);
    return { kind: 'CUSTOMER', address, entry, accounts };
  }

  /** The sender's currency: its customer's first fiat account (USD preferred), else USD. */
  private async sendingCurrency(ctx: CallerContext, customerId: string | undefined): Promise<string> {
    if (!customerId) return DEFAULT_SENDING_CURRENCY;
    const accounts = await this.accounts.list(ctx.platformId, { owner: 'CUSTOMER', customerId, type: 'INTERNAL_FIAT', limit: 100 });
    if (accounts.length === 0) throw new ServiceError('USER_NOT_FOUND', `Customer ${customerId} not found`, { field: 'customerId' });
    return accounts.some((a) => a.currencyCode === DEFAULT_SENDING_CURRENCY) ? DEFAULT_SENDING_CURRENCY : accounts[0].currencyCode;
  }

  /** Estimated rates and receivable range per currency the sender can reach from `sending`. */
  private async preferences(sending: string, receivable: string[]): Promise<CurrencyPreference[]> {
    const preferences: CurrencyPreference[] = [];
    for (const code of receivable) {
      const destination = await this.currencies.get(code);
      if (code === sending) {
        preferences.push({ currency: toCurrency(destination), estimatedExchangeRate: 1, min: 1, max: amountToWire(destination.maxTransferAmount) });
        continue;
      }
      const corridor = this.rates.destinationsFrom(sending).find((c) => c.destination === code);
      if (!corridor) continue;
      const source = await this.currencies.get(sending);
      const min = receivingFor(corridor, corridor.minSendingAmount, source.decimals, destination.decimals);
      preferences.push({
        currency: toCurrency(destination),
        estimatedExchangeRate: Number(corridor.rateMicros) / Number(RATE_SCALE),
        min: amountToWire(min > 0n ? min : 1n),
        max: amountToWire(receivingFor(corridor, corridor.maxSendingAmount, source.decimals, destination.decimals)),
      });
    }
    return preferences;
  }
}
