import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CUSTOMERS_SUBJECTS, CustomersPlatformConfig, MessageEnvelope, UpdatePlatformConfigRequest } from '@paykit/contracts';
import { CallerContextPipe, EnvelopePipe } from '@paykit/transport';
import { PlatformConfigService } from './platform-config.service';

@Controller()
export class PlatformConfigHandlers {
  constructor(private readonly platformConfig: PlatformConfigService) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.getConfig)
  get(@Payload(new CallerContextPipe()) { ctx }: MessageEnvelope<unknown>): Promise<CustomersPlatformConfig> {
    return this.platformConfig.get(ctx.platformId);
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.updateConfig)
  update(@Payload(new EnvelopePipe(UpdatePlatformConfigRequest)) { ctx, payload }: MessageEnvelope<UpdatePlatformConfigRequest>): Promise<CustomersPlatformConfig> {
    return this.platformConfig.update(ctx.platformId, payload);
  }
}
