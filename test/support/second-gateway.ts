import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { API_VERSION } from '@paykit/contracts';
import { createServiceRuntime } from '@paykit/runtime';
import { createGatewayHttpApp } from '../../apps/gateway/src/http/gateway-http-app';
import { TestStack } from './test-stack';

/** Another gateway replica of a distributed stack, on the same database and NATS. */
export interface SecondGateway {
  app: NestFastifyApplication;
  /** Its API base URL (with the version prefix). */
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * A second gateway process in all but name: its own runtime (NATS connection, database pool),
 * credential caches, invalidation listener and HTTP server, on a free port.
 */
export async function startSecondGateway(t: TestStack): Promise<SecondGateway> {
  const runtime = createServiceRuntime(t.stack.config, 'gateway');
  const app = await createGatewayHttpApp(runtime, { ...t.stack.gatewayConfig, port: 0 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/${API_VERSION}`;
  return {
    app,
    baseUrl,
    stop: async () => {
      await app.close();
      await runtime.client.close();
      await runtime.eventBus.close();
    },
  };
}
