import { DynamicModule, Global, Module } from '@nestjs/common';
import { EVENT_BUS, EventBus, SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { RuntimeConfig } from './config/runtime-config';

export const RUNTIME_CONFIG = Symbol('RUNTIME_CONFIG');

/**
 * What a process hands to each app it runs: validated configuration, the client to call
 * other services, and the event bus. Embedded and distributed modes differ only here.
 */
export interface ServiceRuntime {
  config: RuntimeConfig;
  client: ServiceClient;
  eventBus: EventBus;
}

@Global()
@Module({})
export class ServiceRuntimeModule {
  static forRoot(runtime: ServiceRuntime): DynamicModule {
    return {
      module: ServiceRuntimeModule,
      providers: [
        { provide: RUNTIME_CONFIG, useValue: runtime.config },
        { provide: SERVICE_CLIENT, useValue: runtime.client },
        { provide: EVENT_BUS, useValue: runtime.eventBus },
      ],
      exports: [RUNTIME_CONFIG, SERVICE_CLIENT, EVENT_BUS],
    };
  }
}
