import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { SerializedServiceError, ServiceError } from '@paykit/errors';

/**
 * Every error leaving a service handler crosses the transport as `{code, message, details}`.
 * Unexpected errors are logged here and travel as a bare INTERNAL_ERROR (no internals leak).
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    return throwError(() => this.serialize(exception, host));
  }

  private serialize(exception: unknown, host: ArgumentsHost): SerializedServiceError {
    if (exception instanceof ServiceError) return exception.toJSON();
    const known = ServiceError.fromSerialized(exception);
    if (known) return known.toJSON();
    const data = host.switchToRpc().getData<{ ctx?: { requestId?: string } }>();
    const detail = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
    this.logger.error(`Unhandled error (request ${data?.ctx?.requestId ?? '-'}): ${detail}`);
    return { code: 'INTERNAL_ERROR', message: 'Internal error' };
  }
}
