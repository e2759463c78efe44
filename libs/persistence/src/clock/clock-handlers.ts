import { Controller, DynamicModule, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AdvancePlatformClockRequest, ClockAdvanceSubject, MessageEnvelope, PlatformClockReply } from '@paykit/contracts';
import { ServiceName } from '@paykit/runtime';
import { EnvelopePipe } from '@paykit/transport';
import { Clock } from './clock';

/** The subject on which a service moves a platform's clock (the gateway fans each advance out to every service). */
export function clockAdvanceSubject(service: ServiceName): ClockAdvanceSubject {
  return `${service}.clock.advance`;
}

/** A service's handler of clock advances: stores the offset, runs what fell due, then answers. */
export function clockHandlersModule(service: ServiceName): DynamicModule {
  @Controller()
  class ClockHandlers {
    constructor(private readonly clock: Clock) {}

    @MessagePattern(clockAdvanceSubject(service))
    async advance(@Payload(new EnvelopePipe(AdvancePlatformClockRequest)) { ctx, payload }: MessageEnvelope<AdvancePlatformClockRequest>): Promise<PlatformClockReply> {
      return { offsetSeconds: await this.clock.advanceTo(ctx.platformId, payload.offsetSeconds) };
    }
  }
  @Module({ controllers: [ClockHandlers] })
  class ClockHandlersModule {}
  return { module: ClockHandlersModule };
}
