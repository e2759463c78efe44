import { DynamicModule, Global, Module } from '@nestjs/common';
import { EVENT_BUS, EventBus, SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { RuntimeConfig } from './config/runtime-config';
import { SandboxRules } from './sandbox-rules';

export const RUNTIME_CONFIG = Symbol('RUNTIME_CONFIG');
/** Resolves when every consumer of this process's bus is listening; relays publish only then. */
export const EVENTS_READY = Symbol('EVENTS_READY');
export interface EventsReadyGate {
  whenReady: Promise<void>;
}

/**
 * What a process hands to each app it runs: validated configuration, the client to call
 * other services, and the event bus. Embedded and distributed modes differ only here.
 */
export interface ServiceRuntime {
  config: RuntimeConfig;
  client: ServiceClient;
  eventBus: EventBus;
  /**
   * Embedded mode starts every app before any relay publishes, so no in-process consumer
   * misses an event; in distributed mode JetStream keeps events for late consumers.
   */
  eventsReady?: Promise<void>;
}

@Global()
@Module({})
export class ServiceRuntimeModule {
  static forRoot(runtime: ServiceRuntime): DynamicModule {
    return {
      module: ServiceRuntimeModule,
      providers: [
        { provide: RUNTIME_CONFIG, useValue: runtime.config },
        { provide: SandboxRules, useValue: new SandboxRules(runtime.config.deployment) },
        { provide: SERVICE_CLIENT, useValue: runtime.client },
        { provide: EVENT_BUS, useValue: runtime.eventBus },
        // Wrapped: Nest would await a bare promise-valued provider and block the app's start.
        { provide: EVENTS_READY, useValue: { whenReady: runtime.eventsReady ?? Promise.resolve() } satisfies EventsReadyGate },
      ],
      exports: [RUNTIME_CONFIG, SandboxRules, SERVICE_CLIENT, EVENT_BUS, EVENTS_READY],
    };
  }
}
