import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CUSTOMERS_SUBJECTS, CustomersPlatformConfig, MessageEnvelope, UpdatePlatformConfigRequest } from '@paykit/contracts';
import { CallerContextPipe, EnvelopePipe } from '@paykit/transport';
import { SandboxRules } from '@paykit/runtime';
import { PlatformConfigService } from './platform-config.service';

@Controller()
export class PlatformConfigHandlers {
  constructor(
    private readonly platformConfig: PlatformConfigService,
    private readonly sandbox: SandboxRules,
  ) {}

  @MessagePattern(CUSTOMERS_SUBJECTS.getConfig)
  get(@Payload(new CallerContextPipe()) { ctx }: MessageEnvelope<unknown>): Promise<CustomersPlatformConfig> {
    return this.platformConfig.get(ctx.platformId, this.sandbox.applyTo(ctx));
  }

  @MessagePattern(CUSTOMERS_SUBJECTS.updateConfig)
  update(@Payload(new EnvelopePipe(UpdatePlatformConfigRequest)) { ctx, payload }: MessageEnvelope<UpdatePlatformConfigRequest>): Promise<CustomersPlatformConfig> {
    return this.platformConfig.update(ctx.platformId, payload, this.sandbox.applyTo(ctx));
  }
}
