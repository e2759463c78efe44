import { ClientProxy, CustomTransportStrategy, ReadPacket, Server, WritePacket } from '@nestjs/microservices';
import { firstValueFrom, isObservable, lastValueFrom, Observable } from 'rxjs';
import { InProcessBroker, InProcessReply } from './in-process-broker';

export const IN_PROCESS_TRANSPORT = Symbol('IN_PROCESS_TRANSPORT');

/** Nest microservice server for embedded mode: registers its @MessagePattern handlers on the broker. */
export class InProcessServer extends Server implements CustomTransportStrategy {
  override readonly transportId = IN_PROCESS_TRANSPORT;
  private readonly subjects: string[] = [];

  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    for (const [subject, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      this.subjects.push(subject);
      this.broker.register(subject, async (data): Promise<InProcessReply> => {
        try {
          const result: unknown = await handler(data);
          const stream: Observable<unknown> = this.transformToObservable(result);
          return { response: isObservable(stream) ? await lastValueFrom(stream, { defaultValue: undefined }) : stream };
        } catch (err) {
          return { err };
        }
      });
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

/** Nest client for embedded mode: same `send` contract as ClientNats, answered by the broker. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  async connect(): Promise<void> {
    // Nothing to connect to.
  }

  close(): void {
    // Nothing to close.
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const subject = this.normalizePattern(packet.pattern as string);
    this.broker
      .request(subject, packet.data)
      .then((reply) => {
        if (reply === undefined) {
          callback({ err: { code: 'SERVICE_UNAVAILABLE', message: `No service answers ${subject}` }, isDisposed: true });
        } else if ('err' in reply) {
          callback({ err: reply.err, isDisposed: true });
        } else {
          callback({ response: reply.response, isDisposed: true });
        }
      })
      .catch((err: unknown) => callback({ err, isDisposed: true }));
    return () => undefined;
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const reply = await this.broker.request(this.normalizePattern(packet.pattern as string), packet.data);
    return (reply && 'response' in reply ? reply.response : undefined) as T;
  }
}

export { firstValueFrom };
