import { ErrorCode, httpStatusOf, isErrorCode } from './error-codes';

/** One invalid field of a 400 INVALID_INPUT, as the spec's `details.errors[]` lists it. */
export interface FieldError {
  field: string;
  message: string;
  constraint?: FieldConstraint;
}

export interface FieldConstraint {
  format?: string;
  pattern?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  [other: string]: unknown;
}

export type ErrorDetails = Record<string, unknown>;

/** What crosses the transport when a service refuses a request. */
export interface SerializedServiceError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
  /** Extra HTTP headers the gateway should set (e.g. Retry-After on 429). */
  headers?: Record<string, string>;
}

/**
 * The single error type of the domain. Services throw it; the transport carries
 * `{code, message, details}`; the gateway turns it into the spec's envelope.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  get status(): number {
    return httpStatusOf(this.code);
  }

  static invalidInput(errors: FieldError[], message = 'Request validation failed'): ServiceError {
    return new ServiceError('INVALID_INPUT', message, { errors });
  }

  static invalidField(field: string, message: string, constraint?: FieldConstraint): ServiceError {
    return ServiceError.invalidInput([{ field, message, ...(constraint ? { constraint } : {}) }]);
  }

  /**
   * An id in a request body that names nothing the caller may use (unknown, another platform's, or
   * outside an agent's customer): 400 INVALID_INPUT naming the field, as the reference declares
   * for those operations. An unknown id in the path stays the resource's 404. `details.reason`
   * UNKNOWN_REFERENCE tells it from a malformed request: the same body may pass once the id exists.
   */
  static unknownReference(field: string, message: string): ServiceError {
    return new ServiceError('INVALID_INPUT', 'Request validation failed', { errors: [{ field, message }], reason: 'UNKNOWN_REFERENCE' });
  }

  /** 401 with the failed check named in `details.reason`, as the spec asks. */
  static unauthorized(reason: string, code: ErrorCode = 'UNAUTHORIZED'): ServiceError {
    return new ServiceError(code, reason, { reason });
  }

  toJSON(): SerializedServiceError {
    return {
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...(this.headers ? { headers: this.headers } : {}),
    };
  }

  static fromSerialized(value: unknown): ServiceError | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    const candidate = value as Partial<SerializedServiceError>;
    if (!isErrorCode(candidate.code) || typeof candidate.message !== 'string') return undefined;
    return new ServiceError(candidate.code, candidate.message, candidate.details, candidate.headers);
  }
}
