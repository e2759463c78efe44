export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type InternalAccountStatus = (typeof INTERNAL_ACCOUNT_STATUSES)[number];
/** Statuses the sandbox simulator can move an account to (PENDING is never entered again). */
export const INTERNAL_ACCOUNT_TARGET_STATUSES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type InternalAccountTargetStatus = (typeof INTERNAL_ACCOUNT_TARGET_STATUSES)[number];
/** The statuses a transfer of this service enters (a subset of the reference's TransactionStatus). */
export const TRANSACTION_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The statuses of a transaction's refund (the reference's Refund.status). */
export const REFUND_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Why a transaction was refunded (the reference's Refund.reason). */
export const REFUND_REASONS = ['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/** Every transaction status the API defines: accepted as a list filter (statuses never entered match nothing). */
export const TRANSACTION_STATUS_FILTERS = ['CREATED', 'PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'] as const;
export type TransactionStatusFilter = (typeof TRANSACTION_STATUS_FILTERS)[number];
/** CREDIT: funds arrive in the internal account (transfer-in); DEBIT: funds leave it (transfer-out). */
export const TRANSACTION_DIRECTIONS = ['CREDIT', 'DEBIT'] as const;
export type TransactionDirection = (typeof TRANSACTION_DIRECTIONS)[number];
/** Why an OUTGOING transaction FAILED (the API's enum). */
export const OUTGOING_FAILURE_REASONS = [
  'QUOTE_EXPIRED',
  'QUOTE_RATE_UNAVAILABLE',
  'QUOTE_EXECUTION_FAILED',
  'FUNDING_AMOUNT_MISMATCH',
  'SCA_NOT_COMPLETED',
  'PAYOUT_RETURNED',
  'LIMIT_EXCEEDED',
  'ACCOUNT_CANNOT_RECEIVE',
  'ACCOUNT_INVALID',
  'COMPLIANCE_REJECTED',
  'LIGHTNING_PAYMENT_FAILED',
  'COUNTERPARTY_POST_TX_FAILED',
] as const;
export type OutgoingFailureReason = (typeof OUTGOING_FAILURE_REASONS)[number];
/** Why an INCOMING transaction FAILED (the API's enum). */
export const INCOMING_FAILURE_REASONS = [
  'LNURLP_FAILED',
  'PAY_REQUEST_FAILED',
  'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  'PAYMENT_APPROVAL_TIMED_OUT',
  'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA',
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED',
  'COMPLIANCE_REJECTED',
  'COLLECTION_FAILED',
] as const;
export type IncomingFailureReason = (typeof INCOMING_FAILURE_REASONS)[number];
/** Payment rails a transfer may name (the API's PaymentRail enum). */
export const PAYMENT_RAILS = [
  'ACH',
  'ACH_COLOMBIA',
  'BANK_TRANSFER',
  'BRE_B',
  'CIPS',
  'FAST',
  'FASTER_PAYMENTS',
  'FEDNOW',
  'INSTAPAY',
  'MOBILE_MONEY',
  'NEFT',
  'PAYNOW',
  'PESONET',
  'PIX',
  'RTGS',
  'RTP',
  'SEPA',
  'SEPA_INSTANT',
  'SPEI',
  'SWIFT',
  'UNIONPAY',
  'UPI',
  'WIRE',
] as const;
export type PaymentRail = (typeof PAYMENT_RAILS)[number];
/** AUTO: the service chose the rail; MANUAL: the request named it. */
export const RAIL_SELECTION_MODES = ['AUTO', 'MANUAL'] as const;
export type RailSelectionMode = (typeof RAIL_SELECTION_MODES)[number];
/** What a payment is for (the API's PurposeOfPayment enum). */
export const PURPOSES_OF_PAYMENT = [
  'GIFT',
  'SELF',
  'GOODS_OR_SERVICES',
  'EDUCATION',
  'HEALTH_OR_MEDICAL',
  'REAL_ESTATE_PURCHASE',
  'TAX_PAYMENT',
  'LOAN_PAYMENT',
  'UTILITY_BILL',
  'DONATION',
  'TRAVEL',
  'FAMILY_SUPPORT',
  'SALARY_PAYMENT',
  'OTHER',
] as const;
export type PurposeOfPayment = (typeof PURPOSES_OF_PAYMENT)[number];
/** Account types of a funding instruction's `accountOrWalletInfo` (the API's PaymentAccountType enum). */
export const PAYMENT_ACCOUNT_TYPES = [
  'USD_ACCOUNT',
  'BRL_ACCOUNT',
  'MXN_ACCOUNT',
  'DKK_ACCOUNT',
  'ARS_ACCOUNT',
  'COP_ACCOUNT',
  'EUR_ACCOUNT',
  'INR_ACCOUNT',
  'NGN_ACCOUNT',
  'CAD_ACCOUNT',
  'GBP_ACCOUNT',
  'HKD_ACCOUNT',
  'IDR_ACCOUNT',
  'MYR_ACCOUNT',
  'PHP_ACCOUNT',
  'SGD_ACCOUNT',
  'THB_ACCOUNT',
  'VND_ACCOUNT',
  'SWIFT_ACCOUNT',
  'LN_WALLET',
  'LIGHTNING',
  'SOLANA_WALLET',
  'TRON_WALLET',
  'PLASMA_WALLET',
  'POLYGON_WALLET',
  'BASE_WALLET',
  'ETHEREUM_WALLET',
  'EMBEDDED_WALLET',
  'BITCOIN_L1',
  'AED_ACCOUNT',
  'KES_ACCOUNT',
  'MWK_ACCOUNT',
  'RWF_ACCOUNT',
  'TZS_ACCOUNT',
  'UGX_ACCOUNT',
  'XOF_ACCOUNT',
  'ZAR_ACCOUNT',
  'ZMW_ACCOUNT',
  'BWP_ACCOUNT',
  'XAF_ACCOUNT',
] as const;
export type PaymentAccountType = (typeof PAYMENT_ACCOUNT_TYPES)[number];
/** OUTGOING: transfer-out (internal to external); INCOMING: transfer-in (external to internal). */
export const TRANSACTION_TYPES = ['OUTGOING', 'INCOMING'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const HOLD_STATUSES = ['PENDING', 'CAPTURED', 'RELEASED'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];
