export const AUTH_METHOD_TYPES = ['EMAIL_OTP', 'SMS_OTP', 'PASSKEY', 'OAUTH'] as const;
export type AuthMethodType = (typeof AUTH_METHOD_TYPES)[number];

export const PASSKEY_TRANSPORTS = ['usb', 'nfc', 'ble', 'internal', 'hybrid', 'smart-card', 'cable'] as const;
export type PasskeyTransport = (typeof PASSKEY_TRANSPORTS)[number];

/**
 * Every signed action of the product. A challenge is issued for one operation and only a retry
 * of that operation consumes it. Wire values: frozen (add new ones at the end).
 */
export const SIGNED_OPERATIONS = [
  'CREDENTIAL_ADD',
  'CREDENTIAL_REVOKE',
  'SESSION_REVOKE',
  'SESSION_REFRESH',
  'OTP_VERIFY',
  'WALLET_EXPORT',
  'WALLET_PRIVACY_UPDATE',
  'CUSTOMER_EMAIL_UPDATE',
  'CARD_UPDATE',
  'QUOTE_EXECUTE',
  'TRANSFER_OUT',
  'DELEGATED_KEY_CREATE',
  'DELEGATED_KEY_ACTIVATE',
] as const;
export type SignedOperation = (typeof SIGNED_OPERATIONS)[number];

/** HTTP headers of the signed retry (lower-case, as Fastify exposes them). */
export const WALLET_SIGNATURE_HEADER = 'service-wallet-signature';
export const REQUEST_ID_HEADER = 'request-id';

/** A delegated signing key: PENDING until its activation leg is signed, ACTIVE, then REVOKED. Wire values: frozen. */
export const DELEGATED_KEY_STATUSES = ['PENDING', 'ACTIVE', 'REVOKED'] as const;
export type DelegatedKeyStatus = (typeof DELEGATED_KEY_STATUSES)[number];
