export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type InternalAccountStatus = (typeof INTERNAL_ACCOUNT_STATUSES)[number];
/** Statuses the sandbox simulator can move an account to (PENDING is never entered again). */
export const INTERNAL_ACCOUNT_TARGET_STATUSES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type InternalAccountTargetStatus = (typeof INTERNAL_ACCOUNT_TARGET_STATUSES)[number];
export const TRANSACTION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** OUTGOING: transfer-out (internal to external); INCOMING: transfer-in (external to internal). */
export const TRANSACTION_TYPES = ['OUTGOING', 'INCOMING'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const HOLD_STATUSES = ['PENDING', 'CAPTURED', 'RELEASED'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];
