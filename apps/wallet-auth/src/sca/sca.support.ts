import { createHash } from 'node:crypto';
import { Customer, SecurityState } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { LockState } from './sca.rules';

// What the SCA use cases share: digests, the errors they answer with, the verified phone rule.

export function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function invalidProof(message: string, reason: string, details: Record<string, unknown> = {}): ServiceError {
  return new ServiceError('INVALID_INPUT', message, { reason, ...details });
}

export function rateLimited(message: string, waitMs: number): ServiceError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new ServiceError('RATE_LIMITED', message, { retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) });
}

export function accountLocked(state: LockState): ServiceError {
  return new ServiceError(
    'ACCOUNT_LOCKED',
    state.suspended ? "The customer's login is suspended: a password reset (RESET_PASSWORD_COMPLETED) lifts it" : "The customer's login is locked",
    {
      suspended: state.suspended,
      lockedUntil: state.suspended || !state.lockedUntil ? null : state.lockedUntil.toISOString(),
      failedAttempts: state.failedAttempts,
    },
  );
}

export function toSecurityState(eventType: SecurityState['eventType'], state: LockState): SecurityState {
  return {
    eventType,
    suspended: state.suspended,
    lockedUntil: state.suspended || !state.lockedUntil ? null : state.lockedUntil.toISOString(),
    failedAttempts: state.failedAttempts,
  };
}

/**
 * SMS_OTP rides on the customer's phone once verified: a phone the provider asks to verify
 * (contact verification) counts once VERIFIED, any other phone number as it is.
 */
export function hasVerifiedPhone(customer: Customer): boolean {
  return Boolean(customer.phoneNumber) && customer.contactVerification?.phone !== 'PENDING';
}
