import { ServiceError } from '@paykit/errors';
import { OidcTokenError } from '../crypto/oidc-token';
import { OtpBundleError } from '../crypto/otp-bundle';
import { WEBAUTHN_FAILURE_REASONS, WebAuthnError } from '../crypto/webauthn';

/** The sandbox's legacy fixed passkey assertion signature (sandbox tokens only; skips WebAuthn checks). */
export const LEGACY_SANDBOX_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';

/** The `reason` of each 401 of the OTP and passkey flows (OIDC and WebAuthn reasons live with their checks). */
export const CREDENTIAL_FAILURE_REASONS = Object.freeze({
  invalidOtpCode: 'Invalid OTP code',
  noPendingOtp: 'no pending OTP challenge for this credential; request a new one',
  otpExpired: 'OTP has expired; request a new one',
  otpAttemptsExhausted: 'OTP attempts exhausted; request a new one',
  otpNotDecryptable: 'encryptedOtpBundle does not decrypt with the key of the pending challenge',
  passkeyRequestIdUnknown: 'Request-Id does not match a pending passkey challenge for this credential',
  passkeyRequestIdUsed: 'Request-Id has already been used',
  passkeyChallengeExpired: 'passkey challenge has expired',
  oidcTokenReplayed: 'OIDC token has already been used',
} as const);

export function credentialNotFound(id: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Credential ${id} not found`);
}

/** OIDC: a malformed JWT is 400 INVALID_INPUT (before any 401); a failed check is 401 with its reason. */
export function fromOidcError(error: unknown): unknown {
  if (!(error instanceof OidcTokenError)) return error;
  switch (error.kind) {
    case 'MALFORMED':
      return ServiceError.invalidField('oidcToken', error.reason);
    case 'UNAUTHORIZED':
      return ServiceError.unauthorized(error.reason);
    case 'KEY_SET_UNAVAILABLE':
      return new ServiceError('SERVICE_UNAVAILABLE', error.reason, { reason: error.reason });
  }
}

/** WebAuthn: unreadable input is 400 on the field; a failed check is 401 with its reason. */
export function fromWebAuthnError(error: unknown, field: 'attestation' | 'assertion'): unknown {
  if (!(error instanceof WebAuthnError)) return error;
  if (error.reason === WEBAUTHN_FAILURE_REASONS.malformed) return ServiceError.invalidField(field, error.message);
  return ServiceError.unauthorized(error.reason);
}

/** OTP bundle: unreadable input is 400; a bundle that does not open with the challenge key is 401. */
export function fromOtpBundleError(error: unknown): unknown {
  if (!(error instanceof OtpBundleError)) return error;
  switch (error.kind) {
    case 'MALFORMED':
    case 'INVALID_PLAINTEXT':
      return ServiceError.invalidField('encryptedOtpBundle', error.message);
    case 'DECRYPTION_FAILED':
    case 'INVALID_TARGET_KEY':
      return ServiceError.unauthorized(CREDENTIAL_FAILURE_REASONS.otpNotDecryptable);
  }
}
