import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, ServiceError } from '@paykit/errors';

/** The spec's error envelope. */
export interface ErrorEnvelope {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Framework errors (Nest or Fastify) that are the client's fault, by HTTP status. */
const CLIENT_ERROR_CODES: Record<number, ErrorCode> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'REFERENCE_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Converts any thrown value into a ServiceError; unknown failures become a bare 500. */
export function toServiceError(error: unknown, logger: Logger, requestId: string): ServiceError {
  if (error instanceof ServiceError) return error;
  const statusCode = error instanceof HttpException ? error.getStatus() : ((error as { statusCode?: number })?.statusCode ?? 500);
  const code = CLIENT_ERROR_CODES[statusCode];
  if (code) {
    const fastifyCode = (error as { code?: string }).code;
    const message =
      code === 'REFERENCE_NOT_FOUND'
        ? 'Route not found'
        : fastifyCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/i.test((error as Error).message ?? '')
          ? 'Request body is not valid JSON'
          : code === 'PAYLOAD_TOO_LARGE'
            ? 'Request body is too large'
            : code === 'UNSUPPORTED_MEDIA_TYPE'
              ? 'Unsupported Content-Type'
              : ((error as Error).message ?? 'Bad request');
    return new ServiceError(code, message);
  }
  logger.error(`Unhandled error in request ${requestId}: ${error instanceof Error ? error.stack : String(error)}`);
  return new ServiceError('INTERNAL_ERROR', 'Internal error');
}

export function toEnvelope(error: ServiceError): ErrorEnvelope {
  return { status: error.status, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

/** The one place an error becomes an HTTP response: `{status, code, message, details}`. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    sendError(reply, toServiceError(exception, this.logger, String(request.id)));
  }
}

/** What the error path leaves on a request for the request log: the envelope's code. */
export interface ErroredRequest {
  errorCode?: string;
}

export function sendError(reply: FastifyReply, error: ServiceError): void {
  (reply.request as ErroredRequest).errorCode = error.code;
  for (const [name, value] of Object.entries(error.headers ?? {})) void reply.header(name, value);
  void reply.status(error.status).header('content-type', 'application/json; charset=utf-8').send(toEnvelope(error));
}
