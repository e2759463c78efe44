import { ClientNats, ServerNats } from '@nestjs/microservices';
import type { NatsConnection } from 'nats';

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

export class NatsClient extends ClientNats {
  constructor(private readonly transport: NatsTransportOptions) {
    super({
      servers: [transport.url],
      name: transport.name,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
  }

  protected override normalizePattern(pattern: Parameters<ClientNats['normalizePattern']>[0]): string {
    return prefixed(this.transport.namespace, super.normalizePattern(pattern));
  }
}
