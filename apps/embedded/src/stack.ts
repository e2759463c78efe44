import { INestMicroservice } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { closePgliteHosts, pgliteHost } from '@paykit/persistence';
import { createServiceRuntime, Env, loadRuntimeConfig, RunMode, RuntimeConfig, ServiceName, ServiceRuntime, startServiceApp, startTracing } from '@paykit/runtime';
import { InProcessBroker } from '@paykit/transport';
import { CardsAppModule } from '../../cards/src/app.module';
import { CustomersAppModule } from '../../customers/src/app.module';
import { ExternalAccountsAppModule } from '../../external-accounts/src/app.module';
import { ensureSandboxCredentials, SandboxCredentials } from '../../gateway/src/auth/sandbox-credentials';
import { GatewayConfig, loadGatewayConfig } from '../../gateway/src/config/gateway-config';
import { createGatewayHttpApp } from '../../gateway/src/http/gateway-http-app';
import { PaymentsAppModule } from '../../payments/src/app.module';
import { WalletAuthAppModule } from '../../wallet-auth/src/app.module';
import { WebhooksAppModule } from '../../webhooks/src/app.module';

/**
 * Service apps in start order. Webhooks first: it is the durable consumer of everyone's
 * events and must be listening before any relay publishes.
 */
export const SERVICE_APPS = [
  ['webhooks', WebhooksAppModule],
  ['customers', CustomersAppModule],
  ['external-accounts', ExternalAccountsAppModule],
  ['payments', PaymentsAppModule],
  ['wallet-auth', WalletAuthAppModule],
  ['cards', CardsAppModule],
] as const;

export interface RunningStack {
  config: RuntimeConfig;
  gatewayConfig: GatewayConfig;
  http: NestFastifyApplication;
  /** The gateway's runtime: its client reaches every service (tests use it too). */
  runtime: ServiceRuntime;
  services: Map<ServiceName, INestMicroservice>;
  credentials?: SandboxCredentials;
  url: string;
  close(): Promise<void>;
}

/**
 * Every app of the product in one process: on the in-process transport with PGlite
 * (embedded), or on NATS with each service's own PostgreSQL database (distributed).
 * The same modules and handlers run either way.
 */
export async function startStack(mode: RunMode, env: Env = process.env): Promise<RunningStack> {
  const config = loadRuntimeConfig(env, mode, ['gateway', ...SERVICE_APPS.map(([name]) => name)]);
  const gatewayConfig = loadGatewayConfig(env);
  // Every app of this process traces as one service (once per process; off without an endpoint).
  startTracing('paykit', config);
  const broker = mode === 'embedded' ? new InProcessBroker() : undefined;
  // Opened before any app, so a data directory it cannot use stops the start with its reason (not an app's connection retries).
  if (mode === 'embedded') await pgliteHost(config.embeddedDataDir);
  const runtimes: ServiceRuntime[] = [];
  const services = new Map<ServiceName, INestMicroservice>();
  // Relays wait until every app's consumers are attached (see ServiceRuntime.eventsReady).
  let allStarted!: () => void;
  const eventsReady = new Promise<void>((resolve) => (allStarted = resolve));
  for (const [name, module] of SERVICE_APPS) {
    const runtime = { ...createServiceRuntime(config, name, { broker }), eventsReady };
    runtimes.push(runtime);
    services.set(name, await startServiceApp(name, module, runtime, { broker }));
  }
  const runtime = { ...createServiceRuntime(config, 'gateway', { broker }), eventsReady };
  runtimes.push(runtime);
  const http = await createGatewayHttpApp(runtime, gatewayConfig);
  await http.listen({ port: gatewayConfig.port, host: gatewayConfig.host });
  allStarted();
  const credentials = await ensureSandboxCredentials(http, gatewayConfig);
  const address = http.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : gatewayConfig.port;
  const host = gatewayConfig.host === '0.0.0.0' ? '127.0.0.1' : gatewayConfig.host;

  let closed = false;
  return {
    config,
    gatewayConfig: { ...gatewayConfig, port },
    http,
    runtime,
    services,
    credentials,
    url: `http://${host}:${port}`,
    async close() {
      if (closed) return;
      closed = true;
      await http.close();
      for (const [name] of [...SERVICE_APPS].reverse()) await services.get(name)?.close();
      for (const each of runtimes) {
        await each.client.close();
        await each.eventBus.close();
      }
      if (mode === 'embedded') await closePgliteHosts();
    },
  };
}
