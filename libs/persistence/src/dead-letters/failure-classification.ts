import { ServiceError } from '@paykit/errors';
import { NewerContractVersion } from '@paykit/transport';

/** A failure its thrower knows to be temporary (e.g. a service refusing work while it stops): retried, never parked. */
export class TransientFailure extends Error {
  readonly transient = true;
}

/** How a failing message or job is retried before it is parked (RuntimeConfig.deadLetters). */
export interface RetryPolicy {
  /** Attempts with a non-transient failure before the message is parked. */
  maxAttempts: number;
  /** Wait before the second attempt; it doubles for each one after. */
  backoffMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, backoffMs: 100 };

/** The wait after the `failures`-th failure: exponential, capped at a minute. */
export function backoffAfter(policy: RetryPolicy, failures: number): number {
  return Math.min(60_000, policy.backoffMs * 2 ** Math.max(0, failures - 1));
}

/**
 * PostgreSQL error classes and codes that say "try again later", not "this message is bad":
 * connection exceptions (08), serialization failure and deadlock (40001, 40P01), lock not
 * available (55P03), insufficient resources (53), operator intervention and cannot-connect-now
 * (57P01..57P03), statement timeout / cancel (57014).
 */
const TRANSIENT_SQLSTATE = /^(08...|40001|40P01|55P03|53...|57P0[1-3]|57014)$/;
/** Socket and DNS failures of any client (pg, NATS, fetch). */
const TRANSIENT_SYSCALL = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/** NATS client error codes of a connection or a server that is not there (yet). */
const TRANSIENT_NATS = new Set([
  'TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DRAINING',
  'CONNECTION_REFUSED',
  'CONNECTION_TIMEOUT',
  'DISCONNECT',
  'NO_RESPONDERS',
  '503',
  'JETSTREAM_NOT_ENABLED',
]);
/** Another service down or slow: it comes back. */
const TRANSIENT_SERVICE_CODES = new Set(['SERVICE_UNAVAILABLE', 'SERVICE_TIMEOUT']);
/** Driver messages without a code (a pool or connection that went away). */
const TRANSIENT_MESSAGE =
  /Connection terminated|connection is closed|Driver not Connected|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i;

/**
 * Whether a failure is transient: the infrastructure (database, NATS, another service) is
 * unavailable, or a concurrency conflict lost a race. Such a failure is retried for as long as it
 * lasts; anything else (a payload that fails validation, a bug) is retried a bounded number of
 * times and then parked. An event of a newer contract version counts as transient: an upgraded
 * replica takes it.
 */
export function isTransientFailure(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if (current instanceof NewerContractVersion || current instanceof TransientFailure) return true;
    if (current instanceof ServiceError) return TRANSIENT_SERVICE_CODES.has(current.code);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (TRANSIENT_SQLSTATE.test(code) || TRANSIENT_SYSCALL.has(code) || TRANSIENT_NATS.has(code))) return true;
    if (typeof message === 'string' && TRANSIENT_MESSAGE.test(message)) return true;
    // TypeORM's QueryFailedError keeps the driver's error; fetch and others keep theirs as `cause`.
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}
