import { PaymentRail } from '../payments/enums';

/**
 * One list of corridors: every external account type, with the currency it holds, its
 * accountInfo fields (names, formats, which are required), the payment rails it reaches, how its
 * beneficiary is described, and which fields identify the destination. The contract classes, the
 * OpenAPI schemas, the service's rules, the sandbox identifier and the discovery corridors are
 * all read from here, so a new corridor is one entry.
 *
 * Formats follow the reference API document; where SPEC.md speaks for one of its 21 types (for
 * example USD account numbers of 4 to 17 digits, or the mobile-money operators it counts), the
 * spec's rule is kept.
 */

export const ACCOUNT_TYPES = [
  'AED_ACCOUNT',
  'BDT_ACCOUNT',
  'BRL_ACCOUNT',
  'BWP_ACCOUNT',
  'CAD_ACCOUNT',
  'CNY_ACCOUNT',
  'COP_ACCOUNT',
  'DKK_ACCOUNT',
  'EGP_ACCOUNT',
  'EUR_ACCOUNT',
  'GBP_ACCOUNT',
  'GHS_ACCOUNT',
  'GTQ_ACCOUNT',
  'HKD_ACCOUNT',
  'HTG_ACCOUNT',
  'IDR_ACCOUNT',
  'INR_ACCOUNT',
  'JMD_ACCOUNT',
  'KES_ACCOUNT',
  'MWK_ACCOUNT',
  'MXN_ACCOUNT',
  'MYR_ACCOUNT',
  'NGN_ACCOUNT',
  'PHP_ACCOUNT',
  'PKR_ACCOUNT',
  'RWF_ACCOUNT',
  'SGD_ACCOUNT',
  'SLV_ACCOUNT',
  'THB_ACCOUNT',
  'TZS_ACCOUNT',
  'UGX_ACCOUNT',
  'USD_ACCOUNT',
  'VND_ACCOUNT',
  'XAF_ACCOUNT',
  'XOF_ACCOUNT',
  'ZAR_ACCOUNT',
  'ZMW_ACCOUNT',
  'SWIFT_ACCOUNT',
  'BASE_WALLET',
  'ETHEREUM_WALLET',
  'LIGHTNING',
  'PLASMA_WALLET',
  'POLYGON_WALLET',
  'SOLANA_WALLET',
  'LN_WALLET',
  'TRON_WALLET',
] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const BANK_ACCOUNT_TYPES = ['CHECKING', 'SAVINGS'] as const;
export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];
export const COP_DOCUMENT_TYPES = ['CC', 'CE', 'TI', 'NIT', 'PP'] as const;

/** Blockchain networks of the wallet types (the reference's CryptoNetwork values they use). */
export const WALLET_NETWORKS = ['SOLANA', 'ETHEREUM', 'BASE', 'POLYGON', 'PLASMA', 'TRON', 'LIGHTNING'] as const;
export type WalletNetwork = (typeof WALLET_NETWORKS)[number];

/** Stablecoins a wallet on these networks holds (the reference's wallet assetType values). */
export const STABLECOINS = ['USDC', 'USDT'] as const;

/** One accountInfo field: its format and whether a create must give it. */
export interface CorridorField {
  required?: boolean;
  /** Whole-value pattern; `patternText` says it in words for the error message. */
  pattern?: RegExp;
  patternText?: string;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  /** An ISO 3166-1 alpha-2 country code. */
  country?: boolean;
  description: string;
  example: string;
}

/**
 * How the beneficiary is described: `bank` accounts must name one (individual or business);
 * `wallet` accounts may (a hosted wallet's owner, for travel-rule checks); `none` have none.
 */
export type BeneficiaryKind = 'bank' | 'wallet' | 'none';

