import { DataSource } from 'typeorm';
import { ConfigError, createRootLogger, createServiceRuntime, loadRuntimeConfig, processReadinessChecks, registerProcessGauges, startProbes, startTracing } from '@paykit/runtime';
import { ensureSandboxCredentials } from './auth/sandbox-credentials';
import { loadGatewayConfig } from './config/gateway-config';
import { createGatewayHttpApp } from './http/gateway-http-app';
import { printCredentialsBanner } from './http/banner';

/** The gateway as its own process (distributed mode). */
async function main(): Promise<void> {
  let runtimeConfig, gatewayConfig;
  try {
    runtimeConfig = loadRuntimeConfig(process.env, 'distributed', ['gateway']);
    gatewayConfig = loadGatewayConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gateway: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createRootLogger({ level: runtimeConfig.logLevel }).child({ service: 'gateway' });
  const tracing = startTracing('gateway', runtimeConfig);
  // The same probe listener as every service (`HEALTH_PORT`); `/health` and `/ready` on the API
  // port stay what they were (`/ready`: every service answers).
  const probes = await startProbes(runtimeConfig, logger);
  const runtime = createServiceRuntime(runtimeConfig, 'gateway');
  const app = await createGatewayHttpApp(runtime, gatewayConfig);
  await app.listen({ port: gatewayConfig.port, host: gatewayConfig.host });
  const credentials = await ensureSandboxCredentials(app, gatewayConfig);
  probes?.running(processReadinessChecks({ runtime, dataSource: app.get(DataSource) }));
  registerProcessGauges('gateway', runtime, app.get(DataSource));
  logger.info({ port: gatewayConfig.port, mode: 'distributed' }, 'gateway ready');
  printCredentialsBanner(gatewayConfig, credentials);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    probes?.stopping();
    // Fastify stops accepting, answers the requests in flight, then the connections close.
    await app.close();
    await runtime.client.close();
    await runtime.eventBus.close();
    await tracing?.shutdown();
    await probes?.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

void main();
