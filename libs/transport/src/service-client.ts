import { CallerContext, contractVersion, MessageEnvelope, ReplyOf, RequestOf, Subject } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { inSpan, SpanKind, tracingEnabled } from './tracing';

export const SERVICE_CLIENT = Symbol('SERVICE_CLIENT');

/**
 * What a transport does for ServiceClient: send one request and settle with its one reply.
 * It resolves with the handler's response, rejects with a `RemoteError` carrying the handler's error, and
 * rejects with a `TransportFailure` when nobody answers (at once) or the deadline passes.
 */
export interface RequestTransport {
  request(subject: string, envelope: unknown, timeoutMs: number): Promise<unknown>;
  close(): Promise<void>;
  /** Readiness: fails when the transport cannot reach its broker (NATS); absent in-process. */
  ping?(timeoutMs: number): Promise<void>;
  /** The underlying connection or broker (tests restart services on the same one). */
  unwrap<T>(): T;
}

/** The handler's own error, as it crossed the wire (`{code, message, details}`). */
export class RemoteError extends Error {
  constructor(readonly serialized: unknown) {
    super('The service answered with an error');
  }
}

/** A request that reached no handler, or none in time. */
export class TransportFailure extends Error {
  constructor(readonly reason: 'NO_RESPONDERS' | 'TIMEOUT' | 'DISCONNECTED') {
    super(reason);
  }
}

/**
 * The one way a process calls another service: typed by the contracts' MessageMap, so a
 * wrong subject or payload does not compile. Each request carries the version of its
 * contract it was written at. Transport failures become clear 5xx errors.
 */
export class ServiceClient {
  constructor(
    private readonly transport: RequestTransport,
    private readonly timeoutMs: number,
  ) {}

  /** `timeoutMs` overrides the process's RPC timeout for a request known to carry a lot of work (a bulk import's batch). */
  async request<S extends Subject>(subject: S, payload: RequestOf<S>, ctx: CallerContext, options?: { timeoutMs?: number }): Promise<ReplyOf<S>> {
    const envelope: MessageEnvelope<RequestOf<S>> = { ctx, payload, schemaVersion: contractVersion(subject) };
    // The call as a span of the caller's trace; the transport carries its context to the handler.
    if (tracingEnabled()) {
      const attributes = { 'rpc.system': 'paykit', 'rpc.method': subject, 'paykit.request_id': ctx.requestId ?? '' };
      return inSpan(`call ${subject}`, { kind: SpanKind.CLIENT, attributes }, () => this.send(subject, envelope, options));
    }
    return this.send(subject, envelope, options);
  }

  private async send<S extends Subject>(subject: S, envelope: MessageEnvelope<RequestOf<S>>, options?: { timeoutMs?: number }): Promise<ReplyOf<S>> {
    try {
      return (await this.transport.request(subject, envelope, options?.timeoutMs ?? this.timeoutMs)) as ReplyOf<S>;
    } catch (error) {
      throw toServiceError(error, subject);
    }
  }

  /** Readiness: the transport reaches its broker (NATS) now; always true in-process. */
  async ping(timeoutMs: number): Promise<void> {
    await this.transport.ping?.(timeoutMs);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }
}

function serviceOf(subject: string): string {
  return subject.split('.')[0];
}

export function toServiceError(error: unknown, subject: string): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof TransportFailure) {
    return error.reason === 'TIMEOUT'
      ? new ServiceError('SERVICE_TIMEOUT', `The ${serviceOf(subject)} service did not answer in time`)
      : new ServiceError('SERVICE_UNAVAILABLE', `The ${serviceOf(subject)} service is unavailable`);
  }
  const known = ServiceError.fromSerialized(error instanceof RemoteError ? error.serialized : error);
  if (known) return known;
  const code = (error as { code?: unknown } | null)?.code;
  const text = `${typeof code === 'string' ? code : ''} ${error instanceof Error ? error.message : ''}`;
  // The NATS client's own failures while (re)connecting.
  if (/CONNECTION_REFUSED|CONNECTION_CLOSED|not connected|There is no matching message handler/i.test(text)) {
    return new ServiceError('SERVICE_UNAVAILABLE', `The ${serviceOf(subject)} service is unavailable`);
  }
  return new ServiceError('INTERNAL_ERROR', 'Internal error');
}
