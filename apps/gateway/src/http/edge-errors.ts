import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@paykit/errors';
import { rawInputErrors } from '@paykit/validation';
import { sendError, toEnvelope } from '../errors/http-error.filter';

/**
 * The answers Fastify and Node's HTTP parser give before a route is chosen, in the envelope like
 * every other error: a path segment over the router's length limit, a URL that is not valid
 * percent-encoding, headers too large, a malformed request line. Without these handlers they
 * answer bare `{"statusCode":...}` bodies of their own.
 */

/** The longest path segment the router matches; a longer id cannot exist (ids are under 100 characters). */
export const MAX_PATH_SEGMENT_LENGTH = 256;

/** Fastify's `frameworkErrors`: routing failed before any handler ran. */
export function frameworkError(error: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    // No resource has an id this long: the same answer as any other id that does not exist.
    sendError(reply, new ServiceError('REFERENCE_NOT_FOUND', `No resource has an id longer than ${MAX_PATH_SEGMENT_LENGTH} characters`));
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    sendError(reply, ServiceError.invalidInput([{ field: '', message: 'The URL is not valid percent-encoded UTF-8' }], 'The URL is not valid'));
    return;
  }
  sendError(reply, ServiceError.invalidInput([{ field: '', message: error.message }], 'Bad request'));
}

/**
 * Node's `clientError`: the request could not even be parsed (headers over the limit, a broken
 * request line, a client too slow). There is no request object, only the socket, so the answer is
 * written by hand, then the connection is closed as Node itself would.
 */
export function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ServiceError('HEADERS_TOO_LARGE', 'Request headers are too large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ServiceError('REQUEST_TIMEOUT', 'The request was not received in time')
        : ServiceError.invalidInput([{ field: '', message: 'The request is not valid HTTP' }], 'Bad request');
  const body = JSON.stringify(toEnvelope(answer));
  const status = answer.status;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
const UTF8 = /^utf-?8$/i;

/**
 * What is wrong with a request's Content-Type before its body is read, or undefined: bodies are
 * UTF-8 only (JSON is defined as UTF-8; another charset would be read as garbage), and a
 * multipart body needs its boundary (without one the parser cannot even start).
 */
export function contentTypeProblem(contentType: string | undefined): ServiceError | undefined {
  if (!contentType) return undefined;
  const charset = CHARSET.exec(contentType)?.[1];
  if (charset !== undefined && !UTF8.test(charset)) {
    return ServiceError.invalidInput([{ field: '', message: `The body must be UTF-8 (Content-Type says charset=${charset})` }], 'Unsupported charset');
  }
  if (/^\s*multipart\/form-data\b/i.test(contentType) && !/;\s*boundary\s*=\s*"?[^";\s]+/i.test(contentType)) {
    return ServiceError.invalidInput([{ field: '', message: 'A multipart/form-data body needs a boundary parameter in its Content-Type' }], 'Malformed multipart body');
  }
  return undefined;
}

/** The Fastify hook that refuses such a request before its body is parsed. */
export async function refuseUnreadableBodies(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  const problem = contentTypeProblem(request.headers['content-type']);
  if (!problem) return undefined;
  sendError(reply, problem);
  // Returning the sent reply ends the request here: no body parsing, no route.
  return reply;
}

/**
 * An error met while reading a multipart body, as the client should see it: the multipart
 * library's own errors carry their status (413 for a file over the limit); the parser's (a body
 * cut short, a broken part header) are the client's malformed body, never a 500.
 */
export function multipartReadError(error: unknown): unknown {
  if (error instanceof ServiceError || typeof (error as { statusCode?: unknown })?.statusCode === 'number') return error;
  return ServiceError.invalidInput([{ field: '', message: `The multipart body is malformed: ${(error as Error)?.message}` }], 'Malformed multipart body');
}

/**
 * The Fastify hook that refuses a parsed body no contract could accept (nesting deeper than any
 * contract, NUL, unpaired surrogates, reserved keys) before any interceptor walks it: a signature
 * digest or an idempotency hash recursing through 10,000 levels would exhaust the stack (a 500).
 */
export async function refuseUnacceptableBodies(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (request.body === undefined || request.body === null) return undefined;
  const errors = rawInputErrors(request.body);
  if (errors.length === 0) return undefined;
  sendError(reply, ServiceError.invalidInput(errors));
  return reply;
}
