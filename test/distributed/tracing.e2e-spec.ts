import { createServer, Server } from 'node:http';
import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace';
import { CallerContext, CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { processMetrics, startTracing, Tracing } from '@paykit/runtime';
import { fundedPayerWithMxnPayee } from '../support/payments-fixtures';
import { advanceClock, eventually, startTestStack, TestStack } from '../support/test-stack';

/**
 * One trace per payment (distributed mode: every service on NATS and its own PostgreSQL): a
 * quote's execution, from the HTTP request through the service calls (context in the NATS
 * headers), the outbox rows and their relay, JetStream and its consumers, the scheduled steps
 * the test clock makes due, to the webhook deliveries of each status, shares one trace id.
 */
describe('Tracing a quote execution across every hop', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing | undefined;
  let t: TestStack;
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: string[] = [];

  beforeAll(async () => {
    tracing = startTracing('tracing-spec', { tracing: { sampleRatio: 1 } }, exporter);
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        deliveries.push(body);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/webhooks`;
    t = await startTestStack({ mode: 'distributed' });
  });

  afterAll(async () => {
    await t?.stop();
    await tracing?.shutdown();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('follows the execution, its scheduled steps and its webhooks in one trace', async () => {
    const { api, platformId } = await t.newPlatform();
    const ctx: CallerContext = { platformId, environment: 'sandbox', requestId: 'tracing-spec' };
    await t.stack.runtime.client.request(CUSTOMERS_SUBJECTS.updateConfig, { regulated: true }, ctx);
    expect((await api.patch('/config', { webhookEndpoint: receiverUrl })).status).toBe(200);
    const { accountId, payeeId } = await fundedPayerWithMxnPayee(api, 10_000);
    const quote = await api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId },
      destination: { destinationType: 'ACCOUNT', accountId: payeeId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
    });
    expect({ status: quote.status, body: quote.status === 201 ? undefined : quote.body }).toEqual({ status: 201, body: undefined });

    const executed = await api.post(`/quotes/${quote.body.id}/execute`, {});
    expect(executed.status).toBe(200);
    // The steps after PROCESSING are scheduled jobs; the test clock makes them due.
    await advanceClock(api, 400);

    const requestSpan = await eventually(async () => exporter.getFinishedSpans().find((span) => span.name === 'POST /2025-10-13/quotes/:quoteId/execute'));
    const traceId = requestSpan.spanContext().traceId;
    const inTrace = (): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
    // PENDING, PROCESSING and COMPLETED delivered, each a span of the execution's trace.
    const spans = await eventually(async () => {
      const found = inTrace();
      return found.filter((span) => span.name === 'webhook delivery').length >= 3 ? found : undefined;
    }, 30_000);
    const names = new Set(spans.map((span) => span.name));
    const kinds = (prefix: string) => [...names].filter((name) => name.startsWith(prefix));
    // Each kind of hop is in it: the request, service calls and their handlers, the relay's
    // publishes, the consumers, the scheduled steps, the deliveries.
    expect(kinds('call payments.')).not.toEqual([]);
    expect(kinds('handle payments.')).not.toEqual([]);
    expect(kinds('publish payments.events.')).not.toEqual([]);
    expect(kinds('consume payments.events.')).not.toEqual([]);
    expect(kinds('job ')).not.toEqual([]);
    expect(names.has('webhook delivery')).toBe(true);
    // Every span but the request's own has its parent inside the trace: no hop started afresh.
    const ids = new Set(spans.map((span) => span.spanContext().spanId));
    const orphans = spans.filter((span) => span !== requestSpan && !ids.has(span.parentSpanContext?.spanId ?? ''));
    expect(orphans.map((span) => span.name)).toEqual([]);
    expect(deliveries.length).toBeGreaterThanOrEqual(3);
    // The same path in the metrics: the operation counted and timed at the gateway and in payments, the deliveries by outcome.
    const metrics = await processMetrics.render();
    expect(metrics).toContain('paykit_http_requests_total{operation="POST /2025-10-13/quotes/:quoteId/execute",status="2xx"} 1\n');
    expect(metrics).toMatch(/paykit_message_duration_seconds_count\{service="payments",subject="payments\.quote\.execute"\} [1-9]/);
    expect(processMetrics.value('paykit_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(3);
    process.stdout.write(`tracing: ${spans.length} spans in the execution's trace, ${names.size} kinds: ${[...names].sort().join(', ')}\n`);
  });
});
