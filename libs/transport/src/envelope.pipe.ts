import { PipeTransform } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { MessageEnvelope } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { validateContract } from '@paykit/validation';

/**
 * Validates an incoming message against its contract before any handler logic runs:
 * the caller context must be present and the payload must satisfy the contract class.
 */
export class EnvelopePipe<T extends object> implements PipeTransform<unknown, MessageEnvelope<T>> {
  constructor(private readonly contract: ClassConstructor<T>) {}

  transform(value: unknown): MessageEnvelope<T> {
    const { ctx, payload } = callerEnvelope(value);
    return { ctx, payload: validateContract(this.contract, payload ?? {}) };
  }
}

/** For a message whose handler reads no payload: only the caller context is checked. */
export class CallerContextPipe implements PipeTransform<unknown, MessageEnvelope<unknown>> {
  transform(value: unknown): MessageEnvelope<unknown> {
    return callerEnvelope(value);
  }
}

function callerEnvelope(value: unknown): MessageEnvelope<unknown> {
  const envelope = value as Partial<MessageEnvelope<unknown>> | undefined;
  const ctx = envelope?.ctx;
  if (!ctx || typeof ctx.platformId !== 'string' || !ctx.platformId || (ctx.environment !== 'sandbox' && ctx.environment !== 'production')) {
    throw new ServiceError('INVALID_REQUEST_FORMAT', 'Message lacks a caller context');
  }
  return { ctx, payload: envelope.payload };
}
