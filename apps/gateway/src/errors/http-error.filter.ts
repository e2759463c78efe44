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
    const reason = (error as Error).message ?? '';
    const problem = code === 'INVALID_INPUT' ? jsonBodyProblem(fastifyCode, reason) : undefined;
    if (problem) return new ServiceError('INVALID_INPUT', 'Request body is not valid JSON', { errors: [{ field: '', message: problem }] });
    const message =
      code === 'REFERENCE_NOT_FOUND'
        ? 'Route not found'
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

/**
 * What was wrong with a body the JSON parser refused, for `details.errors`; undefined for any other
 * 400. By Fastify's code, or by its message once Nest has rewrapped the error (Fastify keeps the
 * parser's own words to itself).
 */
function jsonBodyProblem(fastifyCode: string | undefined, reason: string): string | undefined {
  if (fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /cannot be empty/i.test(reason)) return 'the body is empty, but its content-type is application/json';
  if (fastifyCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || /is not valid JSON|prototype/i.test(reason))
    return 'the body is not valid JSON, or carries a __proto__ or constructor.prototype key, which no request may';
  return /JSON/i.test(reason) ? `the body is not valid JSON: ${reason}` : undefined;
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

/**
 * The published client libraries retry a 409 (with 408, 429 and 5xx) unless told not to. A 4xx
 * here comes back the same however often it is sent (a state that will not change by itself, a
 * duplicate, a bad field), so it says so; 408 and 429 are the ones a later try may pass.
 */
const RETRY_MAY_PASS = new Set([408, 429]);

export function sendError(reply: FastifyReply, error: ServiceError): void {
  (reply.request as ErroredRequest).errorCode = error.code;
  for (const [name, value] of Object.entries(error.headers ?? {})) void reply.header(name, value);
  if (error.status >= 400 && error.status < 500 && !RETRY_MAY_PASS.has(error.status)) void reply.header('x-should-retry', 'false');
  void reply.status(error.status).header('content-type', 'application/json; charset=utf-8').send(toEnvelope(error));
}
