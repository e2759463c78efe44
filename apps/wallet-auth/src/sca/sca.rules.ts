import { createHash } from 'node:crypto';

/** A login session opened by an SCA login lasts 180 days (the reference's `sessionExpiresAt`). */
export const SCA_SESSION_TTL_MS = 180 * 24 * 3600 * 1000;
/** How long a challenge (login or money movement) may be answered. */
export const SCA_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong proofs a challenge takes before it is invalidated. */
export const SCA_MAX_ATTEMPTS = 5;
/** The shortest interval between two sends of a challenge's SMS code. */
export const SCA_RESEND_INTERVAL_MS = 30 * 1000;
/** 2FA resets a customer may start per 24 hours, and how long one stays open. */
export const SCA_RESETS_PER_DAY = 5;
export const SCA_RESET_TTL_MS = 30 * 60 * 1000;
export const DAY_MS = 24 * 3600 * 1000;

/** Each 5 failed login attempts escalate the lock: 15 minutes, 30 minutes, 1 hour, 24 hours, then suspended. */
export const FAILED_ATTEMPTS_PER_LOCK = 5;
const LOCK_DURATIONS_MS = [15 * 60 * 1000, 30 * 60 * 1000, 3600 * 1000, 24 * 3600 * 1000];

export interface LockState {
  failedAttempts: number;
  lockLevel: number;
  lockedUntil: Date | null;
  suspended: boolean;
}

/** The state after one more failed attempt at `now` (a lock is set each time the count reaches a multiple of 5). */
export function afterFailedAttempt(state: LockState, now: Date): LockState {
  const failedAttempts = state.failedAttempts + 1;
  if (failedAttempts % FAILED_ATTEMPTS_PER_LOCK !== 0) return { ...state, failedAttempts };
  const lockLevel = Math.min(state.lockLevel + 1, LOCK_DURATIONS_MS.length + 1);
  if (lockLevel > LOCK_DURATIONS_MS.length) return { failedAttempts, lockLevel, lockedUntil: null, suspended: true };
  return { failedAttempts, lockLevel, lockedUntil: new Date(now.getTime() + LOCK_DURATIONS_MS[lockLevel - 1]), suspended: false };
}

export function isLocked(state: LockState, now: Date): boolean {
  return state.suspended || (state.lockedUntil !== null && state.lockedUntil > now);
}

export interface ScaBinding {
  amount: string;
  currency: string;
  payee: string;
}

/**
 * Dynamic linking: the digest a challenge is bound to (amount, currency, payee). Its code's MAC
 * and its passkey challenge are derived from it, so an authorization proves this exact payment.
 */
export function bindingDigest(binding: ScaBinding): string {
  return createHash('sha256')
    .update(JSON.stringify([binding.amount, binding.currency, binding.payee]), 'utf8')
    .digest('hex');
}

/** The WebAuthn challenge text of a challenge (the client signs its UTF-8 text): over its id and binding. */
export function passkeyChallengeOf(challengeId: string, digest: string): string {
  return createHash('sha256').update(`${challengeId}:${digest}`, 'utf8').digest('hex');
}

/** What an SMS code's MAC covers: the code with the challenge and its binding, so a code proves one payment only. */
export function codeMacInput(challengeId: string, digest: string, code: string): string {
  return `sca:${challengeId}:${digest}:${code}`;
}
