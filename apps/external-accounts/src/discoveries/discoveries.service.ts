import { Injectable } from '@nestjs/common';
import { DiscoveryList, ListDiscoveriesQuery } from '@paykit/contracts';
import { DiscoveriesRepository } from './discoveries.repository';

@Injectable()
export class DiscoveriesService {
  constructor(private readonly discoveries: DiscoveriesRepository) {}

  async list(query: ListDiscoveriesQuery): Promise<DiscoveryList> {
    return { data: await this.discoveries.find({ country: query.country, currency: query.currency }) };
  }

  /** The accepted bankName values of a corridor (the create check uses the same data). */
  async bankNames(country: string, currency: string): Promise<string[]> {
    return (await this.discoveries.find({ country, currency })).map((entry) => entry.bankName);
  }
}
