import { DynamicModule, Type } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ConfigError, loadRuntimeConfig, RuntimeConfig, ServiceName } from './config/runtime-config';
import { createRootLogger } from './logger';
import { createServiceRuntime, requestServerOf, startServiceApp } from './bootstrap';
import { ProbeServer, processReadinessChecks } from './probes';
import { startTracing } from './tracing';
import { processMetrics } from './metrics';
import { ServiceRuntime } from './service-runtime';

/**
 * The probe listener of a distributed process, when `HEALTH_PORT` is set: started before the app,
 * so liveness holds while migrations run and readiness says `starting` until the app is up.
 */
export async function startProbes(config: RuntimeConfig, logger: Logger): Promise<ProbeServer | undefined> {
  if (config.healthPort === undefined) return undefined;
  const probes = await ProbeServer.start(config.healthPort, logger);
  logger.debug({ port: probes.port }, 'probes listening (/livez, /readyz)');
  return probes;
}

/**
 * The gauges every distributed process serves at `/metrics`, read at each scrape: the lag of
 * each JetStream consumer it runs and the due jobs waiting in its database. Every replica reports
 * the same figures (they are the server's and the database's): read them with max(), not sum().
 */
export function registerProcessGauges(service: ServiceName, runtime: ServiceRuntime, dataSource: DataSource): void {
  processMetrics.gauge('paykit_consumer_pending_messages', async () =>
    ((await runtime.eventBus.consumerLag?.()) ?? []).map(({ consumer, pending }) => ({ labels: { service, consumer }, value: pending })),
  );
  processMetrics.gauge('paykit_scheduled_jobs_due', async () => {
    const [row]: Array<{ due: number }> = await dataSource.query(`SELECT count(*)::int AS due FROM scheduled_job WHERE status IN ('PENDING', 'RUNNING') AND run_at <= now()`);
    return [{ labels: { service }, value: row.due }];
  });
}

/**
 * Entry point of one service as its own process (distributed mode): validated config,
 * NATS transport, its own PostgreSQL database, probes, graceful shutdown on SIGTERM/SIGINT.
 */
export async function runServiceProcess(service: ServiceName, appModule: Type | DynamicModule): Promise<void> {
  let config;
  try {
    config = loadRuntimeConfig(process.env, 'distributed', [service]);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${service}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createRootLogger({ level: config.logLevel }).child({ service });
  // Before the app, so its database client is instrumented from the first statement.
  const tracing = startTracing(service, config);
  const probes = await startProbes(config, logger);
  const runtime = createServiceRuntime(config, service);
  const app = await startServiceApp(service, appModule, runtime);
  probes?.running(processReadinessChecks({ runtime, dataSource: app.get(DataSource), server: requestServerOf(app) }));
  registerProcessGauges(service, runtime, app.get(DataSource));
  logger.info({ mode: 'distributed' }, `${service} ready`);
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    probes?.stopping();
    logger.info({ signal }, `${service} stopping`);
    // In-flight messages finish, relays and schedulers finish their pass, consumers give back what they hold.
    await app.close();
    await runtime.client.close();
    await runtime.eventBus.close();
    await tracing?.shutdown();
    await probes?.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
