import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { processMetrics } from './metrics';
import { ServiceRuntime } from './service-runtime';

/** One dependency a process needs to do its work; `run` rejects while it is not usable. */
export interface ReadinessCheck {
  name: string;
  run(timeoutMs: number): Promise<void>;
}

/** How long one check may take; the orchestrator's probe timeout must be longer (3 s in deploy/k8s). */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

export interface ProcessDependencies {
  runtime: ServiceRuntime;
  /** The process's own database. */
  dataSource: DataSource;
  /** The connection a service receives its requests on (the gateway has none). */
  server?: { ping(timeoutMs: number): Promise<void> };
}

/**
 * What every distributed process checks, gateway and services alike: each of its NATS connections
 * answers a ping (requests it sends, requests it receives, its event bus once connected), and its
 * own database answers a query. Nothing of another service is checked: a service that is down
 * makes its own pods unready, not its callers' (the gateway answers 503 for its routes meanwhile).
 */
export function processReadinessChecks({ runtime, dataSource, server }: ProcessDependencies): ReadinessCheck[] {
  return [
    {
      name: 'nats',
      // Bounded as a whole: connecting to an unreachable server may take longer than a ping.
      run: (timeoutMs) =>
        withTimeout(
          Promise.all([runtime.client.ping(timeoutMs), server?.ping(timeoutMs), runtime.eventBus.ping?.(timeoutMs)]),
          timeoutMs,
          `NATS did not answer within ${timeoutMs} ms`,
        ).then(() => undefined),
    },
    {
      name: 'database',
      run: (timeoutMs) => withTimeout(dataSource.query('SELECT 1'), timeoutMs, `the database did not answer within ${timeoutMs} ms`),
    },
  ];
}

type Phase = 'starting' | 'running' | 'stopping';

/**
 * The probe listener of one process (distributed mode, `HEALTH_PORT`): `GET /livez` answers 200
 * as long as the process's event loop turns; `GET /readyz` answers 200 when every readiness check
 * passes and 503 otherwise (naming what failed), while the process starts (migrations) and from
 * the moment it is asked to stop; `GET /metrics` answers the process's counters (`processMetrics`,
 * e.g. messages dead-lettered) in the Prometheus text format. Plain node:http on a port of its own, so a probe never waits
 * behind API traffic and the same code serves the gateway and every service.
 */
export class ProbeServer {
  private phase: Phase = 'starting';
  private checks: ReadinessCheck[] = [];

  private constructor(
    private readonly server: Server,
    private readonly logger?: Logger,
  ) {}

  static async start(port: number, logger?: Logger, host = '0.0.0.0'): Promise<ProbeServer> {
    const server = createServer();
    const probes = new ProbeServer(server, logger);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => void probes.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return probes;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The process is up: readiness now follows the checks. */
  running(checks: ReadinessCheck[]): void {
    this.checks = checks;
    this.phase = 'running';
  }

  /** The process is stopping: unready from now on, so no new work is routed to it. */
  stopping(): void {
    this.phase = 'stopping';
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Runs every check at once; answers each one's outcome by name. */
  async readiness(): Promise<{ ready: boolean; status: string; checks: Record<string, string> }> {
    if (this.phase !== 'running') return { ready: false, status: this.phase, checks: {} };
    const checks: Record<string, string> = {};
    await Promise.all(
      this.checks.map(async (check) => {
        try {
          await check.run(READINESS_CHECK_TIMEOUT_MS);
          checks[check.name] = 'ok';
        } catch (error) {
          checks[check.name] = (error as Error).message || String(error);
        }
      }),
    );
    const ready = Object.values(checks).every((outcome) => outcome === 'ok') && this.phase === 'running';
    return { ready, status: ready ? 'ready' : this.phase === 'running' ? 'unavailable' : this.phase, checks };
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/metrics') {
      response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'cache-control': 'no-store' });
      response.end(await processMetrics.render());
      return;
    }
    if (request.method !== 'GET' || (path !== '/livez' && path !== '/readyz')) return send(response, 404, { status: 'not found' });
    if (path === '/livez') return send(response, 200, { status: 'ok' });
    const { ready, status, checks } = await this.readiness();
    if (!ready && this.phase === 'running') this.logger?.warn({ checks }, 'not ready');
    send(response, ready ? 200 : 503, { status, checks });
  }
}

function send(response: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
