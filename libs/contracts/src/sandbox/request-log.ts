import { PageQuery } from '../common';

/** Ids of request log entries: `RequestLog:<uuidv7>` (sorted by time, so newest first is by id). */
export const REQUEST_LOG_ID_TYPE = 'RequestLog';
export const REQUEST_LOG_ID_EXAMPLE = 'RequestLog:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

/**
 * One request a sandbox platform made, as the gateway recorded it. Never a body, a header or a
 * query string: those may carry secrets and account numbers.
 */
export interface RequestLogEntry {
  id: string;
  method: string;
  /** The route as declared, e.g. `/2025-10-13/customers/:customerId`; absent when no route matched. */
  route?: string;
  /** The path requested, without the query string. */
  path: string;
  status: number;
  /** The error envelope's `code`, for answers that are errors. */
  errorCode?: string;
  durationMs: number;
  requestId: string;
  createdAt: string;
}

/** `GET /sandbox/request-log`: the platform's latest requests, newest first. */
export class ListRequestLogRequest extends PageQuery {}
