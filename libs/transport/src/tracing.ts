import { Attributes, Context, context, Link, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * Traces across every hop (OpenTelemetry, W3C trace context). A payment's trace starts at the
 * gateway's HTTP request and follows it through each service call (the context rides in every
 * NATS message's headers), the commit (each outbox row and scheduled job keeps the context it was
 * written in), the relay, JetStream (message headers again), the consumers, the scheduled steps
 * and the webhook delivery.
 *
 * Off unless the process started tracing (libs/runtime `startTracing`, when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set): then every helper here is one boolean test, no span, no
 * header, no column written.
 */

let enabled = false;

/** Called by the SDK set-up only. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

export function tracingEnabled(): boolean {
  return enabled;
}

export { SpanKind };

const tracer = () => trace.getTracer('paykit');

/** A W3C `traceparent` (and `tracestate` when there is one), as headers carry them. */
export type TraceHeaders = Record<string, string>;

/** The current trace context as headers; undefined when tracing is off or nothing is traced here. */
export function currentTraceHeaders(active: Context = context.active()): TraceHeaders | undefined {
  if (!enabled) return undefined;
  const carrier: TraceHeaders = {};
  propagation.inject(active, carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The current `traceparent` alone: what an outbox row or a scheduled job keeps (null when off). */
export function currentTraceparent(): string | null {
  return currentTraceHeaders()?.traceparent ?? null;
}

/** The context a message's or row's trace headers name (a new root when they name none). */
export function contextFrom(headers: TraceHeaders | string | null | undefined): Context {
  if (!headers) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, typeof headers === 'string' ? { traceparent: headers } : headers);
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; the active context by default. */
  parent?: Context;
  links?: Link[];
}

/**
 * Runs `work` inside a new span (active for everything it awaits), ending it when `work` settles
 * and marking it failed when it throws. With tracing off, just `work()`.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  if (!enabled) return work();
  return tracer().startActiveSpan(name, { kind: options.kind, attributes: options.attributes, links: options.links }, options.parent ?? context.active(), async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A span begun here and ended elsewhere (a request that spans several hooks); `context` is what to run its work in. */
export interface OpenSpan {
  context: Context;
  rename(name: string): void;
  end(attributes?: Attributes, failure?: string): void;
}

/** Begins a span to end later (undefined when tracing is off). */
export function beginSpan(name: string, options: SpanOptions): OpenSpan | undefined {
  if (!enabled) return undefined;
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes, links: options.links }, parent);
  return {
    context: trace.setSpan(parent, span),
    rename: (renamed) => span.updateName(renamed),
    end(attributes, failure) {
      if (attributes) span.setAttributes(attributes);
      if (failure !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
      span.end();
    },
  };
}

/** Runs `work` with `active` as the current context (what a span begun elsewhere hands its work). */
export function withContext<T>(active: Context, work: () => T): T {
  return context.with(active, work);
}

/** A link to the trace a row or message was written in (a batch's span links each of its events). */
export function linkTo(headers: TraceHeaders | string | null | undefined): Link | undefined {
  if (!enabled || !headers) return undefined;
  const spanContext = trace.getSpanContext(contextFrom(headers));
  return spanContext ? { context: spanContext } : undefined;
}

/**
 * Trace headers of events handed to a consumer, beside the events (a batch handler gets events
 * only; the one that delivers each on its own reads its event's context here).
 */
const eventTraces = new WeakMap<object, TraceHeaders>();

export function rememberEventTrace(event: object, headers: TraceHeaders | undefined): void {
  if (headers) eventTraces.set(event, headers);
}

export function eventTrace(event: object): TraceHeaders | undefined {
  return enabled ? eventTraces.get(event) : undefined;
}
