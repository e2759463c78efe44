import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import {
  amountFromWire,
  amountToWire,
  basisPointsFromWire,
  CallerContext,
  EstimateWithdrawalFeeRequest,
  ListUmaProvidersQuery,
  ListVaspsQuery,
  UmaProvider,
  UmaProviderPage,
  VaspPage,
  WithdrawalFeeEstimate,
} from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { CursorKey, decodeCursor, pageLimit, toPage } from '@paykit/persistence';
import { ConfigError } from '@paykit/runtime';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config/payments-config';
import { CurrencyCatalog, toCurrency } from '../currencies/currency-catalog';
import { InternalAccountsRepository } from '../internal-accounts/internal-accounts.repository';
import { Directory, SANDBOX_DIRECTORY, UmaProviderEntry } from './directory.data';
import { accountNotFound } from '../internal-accounts/internal-accounts.errors';

/** Lists sorted by name page by the last name shown (only names the list has are valid cursors). */
function nameCursor(names: string[]): CursorKey<{ name: string }> {
  return { encode: (row) => row.name, decode: (key) => (names.includes(key) ? key : undefined) };
}

/**
 * The directory an operator can replace (DIRECTORY_FILE): UMA providers, VASPs and the network
 * fees crypto withdrawals are estimated with. Read once at start; a bad file stops the service.
 */
@Injectable()
export class DirectoryService implements OnModuleInit {
  private directory: Directory = SANDBOX_DIRECTORY;

  constructor(
    private readonly currencies: CurrencyCatalog,
    private readonly accounts: InternalAccountsRepository,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {}

  onModuleInit(): void {
    if (!this.config.directoryJson) return;
    const { source, text } = this.config.directoryJson;
    let parsed: Partial<Directory>;
    try {
      parsed = JSON.parse(text) as Partial<Directory>;
    } catch (error) {
      throw new ConfigError([`${source} is not valid JSON: ${(error as Error).message}`]);
    }
    const problems = (['umaProviders', 'vasps', 'networkFees'] as const).filter((key) => !Array.isArray(parsed[key])).map((key) => `${source} needs a "${key}" array`);
    if (problems.length > 0) throw new ConfigError(problems);
    this.directory = parsed as Directory;
  }

  async umaProviders(query: ListUmaProvidersQuery): Promise<UmaProviderPage> {
    const descending = query.sortOrder !== 'asc';
    const matching = this.directory.umaProviders
      .filter((p) => !query.countryCode || p.supportedRegions.includes(query.countryCode))
      .filter((p) => !query.currencyCode || p.supportedCurrencies.includes(query.currencyCode))
      .filter((p) => query.hasBlockedProviders === undefined || p.allowListStatus !== query.hasBlockedProviders)
      .sort((a, b) => (descending ? b.name.localeCompare(a.name) : a.name.localeCompare(b.name)));
    const key = nameCursor(matching.map((p) => p.name));
    const after = decodeCursor(query.cursor, key);
    const start = after === undefined ? 0 : matching.findIndex((p) => p.name === after) + 1;
    const limit = pageLimit(query.limit);
    const rows = matching.slice(start, start + limit + 1);
    const providers = await Promise.all(rows.map((row) => this.toProvider(row)));
    const page = toPage(providers, limit, (p) => p, key);
    return { ...page, totalCount: matching.length };
  }

  private async toProvider(entry: UmaProviderEntry): Promise<UmaProvider> {
    const currencies = [];
    for (const code of entry.supportedCurrencies) {
      const info = await this.currencies.find(code);
      if (info) currencies.push(toCurrency(info));
    }
    return {
      name: entry.name,
      supportedRegions: entry.supportedRegions,
      domain: entry.domain,
      ...(entry.logoUrl ? { logoUrl: entry.logoUrl } : {}),
      supportedCurrencies: currencies,
      ...(entry.lei ? { lei: entry.lei } : {}),
      allowListStatus: entry.allowListStatus,
    };
  }

  vasps(query: ListVaspsQuery): VaspPage {
    const sorted = [...this.directory.vasps].sort((a, b) => a.vaspName.localeCompare(b.vaspName));
    const key = nameCursor(sorted.map((v) => v.vaspName));
    const after = decodeCursor(query.cursor, key);
    const start = after === undefined ? 0 : sorted.findIndex((v) => v.vaspName === after) + 1;
    const limit = pageLimit(query.limit);
    const rows = sorted.slice(start, start + limit + 1).map((v) => ({ name: v.vaspName, vasp: v }));
    const page = toPage(rows, limit, (row) => ({ vaspName: row.vasp.vaspName, ...(row.vasp.url ? { url: row.vasp.url } : {}) }), key);
    return page;
  }

  /** The network's fee plus the service's fee on the amount (rounded up); the rest arrives. */
  async estimateWithdrawalFee(ctx: CallerContext, request: EstimateWithdrawalFeeRequest): Promise<WithdrawalFeeEstimate> {
    const account = await this.accounts.findById(ctx.platformId, request.internalAccountId);
    if (!account) throw accountNotFound(request.internalAccountId, { field: 'internalAccountId' });
    if (account.currencyCode !== request.currency) {
      throw new ServiceError('INVALID_CURRENCY', `Internal account ${account.id} holds ${account.currencyCode}, not ${request.currency}`, { field: 'currency' });
    }
    const network = this.directory.networkFees.find((f) => f.currency === request.currency && f.cryptoNetwork === request.cryptoNetwork.toUpperCase());
    if (!network) {
      const networks = this.directory.networkFees.filter((f) => f.currency === request.currency).map((f) => f.cryptoNetwork);
      throw ServiceError.invalidInput([
        { field: 'cryptoNetwork', message: `${request.currency} is withdrawn on ${networks.join(', ') || 'no network'}`, constraint: { enum: networks } },
      ]);
    }
    const amount = amountFromWire(request.amount);
    const networkFee = amountFromWire(network.networkFee);
    const applicationFee = (amount * basisPointsFromWire(network.applicationFeeBps) + 9_999n) / 10_000n;
    const totalFee = networkFee + applicationFee;
    if (totalFee >= amount) {
      throw new ServiceError('AMOUNT_OUT_OF_RANGE', `The fees (${totalFee}) take the whole amount`, { totalFee: amountToWire(totalFee) });
    }
    return {
      networkFee: amountToWire(networkFee),
      networkFeeAsset: network.networkFeeAsset,
      applicationFee: amountToWire(applicationFee),
      totalFee: amountToWire(totalFee),
      netAmount: amountToWire(amount - totalFee),
    };
  }
}
