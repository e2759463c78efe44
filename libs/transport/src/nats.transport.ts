import { ServerNats } from '@nestjs/microservices';
import { connect, createInbox, headers as natsHeaders, Msg, MsgHdrs, NatsConnection, Subscription } from 'nats';
import { MessageLog, MessageScope, settleReply, WireReply } from './message-dispatch';
import { RemoteError, RequestTransport, TransportFailure } from './service-client';
import { contextFrom, currentTraceHeaders, inSpan, SpanKind, TraceHeaders, tracingEnabled } from './tracing';

/**
 * NATS transport for distributed mode: Nest's NATS server (its wire format, `{pattern, data, id}`
 * out and `{id, response|err}` back) with a lean request path on both ends, and an optional
 * subject namespace so several stacks (e.g. parallel test runs) can share one NATS server.
 * Replicas of a service share a queue group, so each request is answered once.
 */
export interface NatsTransportOptions {
  url: string;
  namespace?: string;
  /** Queue group; the service name, so replicas split the load. */
  queue?: string;
  name: string;
}

/** Nest's NATS wire format: requests carry pattern/data/id, replies id/response/err. */
interface NestPacket {
  pattern?: string;
  data?: unknown;
  id?: string;
  response?: unknown;
  err?: unknown;
}

/**
 * A PING the server answers with a PONG: proof that a connection works end to end. It fails
 * while the client is disconnected or reconnecting (pending pings are rejected then), and when
 * no answer comes within `timeoutMs`.
 */
