import { ServiceError } from '@paykit/errors';

/**
 * The sandbox's legacy fixed `Service-Wallet-Signature` value. Accepted for sandbox tokens on a
 * sandbox deployment only, skipping the signature check, and logged as legacy use.
 */
export const LEGACY_SANDBOX_WALLET_SIGNATURE = 'sandbox-valid-signature';

/** The `reason` of every 401 the signed retry can answer, one per failed check. */
export const SIGNED_RETRY_FAILURE_REASONS = Object.freeze({
  signatureMissing: 'Service-Wallet-Signature header is required on the signed retry',
  requestIdMissing: 'Request-Id header is required on the signed retry',
  requestIdUnknown: 'Request-Id does not match a pending signed-retry challenge for this account',
  requestIdUsed: 'Request-Id has already been used',
  challengeExpired: 'signed-retry challenge has expired',
  bodyMismatch: 'request differs from the request the challenge was issued for',
  keyNotSession: 'signing key is not an active session key of this account',
  keyNotBound: 'signing key is not the key this challenge is bound to',
  signatureInvalid: 'signature does not verify over payloadToSign',
  sameCredential: 'must be signed by a session of a different credential',
} as const);

export type SignedRetryFailureReason = (typeof SIGNED_RETRY_FAILURE_REASONS)[keyof typeof SIGNED_RETRY_FAILURE_REASONS];

export const signedRetryErrors = {
  signatureMissing: () => ServiceError.unauthorized(SIGNED_RETRY_FAILURE_REASONS.signatureMissing, 'WALLET_SIGNATURE_MISSING'),
  requestIdMissing: () => ServiceError.unauthorized(SIGNED_RETRY_FAILURE_REASONS.requestIdMissing, 'REQUEST_ID_MISSING'),
  requestIdUnknown: () => ServiceError.unauthorized(SIGNED_RETRY_FAILURE_REASONS.requestIdUnknown),
  requestIdUsed: () => ServiceError.unauthorized(SIGNED_RETRY_FAILURE_REASONS.requestIdUsed),
  expired: () => ServiceError.unauthorized(SIGNED_RETRY_FAILURE_REASONS.challengeExpired),
  bodyMismatch: () => ServiceError.unauthorized(SIGNED_RETRY_FAILURE_REASONS.bodyMismatch, 'WALLET_SIGNATURE_BODY_MISMATCH'),
  malformed: (detail: string) => new ServiceError('WALLET_SIGNATURE_MALFORMED', detail, { reason: detail }),
  invalid: (reason: SignedRetryFailureReason) => ServiceError.unauthorized(reason, 'WALLET_SIGNATURE_INVALID'),
};
