import { CustomTransportStrategy, Server } from '@nestjs/microservices';
import { InProcessBroker } from './in-process-broker';
import { MessageLog, MessageScope, settleReply } from './message-dispatch';
import { RemoteError, RequestTransport, TransportFailure } from './service-client';

export const IN_PROCESS_TRANSPORT = Symbol('IN_PROCESS_TRANSPORT');

/** Nest microservice server for embedded mode: registers its @MessagePattern handlers on the broker. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  override readonly transportId = IN_PROCESS_TRANSPORT;
  private readonly subjects: string[] = [];
  private scope?: MessageScope;

  constructor(
    private readonly broker: InProcessBroker,
    private readonly log?: MessageLog,
  ) {
    super();
  }

  /** Before `listen`: what each request runs inside. */
  useScope(scope: MessageScope | undefined): void {
    this.scope = scope;
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    for (const [subject, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      this.subjects.push(subject);
      this.broker.register(subject, (data) => settleReply(handler, data, subject, this.log, this.scope));
    }
    callback();
  }

  close(): void {
    for (const subject of this.subjects) this.broker.unregister(subject);
    this.subjects.length = 0;
  }

  on(): void {
    // The in-process broker has no connection events.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }
}

/** Client for embedded mode: same contract as the NATS one, answered by the broker. */
export class InProcessClient implements RequestTransport {
  constructor(private readonly broker: InProcessBroker) {}

  request(subject: string, envelope: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new TransportFailure('TIMEOUT')), timeoutMs);
      this.broker.request(subject, envelope).then(
        (reply) => {
          clearTimeout(timer);
          if (reply === undefined) reject(new TransportFailure('NO_RESPONDERS'));
          else if (reply.err !== undefined && reply.err !== null) reject(new RemoteError(reply.err));
          else resolve(reply.response);
        },
        (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  async close(): Promise<void> {
    // Nothing to close: the broker belongs to the process.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }
}