export interface Corridor {
  /** Name of the accountInfo schema in the OpenAPI document. */
  schema: string;
  /** The currency an account of this type is created with; null: any fiat currency (SWIFT). */
  currencies: readonly string[] | null;
  /** Where the destination is, when the type names one country (discovery lists). */
  country?: string;
  fields: Record<string, CorridorField>;
  /** Rails the destination can be paid by, in the reference's order. */
  paymentRails: readonly PaymentRail[];
  beneficiary: BeneficiaryKind;
  /** Beneficiary fields an INDIVIDUAL must give here, beyond beneficiaryType and fullName. */
  individualRequires?: readonly string[];
  /** The fields that name the destination, most specific first: the first present one is the primary identifier. */
  identifiers: readonly string[];
  /** Fields that together name one destination (duplicate detection). */
  identifying: readonly string[];
  /** Among `identifiers`, at least one must be given (the reference leaves each optional). */
  oneOf?: readonly string[];
  /** bankName is checked against the discovery list of the corridor: an error (SPEC.md) or a warning. */
  bankNameList?: 'error' | 'warning';
  /** Wallet types: the network the address lives on. */
  network?: WalletNetwork;
}

// ---- field formats shared by several corridors ----
const SWIFT_PATTERN = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const SWIFT_TEXT = 'a SWIFT/BIC code (8 or 11 characters: bank, country, location, optional branch)';
const INTERNATIONAL_PHONE = /^\+[0-9]{6,14}$/;
const INTERNATIONAL_PHONE_TEXT = '+ then 6 to 14 digits (international format)';

const text = (description: string, example: string, required = false, maxLength = 255): CorridorField => ({ required, minLength: 1, maxLength, description, example });
const accountNumber = (required: boolean, example = '1234567890'): CorridorField => text('Account number (sensitive: masked in lists)', example, required, 34);
const bankName = (required: boolean, example: string, description = 'Name of the receiving bank or provider'): CorridorField => text(description, example, required);
const swiftCode = (required: boolean, example: string): CorridorField => ({
  required,
  pattern: SWIFT_PATTERN,
  patternText: SWIFT_TEXT,
  minLength: 8,
  maxLength: 11,
  description: 'SWIFT/BIC code of the receiving bank',
  example,
});
const phone = (
  required: boolean,
  example = '+1234567890',
  pattern = INTERNATIONAL_PHONE,
  patternText = INTERNATIONAL_PHONE_TEXT,
  description = 'Mobile-money phone number',
): CorridorField => ({
  required,
  pattern,
  patternText,
  minLength: 7,
  maxLength: 15,
  description,
  example,
});
const provider = (values?: readonly string[]): CorridorField => ({
  required: true,
  ...(values ? { enum: values } : { minLength: 1, maxLength: 255 }),
  description: 'Mobile-money operator',
  example: values?.[0] ?? 'MTN',
});
const iban = (required: boolean, pattern: RegExp, length: [number, number], example: string, patternText: string): CorridorField => ({
  required,
  pattern,
  patternText,
  minLength: length[0],
  maxLength: length[1],
  description: 'IBAN, electronic format without spaces (sensitive: masked in lists)',
  example,
});
const bankAccountType = (required: boolean): CorridorField => ({ required, enum: BANK_ACCOUNT_TYPES, description: 'Checking or savings account', example: 'CHECKING' });
const branchCode = (required: boolean): CorridorField => ({
  required,
  pattern: /^[0-9]{5}$/,
  patternText: '5 digits',
  minLength: 5,
  maxLength: 5,
  description: 'Branch code, 5 digits',
  example: '00012',
});
const walletAddress = (pattern: RegExp, patternText: string, example: string): CorridorField => ({
  required: true,
  pattern,
  patternText,
  description: 'Wallet address on the network',
  example,
});
const vaspName: CorridorField = text('Name of the VASP hosting the wallet; absent for a self-custody wallet', 'Kraken');

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_TEXT = '0x then 40 hexadecimal characters';
const EVM_EXAMPLE = '0xAbCDEF1234567890aBCdEf1234567890ABcDef12';

