import { Module } from '@nestjs/common';
import { externalAccountsConfigProvider } from '../config/external-accounts-config';
import { DiscoveriesHandlers } from './discoveries.handlers';
import { DiscoveriesRepository } from './discoveries.repository';
import { DiscoveriesService } from './discoveries.service';

@Module({
  controllers: [DiscoveriesHandlers],
  providers: [DiscoveriesService, DiscoveriesRepository, externalAccountsConfigProvider],
  exports: [DiscoveriesService],
})
export class DiscoveriesModule {}
