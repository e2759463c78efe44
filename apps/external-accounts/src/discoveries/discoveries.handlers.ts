import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DiscoveryList, EXTERNAL_ACCOUNTS_SUBJECTS, ListDiscoveriesQuery, MessageEnvelope } from '@paykit/contracts';
import { EnvelopePipe } from '@paykit/transport';
import { DiscoveriesService } from './discoveries.service';

@Controller()
export class DiscoveriesHandlers {
  constructor(private readonly discoveries: DiscoveriesService) {}

  @MessagePattern(EXTERNAL_ACCOUNTS_SUBJECTS.listDiscoveries)
  list(@Payload(new EnvelopePipe(ListDiscoveriesQuery)) { payload }: MessageEnvelope<ListDiscoveriesQuery>): Promise<DiscoveryList> {
    return this.discoveries.list(payload);
  }
}