/**
 * Mobile-money operators SPEC.md counts for its corridors (KES 1, TZS 2, ZMW 4, RWF 2, MWK 2,
 * UGX 2); XOF's list is this product's choice. Other corridors take any operator name.
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

const mobileMoney = (
  accountType: keyof typeof MOBILE_MONEY_PROVIDERS | 'BWP_ACCOUNT' | 'XAF_ACCOUNT',
  currency: string,
  country: string | undefined,
  phoneField: CorridorField,
  extra: Record<string, CorridorField> = {},
): Corridor => ({
  schema: `${accountType.slice(0, 1)}${accountType.slice(1, 3).toLowerCase()}AccountInfo`,
  currencies: [currency],
  ...(country ? { country } : {}),
  fields: {
    phoneNumber: phoneField,
    provider: provider(accountType in MOBILE_MONEY_PROVIDERS ? MOBILE_MONEY_PROVIDERS[accountType as keyof typeof MOBILE_MONEY_PROVIDERS] : undefined),
    ...extra,
  },
  paymentRails: ['MOBILE_MONEY'],
  beneficiary: 'bank',
  identifiers: ['phoneNumber'],
  identifying: ['provider', 'phoneNumber'],
});

const wallet = (schema: string, network: WalletNetwork, address: CorridorField): Corridor => ({
  schema,
  currencies: STABLECOINS,
  fields: { address, vaspName },
  paymentRails: [],
  beneficiary: 'wallet',
  individualRequires: ['countryOfResidence'],
  identifiers: ['address'],
  identifying: ['address'],
  network,
});

/** Bank (or mobile money) corridors named by an account number and a bank, with a SWIFT code (Asia). */
const swiftCoded = (schema: string, currency: string, country: string, example: string, rails: readonly PaymentRail[] = ['BANK_TRANSFER'], bankRequired = true): Corridor => ({
  schema,
  currencies: [currency],
  country,
  fields: { bankName: bankName(bankRequired, 'Example Bank'), accountNumber: accountNumber(true), swiftCode: swiftCode(true, example) },
  paymentRails: rails,
  beneficiary: 'bank',
  identifiers: ['accountNumber'],
  identifying: ['swiftCode', 'accountNumber'],
  bankNameList: 'warning',
});

/** Corridors paid by bank transfer or mobile money, naming the bank (or provider) by name. */
const bankOrMobile = (schema: string, currency: string, country: string, extra: Record<string, CorridorField> = {}): Corridor => ({
  schema,
  currencies: [currency],
  country,
  fields: {
    accountNumber: accountNumber(false),
    bankName: bankName(true, 'Example Bank', 'Bank or mobile-money provider, one of GET /discoveries'),
    phoneNumber: phone(false),
    ...extra,
  },
  paymentRails: ['BANK_TRANSFER', 'MOBILE_MONEY'],
  beneficiary: 'bank',
  identifiers: ['accountNumber', 'iban', 'phoneNumber'].filter((f) => f !== 'iban' || 'iban' in extra),
  identifying: ['bankName', 'accountNumber', 'iban', 'phoneNumber'].filter((f) => f !== 'iban' || 'iban' in extra),
  oneOf: ['accountNumber', 'iban', 'phoneNumber'].filter((f) => f !== 'iban' || 'iban' in extra),
  bankNameList: 'warning',
});

