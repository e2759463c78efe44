import { ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { CallerContext, MessageEnvelope, ReplyOf, RequestOf, Subject } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';

export const SERVICE_CLIENT = Symbol('SERVICE_CLIENT');

/**
 * The one way a process calls another service: typed by the contracts' MessageMap, so a
 * wrong subject or payload does not compile. Transport failures become clear 5xx errors.
 */
export class ServiceClient {
  constructor(
    private readonly proxy: Pick<ClientProxy, 'send' | 'close'>,
    private readonly timeoutMs: number,
  ) {}

  async request<S extends Subject>(subject: S, payload: RequestOf<S>, ctx: CallerContext): Promise<ReplyOf<S>> {
    const envelope: MessageEnvelope<RequestOf<S>> = { ctx, payload };
    try {
      return await firstValueFrom(this.proxy.send<ReplyOf<S>>(subject, envelope).pipe(timeout(this.timeoutMs)));
    } catch (error) {
      throw toServiceError(error, subject);
    }
  }

  async close(): Promise<void> {
    await this.proxy.close();
  }
}

function serviceOf(subject: string): string {
  return subject.split('.')[0];
}

export function toServiceError(error: unknown, subject: string): ServiceError {
  if (error instanceof ServiceError) return error;
  const known = ServiceError.fromSerialized(error);
  if (known) return known;
  const natsCode = (error as { code?: string } | null)?.code;
  if (error instanceof TimeoutError || natsCode === 'TIMEOUT') {
    return new ServiceError('SERVICE_TIMEOUT', `The ${serviceOf(subject)} service did not answer in time`);
  }
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // NATS answers at once (status 503, an empty reply) when nobody listens on the subject.
  if (natsCode === '503' || /503|no responders|no subscribers|Empty response|not connected|CONNECTION_REFUSED|There is no matching message handler/i.test(text)) {
    return new ServiceError('SERVICE_UNAVAILABLE', `The ${serviceOf(subject)} service is unavailable`);
  }
  return new ServiceError('INTERNAL_ERROR', 'Internal error');
}
