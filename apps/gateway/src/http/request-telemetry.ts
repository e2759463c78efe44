import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { processMetrics } from '@paykit/runtime';
import { beginSpan, contextFrom, OpenSpan, SpanKind, TraceHeaders, tracingEnabled, withContext } from '@paykit/transport';

/**
 * Each API request counted and timed by operation (method and route template, never the path
 * itself, so ids do not multiply the series) and status class: `paykit_http_requests_total`,
 * `paykit_http_request_duration_seconds`, served at the probe port's `/metrics`.
 */
export function measureRequests(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const operation = `${request.method} ${request.routeOptions.url ?? 'unmatched'}`;
    processMetrics.increment('paykit_http_requests_total', { operation, status: `${Math.floor(reply.statusCode / 100)}xx` });
    processMetrics.observe('paykit_http_request_duration_seconds', { operation }, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * Each API request as the root span of its trace (or a child of the caller's, when the client
 * sends a W3C `traceparent`): begun when the request arrives, made current for the route's work
 * (guards, pipes, the controller and every service call it makes), ended with the response.
 * Registered only when tracing is on: with it off the request path has no hook of it.
 */
export function traceRequests(fastify: FastifyInstance): void {
  if (!tracingEnabled()) return;
  const spans = new WeakMap<FastifyRequest, OpenSpan>();
  fastify.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const incoming = request.headers.traceparent;
    const parent = typeof incoming === 'string' ? contextFrom(callerTrace(incoming, request.headers.tracestate)) : undefined;
    const span = beginSpan(`${request.method}`, {
      kind: SpanKind.SERVER,
      parent,
      attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0], 'paykit.request_id': String(request.id) },
    });
    if (span) spans.set(request, span);
    done();
  });
  // The body is read by now: the route's own work runs inside the span.
  fastify.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const span = spans.get(request);
    if (span) withContext(span.context, done);
    else done();
  });
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const span = spans.get(request);
    if (span) {
      const route = request.routeOptions.url;
      if (route) span.rename(`${request.method} ${route}`);
      span.end({ 'http.response.status_code': reply.statusCode, ...(route ? { 'http.route': route } : {}) }, reply.statusCode >= 500 ? `HTTP ${reply.statusCode}` : undefined);
    }
    done();
  });
}

function callerTrace(traceparent: string, tracestate: string | string[] | undefined): TraceHeaders {
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}
