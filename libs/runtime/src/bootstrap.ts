import { Controller, DynamicModule, INestMicroservice, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import {
  embeddedBroker,
  InProcessBroker,
  InProcessClient,
  InProcessEventBus,
  InProcessServer,
  JetStreamEventBus,
  NatsClient,
  NatsServer,
  RpcErrorFilter,
  ServiceClient,
} from '@paykit/transport';
import { RuntimeConfig, ServiceName } from './config/runtime-config';
import { PinoNestLogger, rootLogger } from './logger';
import { MessageLogInterceptor } from './message-log.interceptor';
import { ServiceRuntime, ServiceRuntimeModule } from './service-runtime';

/** The subject every service answers for readiness checks (gateway `/ready`). */
export function healthSubject(service: ServiceName): string {
  return `${service}.health.check`;
}

export interface TransportSetup {
  /** Embedded: the process's in-process broker. */
  broker?: InProcessBroker;
  /** Distributed: NATS subject namespace shared by one stack (empty in production). */
  namespace?: string;
}

/** Builds the client and event bus one process uses; embedded and distributed differ only here. */
export function createServiceRuntime(config: RuntimeConfig, processName: string, setup: TransportSetup = {}): ServiceRuntime {
  if (config.mode === 'embedded') {
    const broker = setup.broker ?? embeddedBroker;
    return {
      config,
      client: new ServiceClient(new InProcessClient(broker), config.rpcTimeoutMs),
      eventBus: new InProcessEventBus(broker),
    };
  }
  return {
    config,
    client: new ServiceClient(new NatsClient({ url: config.natsUrl, namespace: setup.namespace ?? config.natsNamespace, name: `${processName}-client` }, config.rpcTimeoutMs + 1000), config.rpcTimeoutMs),
    eventBus: new JetStreamEventBus({ url: config.natsUrl, namespace: setup.namespace ?? config.natsNamespace, connectionName: `${processName}-events` }),
  };
}

/** A readiness handler for a service: answers once its database answers. */
function healthModule(service: ServiceName): DynamicModule {
  @Controller()
  class HealthHandlers {
    constructor(private readonly dataSource: DataSource) {}

    @MessagePattern(healthSubject(service))
    async check(): Promise<{ service: string; status: string }> {
      await this.dataSource.query('SELECT 1');
      return { service, status: 'ok' };
    }
  }
  @Module({ controllers: [HealthHandlers] })
  class HealthModule {}
  return { module: HealthModule };
}

/**
 * Starts one service app (a Nest microservice) on the runtime's transport: in-process in
 * embedded mode, NATS with a queue group per service in distributed mode.
 */
export async function startServiceApp(
  service: ServiceName,
  appModule: Type | DynamicModule,
  runtime: ServiceRuntime,
  setup: TransportSetup = {},
): Promise<INestMicroservice> {
  @Module({ imports: [ServiceRuntimeModule.forRoot(runtime), appModule, healthModule(service)] })
  class ServiceShellModule {}

  const strategy =
    runtime.config.mode === 'embedded'
      ? new InProcessServer(setup.broker ?? embeddedBroker)
      : new NatsServer({ url: runtime.config.natsUrl, namespace: setup.namespace ?? runtime.config.natsNamespace, queue: service, name: service });
  const logger = rootLogger().child({ service });
  const app = await NestFactory.createMicroservice(ServiceShellModule, { strategy, logger: new PinoNestLogger(logger) });
  app.useGlobalFilters(new RpcErrorFilter());
  app.useGlobalInterceptors(new MessageLogInterceptor(logger));
  await app.listen();
  return app;
}
