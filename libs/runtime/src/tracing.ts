import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ParentBasedSampler, SimpleSpanProcessor, SpanExporter, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { setTracingEnabled } from '@paykit/transport';
import { RuntimeConfig } from './config/runtime-config';

/** What a process traces with; `shutdown` flushes the spans still buffered. */
export interface Tracing {
  shutdown(): Promise<void>;
}

let started: Tracing | undefined;

/**
 * Starts OpenTelemetry tracing for this process when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (spans
 * exported over OTLP/HTTP to `<endpoint>/v1/traces`, batched), or with the exporter a test passes;
 * otherwise does nothing, and every span helper (libs/transport tracing.ts) stays one boolean
 * test. Once per process: later calls answer the first one's.
 *
 * What is traced: the gateway's HTTP requests, each service call (client and handler, the context
 * in the NATS headers), the SQL statements (pg instrumentation, distributed mode), the outbox
 * relay's publish, each JetStream consumer's handling, scheduled jobs and webhook deliveries.
 */
export function startTracing(serviceName: string, config: Pick<RuntimeConfig, 'tracing'>, testExporter?: SpanExporter): Tracing | undefined {
  if (started) return started;
  const endpoint = config.tracing?.otlpEndpoint;
  if (!endpoint && !testExporter) return undefined;
  const exporter = testExporter ?? new OTLPTraceExporter({ url: `${endpoint!.replace(/\/$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.tracing?.sampleRatio ?? 1) }),
    // A test reads its spans as they end; a deployment sends them in batches.
    spanProcessors: [testExporter ? new SimpleSpanProcessor({ exporter }) : new BatchSpanProcessor({ exporter })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  // Statements as spans of the work that runs them (none outside a trace).
  const pg = new PgInstrumentation({ requireParentSpan: true });
  pg.setTracerProvider(provider);
  // The instrumentation patches the driver on its next require: the persistence library loaded it
  // before this ran (an app's imports come first), so require it once more now.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('pg');
  setTracingEnabled(true);
  started = {
    async shutdown() {
      setTracingEnabled(false);
      pg.disable();
      await provider.shutdown();
    },
  };
  return started;
}
