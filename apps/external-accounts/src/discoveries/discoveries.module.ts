import { Module } from '@nestjs/common';
import { DiscoveriesHandlers } from './discoveries.handlers';
import { DiscoveriesRepository } from './discoveries.repository';
import { DiscoveriesService } from './discoveries.service';

@Module({
  controllers: [DiscoveriesHandlers],
  providers: [DiscoveriesService, DiscoveriesRepository],
  exports: [DiscoveriesService],
})
export class DiscoveriesModule {}
