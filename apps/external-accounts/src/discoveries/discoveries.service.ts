import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryList, ListDiscoveriesQuery } from '@paykit/contracts';
import { TransactionRunner } from '@paykit/persistence';
import { EXTERNAL_ACCOUNTS_CONFIG, ExternalAccountsConfig } from '../config/external-accounts-config';
import { DiscoveriesRepository } from './discoveries.repository';

@Injectable()
export class DiscoveriesService implements OnApplicationBootstrap {
  constructor(
    private readonly discoveries: DiscoveriesRepository,
    private readonly transactions: TransactionRunner,
    @Inject(EXTERNAL_ACCOUNTS_CONFIG) private readonly config: ExternalAccountsConfig,
  ) {}

  /** An operator's DISCOVERY_DATA_FILE replaces the seeded sandbox lists (every start: the file is the source). */
  async onApplicationBootstrap(): Promise<void> {
    const entries = this.config.discoveryEntries;
    if (entries) await this.transactions.run((manager) => this.discoveries.replaceAll(manager, entries));
  }

  async list(query: ListDiscoveriesQuery): Promise<DiscoveryList> {
    return { data: await this.discoveries.find({ country: query.country, currency: query.currency }) };
  }

  /** The accepted bankName values of a corridor (the create check uses the same data). */
  async bankNames(country: string, currency: string): Promise<string[]> {
    return (await this.discoveries.find({ country, currency })).map((entry) => entry.bankName);
  }
}
