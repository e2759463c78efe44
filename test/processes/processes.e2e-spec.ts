import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { DistributedResources } from '@paykit/testing';
import { NatsClient, ServiceClient } from '@paykit/transport';
import { fundedPayerWithMxnPayee } from '../support/payments-fixtures';
import { ApiClient } from '../support/api-client';
import { checkResponsesAgainstServedDocument } from '../support/openapi-conformance';
import { UNREACHED_RATE_LIMITS, advanceClock, eventually, migratedDistributedResources } from '../support/test-stack';

const ROOT = join(__dirname, '..', '..');
const SERVICES = ['webhooks', 'customers', 'external-accounts', 'payments', 'wallet-auth', 'cards'];
const PORT = 18180 + Math.floor(Math.random() * 500);

/** One span as an OTLP/HTTP JSON export carries it, with the process (service.name) that sent it. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/**
 * A stand-in OpenTelemetry Collector on loopback: keeps every span the processes export
 * (OTLP/HTTP, JSON), and every webhook the platform receives.
 */
class TelemetrySink {
  readonly spans: ExportedSpan[] = [];
  readonly webhooks: string[] = [];
  private readonly server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (request.url === '/v1/traces') this.keep(JSON.parse(body) as OtlpExport);
      else this.webhooks.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }

  private keep(exported: OtlpExport): void {
    for (const { resource, scopeSpans } of exported.resourceSpans ?? []) {
      const service = resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value?.stringValue ?? '?';
      for (const { spans } of scopeSpans ?? []) for (const span of spans ?? []) this.spans.push({ service, ...span });
    }
  }
}

type OtlpExport = {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value?: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<Omit<ExportedSpan, 'service'>> }>;
  }>;
};

