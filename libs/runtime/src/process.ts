import { DynamicModule, Type } from '@nestjs/common';
import { ConfigError, loadRuntimeConfig, ServiceName } from './config/runtime-config';
import { createRootLogger } from './logger';
import { createServiceRuntime, startServiceApp } from './bootstrap';

/**
 * Entry point of one service as its own process (distributed mode): validated config,
 * NATS transport, its own PostgreSQL database, graceful shutdown on SIGTERM/SIGINT.
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
  const runtime = createServiceRuntime(config, service);
  const app = await startServiceApp(service, appModule, runtime);
  logger.info({ mode: 'distributed' }, `${service} ready`);
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${service} stopping`);
    await app.close();
    await runtime.client.close();
    await runtime.eventBus.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