export async function pingNats(connection: NatsConnection | null | undefined, timeoutMs: number): Promise<void> {
  if (!connection || connection.isClosed()) throw new Error('not connected to NATS');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`NATS did not answer a ping within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([connection.flush(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** `NATS_URL` as the client takes it: one URL or several separated by commas (members of one cluster). */
export function natsServers(url: string): string[] {
  return url
    .split(',')
    .map((one) => one.trim())
    .filter((one) => one.length > 0);
}

/** NATS headers carrying the current trace context; undefined when tracing is off (no headers at all then). */
export function traceMessageHeaders(trace: TraceHeaders | undefined = currentTraceHeaders()): MsgHdrs | undefined {
  if (!trace) return undefined;
  const carried = natsHeaders();
  for (const [name, value] of Object.entries(trace)) carried.set(name, value);
  return carried;
}

/** The trace context a message's headers carry, if any. */
export function traceOfMessage(carried: MsgHdrs | undefined): TraceHeaders | undefined {
  const traceparent = carried?.get('traceparent');
  if (!traceparent) return undefined;
  const tracestate = carried?.get('tracestate');
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

function prefixed(namespace: string | undefined, subject: string): string {
  return namespace ? `${namespace}.${subject}` : subject;
}

const encode = (packet: NestPacket): Buffer => Buffer.from(JSON.stringify(packet));
const decode = (data: Uint8Array): NestPacket => JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as NestPacket;

/**
 * Publishes made during one turn of the event loop, sent together at its end. A socket write is
 * the dearest step of a message on this kind of machine (a loopback write also does the
 * receiver's TCP work), and nats.js writes its buffer on the next microtask, so under load each
 * request or reply would be a write of its own. Published in one synchronous run, a turn's
 * messages share one write; the delay is the rest of the current turn.
 */
export class PublishBatch {
  private queued: Array<() => void> = [];

  add(publish: () => void): void {
    if (this.queued.push(publish) === 1) setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    const queued = this.queued;
    this.queued = [];
    for (const publish of queued) publish();
  };
}

/** How long a closing server waits for the requests it is answering. */
const GRACE_PERIOD_MS = 300;

export class NatsServer extends ServerNats {
  private readonly replies = new PublishBatch();
  /** This server's subscriptions, one per handler (Nest's own list stays empty: it binds none). */
  private readonly answering: Subscription[] = [];
  /** The connection the handlers are bound to (ServerNats keeps its own privately). */
  private boundConnection?: NatsConnection;
  private scope?: MessageScope;
  /** Requests being answered: close waits for them (at most GRACE_PERIOD_MS), not for a fixed time. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly transport: NatsTransportOptions,
    private readonly log?: MessageLog,
  ) {
    super({
      servers: natsServers(transport.url),
      queue: transport.queue,
      name: transport.name,
      // The grace period is this class's own (close): Nest's waits the whole period out, even with nothing in flight.
      gracefulShutdown: false,
      // Reconnect forever: the service recovers by itself when NATS comes back.
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
  }

  /** Before `listen`: what each request runs inside. */
  useScope(scope: MessageScope | undefined): void {
    this.scope = scope;
  }

  /** Readiness: the connection this service receives its requests on (the one it bound its handlers to) answers a ping. */
  ping(timeoutMs: number): Promise<void> {
    return pingNats(this.boundConnection, timeoutMs);
  }

  /** Called by ServerNats once connected (`nats-server.e2e-spec.ts` fails if it stops being the one that subscribes). */
  override bindEvents(client: NatsConnection): void {
    this.boundConnection = client;
    for (const [pattern, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? this.transport.queue;
      const subscription = client.subscribe(prefixed(this.transport.namespace, pattern), {
        queue,
        callback: (error, message) => {
          if (error) this.logger.error(error);
          else this.track(this.answer(pattern, message));
        },
      });
      this.answering.push(subscription);
    }
  }

  /**
   * Graceful: no new requests once the subscriptions end (another replica takes them), then the
   * requests in flight are answered (for at most the grace period), their replies flushed to the
   * server, and the connection closed. A stack stops in milliseconds, not 300 ms per service.
   */
  override async close(): Promise<void> {
    for (const subscription of this.answering.splice(0)) subscription.unsubscribe();
    let graceOver!: NodeJS.Timeout;
    const grace = new Promise<void>((resolve) => (graceOver = setTimeout(resolve, GRACE_PERIOD_MS)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(graceOver);
    // Replies leave in a batch at the end of the turn (PublishBatch); then the server must have them.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.boundConnection && !this.boundConnection.isClosed()) await this.boundConnection.flush().catch(() => undefined);
    await super.close();
  }

  private track(answering: Promise<void>): void {
    this.inFlight.add(answering);
    void answering.finally(() => this.inFlight.delete(answering));
  }

  /**
   * One request, one reply. Nest's generic path (pattern re-parsing, an rxjs stream per
   * message) is skipped: the handler is the one bound to this subscription's pattern.
   */
  private async answer(pattern: string, message: Msg): Promise<void> {
    let packet: NestPacket;
    try {
      packet = decode(message.data);
    } catch {
      return;
    }
    if (!message.reply || packet.id === undefined) return;
    const handler = this.messageHandlers.get(pattern);
    const settle = (): Promise<WireReply> =>
      handler ? settleReply(handler, packet.data, pattern, this.log, this.scope) : Promise.resolve({ err: { code: 'SERVICE_UNAVAILABLE', message: `No handler for ${pattern}` } });
    // The handler's work as a span of the caller's trace (its context came in the headers).
    const reply: WireReply = tracingEnabled()
      ? await inSpan(
          `handle ${pattern}`,
          { kind: SpanKind.SERVER, parent: contextFrom(traceOfMessage(message.headers)), attributes: { 'rpc.system': 'paykit', 'rpc.method': pattern } },
          settle,
        )
      : await settle();
    const data = encode({ id: packet.id, ...reply });
    this.replies.add(() => {
      try {
        message.respond(data);
      } catch (error) {
        // The connection closed meanwhile: the caller times out and may retry.
        this.logger.warn(`Could not answer ${pattern}: ${(error as Error).message}`);
      }
    });
  }
}

interface PendingRequest {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Request/reply client for distributed mode. One inbox subscription receives every reply
 * (`<inbox>.<sequence>`); a request costs one publish and one timer. NATS answers at once
 * with status 503 when nobody listens on the subject.
 */
export class NatsClient implements RequestTransport {
  private connection?: NatsConnection;
  private connecting?: Promise<NatsConnection>;
  private readonly inbox = createInbox();
  private readonly pending = new Map<string, PendingRequest>();
  private readonly requests = new PublishBatch();
  private sequence = 0;

  constructor(private readonly transport: NatsTransportOptions) {}

  private async connect(): Promise<NatsConnection> {
    if (this.connection) return this.connection;
    this.connecting ??= connect({
      servers: natsServers(this.transport.url),
      name: this.transport.name,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    })
      .then((nc) => {
        nc.subscribe(`${this.inbox}.*`, { callback: (error, message) => error || this.settle(message) });
        this.connection = nc;
        return nc;
      })
      .finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private settle(message: Msg): void {
    const token = message.subject.slice(this.inbox.length + 1);
    const request = this.pending.get(token);
    if (!request) return;
    this.pending.delete(token);
    clearTimeout(request.timer);
    if (message.data.length === 0 && message.headers?.code === 503) return request.reject(new TransportFailure('NO_RESPONDERS'));
    let reply: NestPacket;
    try {
      reply = decode(message.data);
    } catch (error) {
      return request.reject(error as Error);
    }
    if (reply.err !== undefined && reply.err !== null) request.reject(new RemoteError(reply.err));
    else request.resolve(reply.response);
  }

  async request(subject: string, envelope: unknown, timeoutMs: number): Promise<unknown> {
    const nc = this.connection ?? (await this.connect());
    const token = String(++this.sequence);
    const data = encode({ pattern: subject, data: envelope, id: token });
    const carried = traceMessageHeaders();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new TransportFailure('TIMEOUT'));
      }, timeoutMs);
      this.pending.set(token, { resolve, reject, timer });
      this.requests.add(() => {
        try {
          nc.publish(prefixed(this.transport.namespace, subject), data, carried ? { reply: `${this.inbox}.${token}`, headers: carried } : { reply: `${this.inbox}.${token}` });
        } catch (error) {
          this.pending.delete(token);
          clearTimeout(timer);
          reject(nc.isClosed() ? new TransportFailure('DISCONNECTED') : (error as Error));
        }
      });
    });
  }

  /** Readiness: connects if need be (a refused connection fails at once), then pings. */
  async ping(timeoutMs: number): Promise<void> {
    const nc = this.connection ?? (await this.connect());
    await pingNats(nc, timeoutMs);
  }

  async close(): Promise<void> {
    const nc = this.connection ?? (this.connecting ? await this.connecting.catch(() => undefined) : undefined);
    this.connection = undefined;
    for (const [token, request] of this.pending) {
      clearTimeout(request.timer);
      request.reject(new TransportFailure('DISCONNECTED'));
      this.pending.delete(token);
    }
    if (nc && !nc.isClosed()) await nc.drain();
  }

  unwrap<T>(): T {
    return this.connection as T;
  }
}
