export const EXTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE'] as const;
export type ExternalAccountStatus = (typeof EXTERNAL_ACCOUNT_STATUSES)[number];

export const BENEFICIARY_VERIFICATION_STATUSES = ['MATCHED', 'NOT_MATCHED', 'PARTIAL_MATCH', 'PENDING', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI'] as const;
export type BeneficiaryVerificationStatus = (typeof BENEFICIARY_VERIFICATION_STATUSES)[number];

export const EXTERNAL_ACCOUNT_OWNER_TYPES = ['CUSTOMER', 'PLATFORM'] as const;
export type ExternalAccountOwnerType = (typeof EXTERNAL_ACCOUNT_OWNER_TYPES)[number];

export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type BeneficiaryType = (typeof BENEFICIARY_TYPES)[number];
export const BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];
export const COP_DOCUMENT_TYPES = ['CC', 'CE', 'TI', 'NIT', 'PP'] as const;

/** The spec's accountInfo table: each accountType and the currency it must be created with. */
export const ACCOUNT_TYPE_CURRENCY = {
  USD_ACCOUNT: 'USD',
  MXN_ACCOUNT: 'MXN',
  BRL_ACCOUNT: 'BRL',
  COP_ACCOUNT: 'COP',
  SLV_ACCOUNT: 'USD',
  EUR_ACCOUNT: 'EUR',
  PHP_ACCOUNT: 'PHP',
  GBP_ACCOUNT: 'GBP',
  INR_ACCOUNT: 'INR',
  NGN_ACCOUNT: 'NGN',
  ZAR_ACCOUNT: 'ZAR',
  KES_ACCOUNT: 'KES',
  TZS_ACCOUNT: 'TZS',
  ZMW_ACCOUNT: 'ZMW',
  RWF_ACCOUNT: 'RWF',
  MWK_ACCOUNT: 'MWK',
  UGX_ACCOUNT: 'UGX',
  XOF_ACCOUNT: 'XOF',
  CAD_ACCOUNT: 'CAD',
  /** The currency the destination holds: any. */
  SWIFT_ACCOUNT: null,
  LN_WALLET: 'BTC',
} as const satisfies Record<string, string | null>;
export type AccountType = keyof typeof ACCOUNT_TYPE_CURRENCY;
export const ACCOUNT_TYPES = Object.keys(ACCOUNT_TYPE_CURRENCY) as AccountType[];

/**
 * Mobile-money operator codes accepted per corridor (upper-case operator names), as many as the
 * spec counts: KES 1, TZS 2, ZMW 4, RWF 2, MWK 2, UGX 2. XOF's list is this product's choice.
 */
export const MOBILE_MONEY_PROVIDERS = {
  KES_ACCOUNT: ['MPESA'],
  TZS_ACCOUNT: ['VODACOM', 'AIRTEL'],
  ZMW_ACCOUNT: ['MTN', 'AIRTEL', 'ZAMTEL', 'ZEDMOBILE'],
  RWF_ACCOUNT: ['MTN', 'AIRTEL'],
  MWK_ACCOUNT: ['AIRTEL', 'TNM'],
  UGX_ACCOUNT: ['MTN', 'AIRTEL'],
  XOF_ACCOUNT: ['ORANGE', 'MTN', 'MOOV', 'WAVE'],
} as const;
