import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Logger } from 'pino';
import { Observable, tap } from 'rxjs';

/**
 * One debug line per handled message, carrying the gateway's request id, so a request can be
 * followed across services in the logs. Payloads are not logged (they may hold secrets).
 */
@Injectable()
export class MessageLogInterceptor implements NestInterceptor {
  constructor(private readonly logger: Logger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.logger.isLevelEnabled('debug')) return next.handle();
    const rpc = context.switchToRpc();
    const requestId = rpc.getData<{ ctx?: { requestId?: string } }>()?.ctx?.requestId;
    const subject = context.getHandler().name;
    const started = performance.now();
    return next.handle().pipe(
      tap({
        next: () => this.logger.debug({ requestId, handler: subject, ms: Math.round(performance.now() - started) }, 'message handled'),
        error: (error: { code?: string }) =>
          this.logger.debug({ requestId, handler: subject, code: error?.code, ms: Math.round(performance.now() - started) }, 'message refused'),
      }),
    );
  }
}
