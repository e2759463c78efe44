import { ClientProxy, ReadPacket, ServerNats, WritePacket } from '@nestjs/microservices';
import { connect, JSONCodec, NatsConnection } from 'nats';

/**
 * NATS transport for distributed mode: Nest's own client and server, with an optional
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

function prefixed(namespace: string | undefined, subject: string): string {
  return namespace ? `${namespace}.${subject}` : subject;
}

export class NatsServer extends ServerNats {
  constructor(private readonly transport: NatsTransportOptions) {
    super({
      servers: [transport.url],
      queue: transport.queue,
      name: transport.name,
      gracefulShutdown: true,
      gracePeriod: 300,
      // Reconnect forever: the service recovers by itself when NATS comes back.
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
  }

  override bindEvents(client: NatsConnection): void {
    for (const [pattern, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? this.transport.queue;
      const subscription = client.subscribe(prefixed(this.transport.namespace, pattern), {
        queue,
        callback: this.getMessageHandler(pattern).bind(this) as Parameters<NatsConnection['subscribe']>[1] extends infer O ? (O extends { callback?: infer C } ? C : never) : never,
      });
      // ServerNats keeps its subscriptions privately to drain them on close.
      (this as unknown as { subscriptions: unknown[] }).subscriptions.push(subscription);
    }
  }
}

/**
 * Request/reply client for distributed mode. It speaks the wire format of Nest's NATS server
 * (`{pattern, data, id}` out, `{id, response|err}` back) but uses the NATS client's own
 * request mechanism, which multiplexes replies on one inbox subscription instead of
 * subscribing a fresh inbox per request, and reports "no responders" at once.
 */
/** Nest's NATS wire format: requests carry pattern/data/id, replies id/response/err. */
interface NestPacket {
  pattern?: string;
  data?: unknown;
  id?: string;
  response?: unknown;
  err?: unknown;
}

export class NatsClient extends ClientProxy {
  private connection?: NatsConnection;
  private connecting?: Promise<NatsConnection>;
  private readonly codec = JSONCodec<NestPacket>();
  private sequence = 0;

  constructor(
    private readonly transport: NatsTransportOptions,
    private readonly timeoutMs = 30_000,
  ) {
    super();
  }

  async connect(): Promise<NatsConnection> {
    if (this.connection) return this.connection;
    this.connecting ??= connect({
      servers: [this.transport.url],
      name: this.transport.name,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    }).then((nc) => (this.connection = nc));
    return this.connecting;
  }

  async close(): Promise<void> {
    const nc = this.connection ?? (this.connecting ? await this.connecting.catch(() => undefined) : undefined);
    this.connection = undefined;
    this.connecting = undefined;
    if (nc && !nc.isClosed()) await nc.drain();
  }

  unwrap<T>(): T {
    return this.connection as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const pattern = this.normalizePattern(packet.pattern as string);
    const id = String(++this.sequence);
    const body = this.codec.encode({ pattern, data: packet.data as unknown, id });
    void this.connect()
      .then((nc) => nc.request(prefixed(this.transport.namespace, pattern), body, { timeout: this.timeoutMs }))
      .then((message) => {
        const reply = this.codec.decode(message.data);
        callback(reply.err !== undefined && reply.err !== null ? { err: reply.err, isDisposed: true } : { response: reply.response, isDisposed: true });
      })
      .catch((error: unknown) => callback({ err: error, isDisposed: true }));
    return () => undefined;
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const nc = await this.connect();
    nc.publish(prefixed(this.transport.namespace, this.normalizePattern(packet.pattern as string)), this.codec.encode({ pattern: '', data: packet.data as unknown }));
    return undefined as T;
  }
}
