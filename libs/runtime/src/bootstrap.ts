import { Controller, DynamicModule, INestMicroservice, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { HealthReply, HealthSubject } from '@paykit/contracts';
import {
  embeddedBroker,
  InProcessBroker,
  InProcessClient,
  InProcessEventBus,
  InProcessServer,
  JetStreamEventBus,
  MESSAGE_SCOPE,
  MessageLog,
  MessageScope,
  NatsClient,
  NatsServer,
  RpcErrorFilter,
  ServiceClient,
} from '@paykit/transport';
import { RuntimeConfig, ServiceName } from './config/runtime-config';
import { PinoNestLogger, rootLogger } from './logger';
import { processMetrics } from './metrics';
import { ServiceRuntime, ServiceRuntimeModule } from './service-runtime';

/** The subject every service answers for readiness checks (gateway `/ready`). */
export function healthSubject(service: ServiceName): HealthSubject {
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
    client: new ServiceClient(new NatsClient({ url: config.natsUrl, namespace: setup.namespace ?? config.natsNamespace, name: `${processName}-client` }), config.rpcTimeoutMs),
    eventBus: new JetStreamEventBus({
      url: config.natsUrl,
      namespace: setup.namespace ?? config.natsNamespace,
      connectionName: `${processName}-events`,
      stream: config.eventStream,
    }),
  };
}

/** A readiness handler for a service: answers once its database answers. */
function healthModule(service: ServiceName): DynamicModule {
  @Controller()
  class HealthHandlers {
    constructor(private readonly dataSource: DataSource) {}

    @MessagePattern(healthSubject(service))
    async check(): Promise<HealthReply> {
      await this.dataSource.query('SELECT 1');
      return { service, status: 'ok' };
    }
  }
  @Module({ controllers: [HealthHandlers] })
  class HealthModule {}
  return { module: HealthModule };
}

/**
 * Each handled message counted and timed per subject (`paykit_messages_total`,
 * `paykit_message_duration_seconds`), and at debug level one line carrying the gateway's request
 * id, so a request can be followed across services in the logs. Payloads are not logged (they
 * may hold secrets).
 */
function messageLog(service: ServiceName, logger: Logger): MessageLog {
  const debug = logger.isLevelEnabled('debug');
  return {
    handled: ({ subject, requestId, ms, code }) => {
      processMetrics.increment('paykit_messages_total', { service, subject, outcome: code ?? 'ok' });
      processMetrics.observe('paykit_message_duration_seconds', { service, subject }, ms / 1000);
      if (debug) logger.debug({ requestId, subject, ms: Math.round(ms), code }, code ? 'message refused' : 'message handled');
    },
  };
}

/**
 * Starts one service app (a Nest microservice) on the runtime's transport: in-process in
 * embedded mode, NATS with a queue group per service in distributed mode.
 */
export async function startServiceApp(service: ServiceName, appModule: Type | DynamicModule, runtime: ServiceRuntime, setup: TransportSetup = {}): Promise<INestMicroservice> {
  @Module({ imports: [ServiceRuntimeModule.forRoot(runtime), appModule, healthModule(service)] })
  class ServiceShellModule {}

  const logger = rootLogger().child({ service });
  const log = messageLog(service, logger);
  const strategy =
    runtime.config.mode === 'embedded'
      ? new InProcessServer(setup.broker ?? embeddedBroker, log)
      : new NatsServer({ url: runtime.config.natsUrl, namespace: setup.namespace ?? runtime.config.natsNamespace, queue: service, name: service }, log);
  const app = await NestFactory.createMicroservice(ServiceShellModule, { strategy, logger: new PinoNestLogger(logger) });
  app.useGlobalFilters(new RpcErrorFilter());
  strategy.useScope(messageScopeOf(app));
  await app.listen();
  if (strategy instanceof NatsServer) natsServers.set(app, strategy);
  return app;
}

/** The scope a service's modules provide for its requests (the persistence library's platform time), if any. */
function messageScopeOf(app: INestMicroservice): MessageScope | undefined {
  try {
    return app.get<MessageScope>(MESSAGE_SCOPE, { strict: false });
  } catch {
    return undefined;
  }
}

const natsServers = new WeakMap<INestMicroservice, NatsServer>();

/** The NATS connection a service app started by startServiceApp receives its requests on (distributed mode). */
export function requestServerOf(app: INestMicroservice): { ping(timeoutMs: number): Promise<void> } | undefined {
  return natsServers.get(app);
}