export const CORRIDORS: Record<AccountType, Corridor> = {
  AED_ACCOUNT: {
    schema: 'AedAccountInfo',
    currencies: ['AED'],
    country: 'AE',
    fields: {
      iban: iban(true, /^AE[0-9]{21}$/, [23, 23], 'AE070331234567890123456', 'AE then 21 digits'),
      swiftCode: swiftCode(false, 'EBILAEAD'),
    },
    paymentRails: ['BANK_TRANSFER'],
    beneficiary: 'bank',
    individualRequires: ['address'],
    identifiers: ['iban'],
    identifying: ['iban'],
  },
  BDT_ACCOUNT: bankOrMobile('BdtAccountInfo', 'BDT', 'BD', { branchCode: branchCode(false), swiftCode: swiftCode(false, 'BBHOBDDH') }),
  BRL_ACCOUNT: {
    schema: 'BrlAccountInfo',
    currencies: ['BRL'],
    country: 'BR',
    fields: {
      pixKey: text('PIX key, formatted per pixKeyType: CPF 11 digits, CNPJ 14 digits, EMAIL an email, PHONE E.164, RANDOM a UUID', '12345678901', true, 77),
      pixKeyType: { required: true, enum: PIX_KEY_TYPES, description: 'Kind of PIX key', example: 'CPF' },
      // Today's document requires it; its first versions' PIX accounts had no taxId: accepted
      // without, with a warning (accountWarnings), so their clients keep working.
      taxId: {
        required: false,
        pattern: /^[0-9]{11,14}$/,
        patternText: '11 to 14 digits (CPF or CNPJ)',
        minLength: 11,
        maxLength: 14,
        description: "Beneficiary's CPF or CNPJ",
        example: '12345678901',
      },
      bankName: bankName(false, 'Itaú Unibanco'),
    },
    paymentRails: ['PIX'],
    beneficiary: 'bank',
    identifiers: ['pixKey'],
    identifying: ['pixKeyType', 'pixKey'],
  },
  BWP_ACCOUNT: mobileMoney('BWP_ACCOUNT', 'BWP', 'BW', phone(true, '+26771234567')),
  CAD_ACCOUNT: {
    schema: 'CadAccountInfo',
    currencies: ['CAD'],
    country: 'CA',
    fields: {
      bankCode: { required: true, pattern: /^[0-9]{3}$/, patternText: '3 digits', minLength: 3, maxLength: 3, description: 'Institution number, 3 digits', example: '003' },
      branchCode: { ...branchCode(true), description: 'Transit (branch) number, 5 digits' },
      accountNumber: {
        required: true,
        pattern: /^[0-9]{7,12}$/,
        patternText: '7 to 12 digits',
        minLength: 7,
        maxLength: 12,
        description: 'Account number, 7-12 digits (sensitive: masked in lists)',
        example: '1234567',
      },
    },
    paymentRails: ['BANK_TRANSFER'],
    beneficiary: 'bank',
    identifiers: ['accountNumber'],
    identifying: ['bankCode', 'branchCode', 'accountNumber'],
  },
  CNY_ACCOUNT: bankOrMobile('CnyAccountInfo', 'CNY', 'CN'),
  COP_ACCOUNT: {
    schema: 'CopAccountInfo',
    currencies: ['COP'],
    country: 'CO',
    fields: {
      bankName: bankName(true, 'Bancolombia', 'Bank or mobile-money provider, one of GET /discoveries?currency=COP'),
      accountNumber: accountNumber(false, '12345678901'),
      bankAccountType: bankAccountType(false),
      phoneNumber: phone(false, '+573001234567', INTERNATIONAL_PHONE, INTERNATIONAL_PHONE_TEXT, 'Mobile money: phone number in international format'),
    },
    paymentRails: ['BANK_TRANSFER', 'MOBILE_MONEY'],
    beneficiary: 'bank',
    identifiers: ['accountNumber', 'phoneNumber'],
    identifying: ['bankName', 'accountNumber', 'phoneNumber'],
    oneOf: ['accountNumber', 'phoneNumber'],
    bankNameList: 'warning',
  },
  DKK_ACCOUNT: {
    schema: 'DkkAccountInfo',
    currencies: ['DKK'],
    country: 'DK',
    fields: { iban: iban(true, /^DK[0-9]{16}$/, [18, 18], 'DK5000400040116243', 'DK then 16 digits'), swiftCode: swiftCode(false, 'DABADKKK') },
    paymentRails: ['SEPA', 'SEPA_INSTANT'],
    beneficiary: 'bank',
    identifiers: ['iban'],
    identifying: ['iban'],
  },
  EGP_ACCOUNT: bankOrMobile('EgpAccountInfo', 'EGP', 'EG', {
    iban: iban(false, /^EG[0-9]{27}$/, [29, 29], 'EG380019000500000000263180002', 'EG then 27 digits'),
  }),
  EUR_ACCOUNT: {
    schema: 'EurAccountInfo',
    currencies: ['EUR'],
    fields: {
      iban: iban(true, /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/, [15, 34], 'DE89370400440532013000', 'an IBAN: country, 2 check digits, 11 to 30 letters or digits'),
      swiftCode: swiftCode(false, 'COBADEFF'),
      bankName: bankName(false, 'Commerzbank'),
    },
    paymentRails: ['SEPA', 'SEPA_INSTANT'],
    beneficiary: 'bank',
    identifiers: ['iban'],
    identifying: ['iban'],
  },
  GBP_ACCOUNT: {
    schema: 'GbpAccountInfo',
    currencies: ['GBP'],
    country: 'GB',
    fields: {
      sortCode: { required: true, pattern: /^[0-9]{6}$/, patternText: '6 digits', minLength: 6, maxLength: 6, description: 'Sort code, 6 digits', example: '200415' },
      accountNumber: {
        required: true,
        pattern: /^[0-9]{8}$/,
        patternText: '8 digits',
        minLength: 8,
        maxLength: 8,
        description: 'Account number, 8 digits (sensitive: masked in lists)',
        example: '38290008',
      },
    },
    paymentRails: ['FASTER_PAYMENTS'],
    beneficiary: 'bank',
    identifiers: ['accountNumber'],
    identifying: ['sortCode', 'accountNumber'],
  },
  GHS_ACCOUNT: bankOrMobile('GhsAccountInfo', 'GHS', 'GH'),
  GTQ_ACCOUNT: {
    schema: 'GtqAccountInfo',
    currencies: ['GTQ'],
    country: 'GT',
    fields: { accountNumber: accountNumber(true), bankAccountType: bankAccountType(true), bankName: bankName(true, 'Banco Industrial') },
    paymentRails: ['BANK_TRANSFER'],
    beneficiary: 'bank',
    individualRequires: ['countryOfResidence', 'phoneNumber'],
    identifiers: ['accountNumber'],
    identifying: ['bankName', 'accountNumber'],
    bankNameList: 'warning',
  },
  HKD_ACCOUNT: swiftCoded('HkdAccountInfo', 'HKD', 'HK', 'HSBCHKHHHKH'),
  HTG_ACCOUNT: {
    schema: 'HtgAccountInfo',
    currencies: ['HTG'],
    country: 'HT',
    fields: { phoneNumber: phone(true, '+50931234567') },
    paymentRails: ['MOBILE_MONEY'],
    beneficiary: 'bank',
    identifiers: ['phoneNumber'],
    identifying: ['phoneNumber'],
  },
  IDR_ACCOUNT: {
    ...swiftCoded('IdrAccountInfo', 'IDR', 'ID', 'CENAIDJA'),
    fields: {
      bankName: bankName(true, 'Bank Central Asia'),
      accountNumber: accountNumber(true),
      swiftCode: swiftCode(true, 'CENAIDJA'),
      phoneNumber: phone(true, '+6281234567890', /^\+62[0-9]{9,12}$/, '+62 then 9 to 12 digits', "Beneficiary's phone number"),
    },
  },
  INR_ACCOUNT: {
    schema: 'InrAccountInfo',
    currencies: ['INR'],
    country: 'IN',
    fields: {
      vpa: {
        pattern: /^[a-zA-Z0-9._-]+@[a-zA-Z0-9][a-zA-Z0-9.-]*$/,
        patternText: 'a UPI VPA (username@handle)',
        minLength: 3,
        maxLength: 255,
        description: 'UPI virtual payment address (username@handle); or give accountNumber and ifsc',
        example: 'priya.sharma@okaxis',
      },
      accountNumber: {
        pattern: /^[0-9]{9,18}$/,
        patternText: '9 to 18 digits',
        minLength: 9,
        maxLength: 18,
        description: 'Bank account number (NEFT/RTGS), with ifsc',
        example: '000111222333',
      },
      ifsc: {
        pattern: /^[A-Z]{4}0[A-Z0-9]{6}$/,
        patternText: 'an IFSC: 4 letters, 0, then 6 letters or digits',
        minLength: 11,
        maxLength: 11,
        description: 'IFSC of the branch',
        example: 'HDFC0001234',
      },
      rail: text('Preferred bank rail (for example NEFT or RTGS)', 'NEFT', false, 32),
      bankName: bankName(false, 'HDFC Bank'),
    },
    paymentRails: ['UPI', 'NEFT', 'RTGS'],
    beneficiary: 'bank',
    identifiers: ['vpa', 'accountNumber'],
    identifying: ['vpa', 'ifsc', 'accountNumber'],
    oneOf: ['vpa', 'accountNumber'],
  },
  JMD_ACCOUNT: {
    schema: 'JmdAccountInfo',
    currencies: ['JMD'],
    country: 'JM',
    fields: { accountNumber: accountNumber(true), branchCode: branchCode(true), bankAccountType: bankAccountType(true), bankName: bankName(true, 'National Commercial Bank') },
    paymentRails: ['BANK_TRANSFER'],
    beneficiary: 'bank',
    individualRequires: ['address', 'phoneNumber'],
    identifiers: ['accountNumber'],
    identifying: ['bankName', 'branchCode', 'accountNumber'],
    bankNameList: 'warning',
  },
  KES_ACCOUNT: mobileMoney('KES_ACCOUNT', 'KES', 'KE', phone(true, '+254712345678', /^\+254[0-9]{9}$/, '+254 then 9 digits')),
  MWK_ACCOUNT: mobileMoney('MWK_ACCOUNT', 'MWK', 'MW', phone(true, '+265991234567', /^\+265[0-9]{9}$/, '+265 then 9 digits')),
  MXN_ACCOUNT: {
    schema: 'MxnAccountInfo',
    currencies: ['MXN'],
    country: 'MX',
    fields: {
      clabeNumber: {
        required: true,
        pattern: /^[0-9]{18}$/,
        patternText: 'exactly 18 digits',
        minLength: 18,
        maxLength: 18,
        description: 'CLABE, 18 digits (sensitive: masked in lists); a wrong control digit is reported in warnings',
        example: '123456789012345678',
      },
      bankName: bankName(false, 'BBVA México'),
    },
    paymentRails: ['SPEI'],
    beneficiary: 'bank',
    identifiers: ['clabeNumber'],
    identifying: ['clabeNumber'],
  },
  MYR_ACCOUNT: swiftCoded('MyrAccountInfo', 'MYR', 'MY', 'MBBEMYKL'),
  NGN_ACCOUNT: {
    schema: 'NgnAccountInfo',
    currencies: ['NGN'],
    country: 'NG',
    fields: {
      accountNumber: {
        required: true,
        pattern: /^[0-9]{10}$/,
        patternText: 'exactly 10 digits',
        minLength: 10,
        maxLength: 10,
        description: 'NUBAN account number, 10 digits (sensitive: masked in lists)',
        example: '0123456789',
      },
      bankName: bankName(true, 'Access Bank', 'Bank, a bankName of GET /discoveries?currency=NGN'),
    },
    paymentRails: ['BANK_TRANSFER'],
    beneficiary: 'bank',
    identifiers: ['accountNumber'],
    identifying: ['bankName', 'accountNumber'],
    bankNameList: 'warning',
  },
  PHP_ACCOUNT: {
    schema: 'PhpAccountInfo',
    currencies: ['PHP'],
    country: 'PH',
    fields: {
      bankName: bankName(true, 'BDO Unibank', 'Bank, exactly a bankName of GET /discoveries?currency=PHP'),
      accountNumber: {
        required: true,
        pattern: /^[0-9]{8,16}$/,
        patternText: '8 to 16 digits',
        minLength: 8,
        maxLength: 16,
        description: 'Account number, 8-16 digits (sensitive: masked in lists)',
        example: '001234567890',
      },
    },
    paymentRails: ['BANK_TRANSFER'],
    beneficiary: 'bank',
    identifiers: ['accountNumber'],
    identifying: ['bankName', 'accountNumber'],
    bankNameList: 'error',
  },
  PKR_ACCOUNT: bankOrMobile('PkrAccountInfo', 'PKR', 'PK', {
    iban: iban(false, /^PK[0-9]{2}[A-Z]{4}[0-9]{16}$/, [24, 24], 'PK36SCBL0000001123456702', 'PK, 2 check digits, 4 letters, 16 digits'),
  }),
  RWF_ACCOUNT: mobileMoney('RWF_ACCOUNT', 'RWF', 'RW', phone(true, '+250781234567', /^\+250[0-9]{9}$/, '+250 then 9 digits')),
  SGD_ACCOUNT: swiftCoded('SgdAccountInfo', 'SGD', 'SG', 'DBSSSGSG', ['PAYNOW', 'FAST', 'BANK_TRANSFER'], false),
  SLV_ACCOUNT: {
    schema: 'SlvAccountInfo',
    currencies: ['USD'],
    country: 'SV',
    fields: {
      bankName: bankName(false, 'Banco Agrícola', 'Bank transfer: bank, one of GET /discoveries?country=SV'),
      accountNumber: accountNumber(false, '0012345678'),
      bankAccountType: bankAccountType(false),
      phoneNumber: phone(false, '+50370123456', INTERNATIONAL_PHONE, INTERNATIONAL_PHONE_TEXT, 'Mobile money: phone number in international format'),
    },
    paymentRails: ['BANK_TRANSFER', 'MOBILE_MONEY'],
    beneficiary: 'bank',
    identifiers: ['accountNumber', 'phoneNumber'],
    identifying: ['bankName', 'accountNumber', 'phoneNumber'],
    oneOf: ['accountNumber', 'phoneNumber'],
    bankNameList: 'warning',
  },
  THB_ACCOUNT: swiftCoded('ThbAccountInfo', 'THB', 'TH', 'BKKBTHBK'),
  TZS_ACCOUNT: mobileMoney('TZS_ACCOUNT', 'TZS', 'TZ', phone(true, '+255712345678', /^\+255[0-9]{9}$/, '+255 then 9 digits')),
  UGX_ACCOUNT: mobileMoney('UGX_ACCOUNT', 'UGX', 'UG', phone(true, '+256771234567', /^\+256[0-9]{9}$/, '+256 then 9 digits')),
  USD_ACCOUNT: {
    schema: 'UsdAccountInfo',
    currencies: ['USD'],
    country: 'US',
    fields: {
      accountNumber: {
        required: true,
        pattern: /^[0-9]{4,17}$/,
        patternText: '4 to 17 digits',
        minLength: 4,
        maxLength: 17,
        description: 'Account number, 4-17 digits (sensitive: masked in lists)',
        example: '000123456789',
      },
      routingNumber: {
        required: true,
        pattern: /^[0-9]{9}$/,
        patternText: '9 digits',
        minLength: 9,
        maxLength: 9,
        description: 'ABA routing number, 9 digits; a wrong check digit is reported in warnings',
        example: '021000021',
      },
      bankAccountType: bankAccountType(false),
      bankName: bankName(false, 'JPMorgan Chase Bank'),
      intermediaryBankName: text('Wire only: intermediary bank name (ignored on ACH, RTP, FedNow)', 'Citibank', false, 140),
      intermediaryRoutingNumber: {
        pattern: /^[0-9]{9}$/,
        patternText: '9 digits',
        minLength: 9,
        maxLength: 9,
        description: 'Wire only: intermediary routing number, 9 digits (ignored on ACH, RTP, FedNow)',
        example: '021000089',
      },
      fiToFiInformation: { maxLength: 210, description: 'Wire only: FI-to-FI information (ignored on ACH, RTP, FedNow)', example: 'Invoice 2231' },
    },
    paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
    beneficiary: 'bank',
    identifiers: ['accountNumber'],
    identifying: ['routingNumber', 'accountNumber'],
  },
  VND_ACCOUNT: swiftCoded('VndAccountInfo', 'VND', 'VN', 'BFTVVNVX'),
  XAF_ACCOUNT: mobileMoney('XAF_ACCOUNT', 'XAF', undefined, phone(true, '+237671234567'), {
    region: { required: true, enum: ['CM', 'CG'], description: 'Country of the mobile-money account', example: 'CM' },
  }),
  XOF_ACCOUNT: mobileMoney(
    'XOF_ACCOUNT',
    'XOF',
    undefined,
    phone(
      true,
      '+221771234567',
      /^\+(221[0-9]{9}|225[0-9]{10}|229[0-9]{8,9}|228[0-9]{8})$/,
      'Senegal +221 then 9 digits, Ivory Coast +225 then 10 digits, Benin +229 then 8 or 9 digits, Togo +228 then 8 digits',
    ),
    { region: { enum: ['BJ', 'CI', 'SN', 'TG'], description: 'Country of the mobile-money account', example: 'SN' } },
  ),
  ZAR_ACCOUNT: {
    schema: 'ZarAccountInfo',
    currencies: ['ZAR'],
    country: 'ZA',
    fields: {
      accountNumber: {
        required: true,
        pattern: /^[0-9]{9,13}$/,
        patternText: '9 to 13 digits',
        minLength: 9,
        maxLength: 13,
        description: 'Account number, 9-13 digits (sensitive: masked in lists)',
        example: '62001234567',
      },
      bankName: bankName(true, 'First National Bank', 'Bank, a bankName of GET /discoveries?currency=ZAR'),
    },
    paymentRails: ['BANK_TRANSFER'],
    beneficiary: 'bank',
    identifiers: ['accountNumber'],
    identifying: ['bankName', 'accountNumber'],
    bankNameList: 'warning',
  },
  ZMW_ACCOUNT: mobileMoney('ZMW_ACCOUNT', 'ZMW', 'ZM', phone(true, '+260971234567', /^\+260[0-9]{9}$/, '+260 then 9 digits')),
  SWIFT_ACCOUNT: {
    schema: 'SwiftAccountInfo',
    currencies: null,
    fields: {
      country: { required: true, country: true, description: 'Where the bank account is, ISO 3166-1 alpha-2 (may differ from the currency)', example: 'SG' },
      swiftCode: swiftCode(true, 'DBSSSGSG'),
      bankName: bankName(true, 'DBS Bank'),
      accountNumber: { ...accountNumber(false, '0720123456'), description: 'Account number; give this or iban (sensitive: masked in lists)' },
      iban: iban(false, /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$/, [15, 34], 'AE070331234567890123456', 'an IBAN: country, 2 check digits, 11 to 30 letters or digits'),
    },
    paymentRails: ['SWIFT'],
    beneficiary: 'bank',
    identifiers: ['iban', 'accountNumber'],
    identifying: ['swiftCode', 'iban', 'accountNumber'],
    oneOf: ['accountNumber', 'iban'],
  },
  BASE_WALLET: wallet('BaseWalletAccountInfo', 'BASE', walletAddress(EVM_ADDRESS, EVM_TEXT, EVM_EXAMPLE)),
  ETHEREUM_WALLET: wallet('EthereumWalletAccountInfo', 'ETHEREUM', walletAddress(EVM_ADDRESS, EVM_TEXT, EVM_EXAMPLE)),
  LIGHTNING: {
    schema: 'LightningAccountInfo',
    currencies: ['BTC'],
    fields: {
      invoice: text('BOLT11 invoice', 'lnbc15u1p3xnhl2pp5jptserfk3zk4qy42tlucycrfwxhydvlemu9pqr93tuzlv9cc7g3s', false, 4096),
      bolt12: text('BOLT12 offer', 'lno1qgsqvgnwgcg35z6ee2h3yczraddm72xrfua9uve2rlrm9deu7xyfzr', false, 4096),
      lightningAddress: text('Lightning address (user@domain)', 'john.doe@lightningwallet.com'),
    },
    paymentRails: [],
    beneficiary: 'none',
    identifiers: ['lightningAddress', 'invoice', 'bolt12'],
    identifying: ['lightningAddress', 'invoice', 'bolt12'],
    oneOf: ['invoice', 'bolt12', 'lightningAddress'],
    network: 'LIGHTNING',
  },
  PLASMA_WALLET: wallet('PlasmaWalletAccountInfo', 'PLASMA', walletAddress(EVM_ADDRESS, EVM_TEXT, EVM_EXAMPLE)),
  POLYGON_WALLET: wallet('PolygonWalletAccountInfo', 'POLYGON', walletAddress(EVM_ADDRESS, EVM_TEXT, EVM_EXAMPLE)),
  SOLANA_WALLET: wallet(
    'SolanaWalletAccountInfo',
    'SOLANA',
    walletAddress(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'a base58 Solana address (32 to 44 characters)', '4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg'),
  ),
  LN_WALLET: {
    ...wallet('LnWalletAccountInfo', 'LIGHTNING', text('Address of the self-custody wallet', 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu', true, 512)),
    currencies: ['BTC'],
  },
  TRON_WALLET: wallet(
    'TronWalletAccountInfo',
    'TRON',
    walletAddress(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'a base58 Tron address (T then 33 characters)', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'),
  ),
};

/** Types whose address is a self-custody or hosted on-chain wallet (ownership can be verified). */
export const CRYPTO_WALLET_TYPES: readonly AccountType[] = ACCOUNT_TYPES.filter((type) => CORRIDORS[type].beneficiary === 'wallet' && type !== 'LN_WALLET');