/** The real deployment shape: every app its own process, from the compiled build. */
describe('Distributed deployment: one process per app', () => {
  let resources: DistributedResources;
  const processes = new Map<string, ChildProcess>();
  const credentials = { tokenId: 'tok_processes0001', secret: randomBytes(32).toString('base64url') };
  const api = new ApiClient(`http://127.0.0.1:${PORT}/2025-10-13`, credentials);
  let env: Record<string, string>;
  let stopChecking: (() => void) | undefined;
  // Every process traces, exporting to this stand-in collector (docs/operating.md).
  const sink = new TelemetrySink();

  function start(app: string, extra: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', app, 'src', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, ...env, ...extra },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    processes.set(app, child);
    return child;
  }

  async function stop(app: string): Promise<void> {
    const child = processes.get(app);
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  beforeAll(async () => {
    resources = await migratedDistributedResources();
    await sink.start();
    env = { ...resources.env, LOG_LEVEL: 'warn', SANDBOX_TIME_SCALE: '0.001', ...UNREACHED_RATE_LIMITS, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url };
    for (const service of SERVICES) start(service);
    start('gateway', { PORT: String(PORT), HOST: '127.0.0.1', SANDBOX_TOKEN_ID: credentials.tokenId, SANDBOX_TOKEN_SECRET: credentials.secret });
    await eventually(async () => ((await fetch(`http://127.0.0.1:${PORT}/ready`).catch(() => undefined))?.status === 200 ? true : undefined), 60_000, 200);
    // Every response is checked against the document the gateway serves (test/support/openapi-conformance.ts).
    stopChecking = await checkResponsesAgainstServedDocument(`http://127.0.0.1:${PORT}`, '/2025-10-13');
  }, 90_000);

  afterAll(async () => {
    stopChecking?.();
    for (const app of [...processes.keys()].reverse()) await stop(app);
    await resources?.drop();
    await sink.stop();
  });

  it('serves customers, survives a customers process restart, and keeps the data', async () => {
    const created = await api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' });
    expect(created.status).toBe(201);

    await stop('customers');
    const down = await api.get(`/customers/${created.body.id}`);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The customers service is unavailable' });

    start('customers');
    const back = await eventually(
      async () => {
        const response = await api.get(`/customers/${created.body.id}`);
        return response.status === 200 ? response : undefined;
      },
      30_000,
      100,
    );
    expect(back.body).toEqual(created.body);
  }, 60_000);

  it("follows a quote's execution as one trace across every process: gateway, payments, webhooks", async () => {
    // The sandbox platform, regulated (its customers start APPROVED): an operator setting with no HTTP route.
    const gatewayDb = new Client({ connectionString: env.GATEWAY_DATABASE_URL });
    await gatewayDb.connect();
    const platformId = ((await gatewayDb.query<{ id: string }>('SELECT id FROM platform')).rows[0] ?? { id: '' }).id;
    await gatewayDb.end();
    const operator = new ServiceClient(new NatsClient({ url: env.NATS_URL, namespace: env.NATS_NAMESPACE, name: 'processes-spec' }), 5000);
    await operator.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, { platformId, environment: 'sandbox', requestId: 'processes-spec' });
    await operator.close();
    expect((await api.patch('/config', { webhookEndpoint: `${sink.url}/webhooks` })).status).toBe(200);

    const { accountId, payeeId } = await fundedPayerWithMxnPayee(api, 10_000);
    const quote = await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect(quote.status).toBe(201);
    expect((await api.post(`/quotes/${quote.body.id}/execute`, {})).status).toBe(200);
    // The steps after PROCESSING are scheduled jobs; the test clock makes them due.
    await advanceClock(api, 400);

    // Spans arrive in batches (every 5 s per process): the request's first, which names the trace.
    const request = await eventually(async () => sink.spans.find((span) => span.name === 'POST /2025-10-13/quotes/:quoteId/execute'), 30_000, 200);
    const inTrace = () => sink.spans.filter((span) => span.traceId === request.traceId);
    const where = (service: string, spans = inTrace()) => new Set(spans.filter((span) => span.service === service).map((span) => span.name.split(' ')[0]));
    // Each process exports on its own schedule: wait until every one has sent its part (every
    // parent arrived too); past the wait, the assertions below say what is missing.
    const orphansOf = (spans: typeof sink.spans) => {
      const ids = new Set(spans.map((span) => span.spanId));
      return spans.filter((span) => span.spanId !== request.spanId && !ids.has(span.parentSpanId ?? '')).map((span) => `${span.service}: ${span.name}`);
    };
    const trace = await eventually(
      async () => {
        const spans = inTrace();
        const deliveries = spans.filter((span) => span.name === 'webhook delivery').length;
        return deliveries >= 3 && where('payments', spans).has('job') && orphansOf(spans).length === 0 ? spans : undefined;
      },
      45_000,
      200,
    ).catch(() => inTrace());
    expect([...where('gateway', trace)]).toEqual(expect.arrayContaining(['POST', 'call']));
    expect([...where('payments', trace)]).toEqual(expect.arrayContaining(['handle', 'publish', 'job']));
    expect(trace.some((span) => span.service === 'payments' && /^(pg\.|SELECT|INSERT|UPDATE|WITH)/.test(span.name))).toBe(true);
    expect([...where('webhooks', trace)]).toEqual(expect.arrayContaining(['consume', 'webhook']));
    // No hop started afresh: every span but the request's has its parent in the trace.
    expect(orphansOf(trace)).toEqual([]);
    expect(trace.filter((span) => span.name === 'webhook delivery').length).toBeGreaterThanOrEqual(3);
    expect(sink.webhooks.length).toBeGreaterThanOrEqual(3);
    const perService = [...new Set(trace.map((span) => span.service))].map((service) => `${service} ${trace.filter((span) => span.service === service).length}`);
    process.stdout.write(`processes: one trace of ${trace.length} spans: ${perService.join(', ')}\n`);
  }, 120_000);

  it('refuses to start with invalid configuration, naming every bad variable', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'dist', 'apps', 'customers', 'src', 'main.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NATS_URL: 'http://not-nats', SANDBOX_TIME_SCALE: 'fast', CUSTOMERS_DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('NATS_URL must be a nats: URL');
    expect(result.stderr).toContain('SANDBOX_TIME_SCALE must be a number');
    expect(result.stderr).toContain('CUSTOMERS_DATABASE_URL is required');
  });
});
