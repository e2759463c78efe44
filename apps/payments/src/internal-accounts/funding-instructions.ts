import { createHash } from 'node:crypto';
import { InternalAccountType, MOBILE_MONEY_PROVIDERS, PaymentAccountInfo, PaymentInstructions } from '@paykit/contracts';

/** What a funding instruction is derived from: the account, never stored state. */
export interface FundingTarget {
  id: string;
  type: InternalAccountType;
  currencyCode: string;
  /** Null for the platform's own accounts. */
  customerId: string | null;
}

const BANK_NAME = 'Sandbox Settlement Bank';
const NOTES = 'Send funds to these details with the reference in the payment memo: they are credited to this internal account.';

/**
 * A stream of digits and letters derived from the account id, so the same account always shows
 * the same instructions (no storage, nothing random) and two accounts never share a reference.
 */
class Derived {
  private readonly digest: Buffer;

  constructor(accountId: string) {
    this.digest = createHash('sha256').update(`funding:${accountId}`).digest();
  }

  /** `count` decimal digits; `salt` picks an independent stream for each field. */
  digits(count: number, salt: string): string {
    let out = '';
    for (let round = 0; out.length < count; round += 1) {
      const block = createHash('sha256').update(this.digest).update(`${salt}:${round}`).digest();
      for (const byte of block) if (byte < 250 && out.length < count) out += String(byte % 10);
    }
    return out;
  }

  /** `count` characters of `alphabet`. */
  chars(count: number, salt: string, alphabet: string): string {
    let out = '';
    for (let round = 0; out.length < count; round += 1) {
      const block = createHash('sha256').update(this.digest).update(`${salt}:${round}`).digest();
      for (const byte of block) if (out.length < count) out += alphabet[byte % alphabet.length];
    }
    return out;
  }

  /** The memo the payer includes: 12 upper-case letters and digits. */
  reference(): string {
    return this.chars(12, 'reference', 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789');
  }
}

/** ISO 7064 mod 97-10 check digits of an IBAN made of `country` and `bban`. */
export function ibanOf(country: string, bban: string): string {
  const rearranged = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

/** A nine-digit routing number whose last digit satisfies the ABA checksum (3-7-1 weights). */
export function routingNumberOf(first8: string): string {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  const sum = [...first8].reduce((total, digit, index) => total + Number(digit) * weights[index], 0);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

/** An 18-digit CLABE whose last digit satisfies its checksum (3-7-1 weights, mod 10). */
export function clabeOf(first17: string): string {
  const weights = [3, 7, 1];
  const sum = [...first17].reduce((total, digit, index) => total + ((Number(digit) * weights[index % 3]) % 10), 0);
  return `${first17}${(10 - (sum % 10)) % 10}`;
}

type Builder = (derived: Derived, reference: string) => PaymentAccountInfo;

const mobileMoney =
  (accountType: PaymentAccountInfo['accountType'], prefix: string, digits: number, provider: string, region?: string): Builder =>
  (derived, reference) => ({
    accountType,
    paymentRails: ['MOBILE_MONEY'],
    reference,
    phoneNumber: `${prefix}${derived.digits(digits, 'phone')}`,
    provider,
    ...(region ? { region } : {}),
  });

const bankTransfer =
  (accountType: PaymentAccountInfo['accountType'], accountDigits: number, swiftCountry?: string): Builder =>
  (derived, reference) => ({
    accountType,
    paymentRails: ['BANK_TRANSFER'],
    reference,
    accountNumber: derived.digits(accountDigits, 'account'),
    bankName: BANK_NAME,
    ...(swiftCountry ? { swiftCode: `SNDB${swiftCountry}2X` } : {}),
  });

/** One instruction per currency the ledger knows; the rails are those the API lists for that account type. */
const BUILDERS: Readonly<Record<string, Builder>> = {
  USD: (derived, reference) => ({
    accountType: 'USD_ACCOUNT',
    paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'],
    reference,
    accountNumber: derived.digits(12, 'account'),
    routingNumber: routingNumberOf(`0${derived.digits(7, 'routing')}`),
    bankName: BANK_NAME,
    bankAccountType: 'CHECKING',
  }),
  EUR: (derived, reference) => ({
    accountType: 'EUR_ACCOUNT',
    paymentRails: ['SEPA', 'SEPA_INSTANT'],
    reference,
    iban: ibanOf('DE', derived.digits(18, 'account')),
    swiftCode: 'SNDBDEFF',
    bankName: BANK_NAME,
  }),
  DKK: (derived, reference) => ({
    accountType: 'DKK_ACCOUNT',
    paymentRails: ['SEPA', 'SEPA_INSTANT'],
    reference,
    iban: ibanOf('DK', derived.digits(14, 'account')),
    swiftCode: 'SNDBDKKK',
  }),
  AED: (derived, reference) => ({
    accountType: 'AED_ACCOUNT',
    paymentRails: ['BANK_TRANSFER'],
    reference,
    iban: ibanOf('AE', derived.digits(19, 'account')),
    swiftCode: 'SNDBAEAD',
  }),
  GBP: (derived, reference) => ({
    accountType: 'GBP_ACCOUNT',
    paymentRails: ['FASTER_PAYMENTS'],
    reference,
    sortCode: derived.digits(6, 'sort'),
    accountNumber: derived.digits(8, 'account'),
  }),
  MXN: (derived, reference) => ({ accountType: 'MXN_ACCOUNT', paymentRails: ['SPEI'], reference, clabeNumber: clabeOf(`646${derived.digits(14, 'account')}`) }),
  BRL: (derived, reference) => ({
    accountType: 'BRL_ACCOUNT',
    qrCode: `00020126580014br.gov.bcb.pix0136${derived.chars(36, 'pix', '0123456789abcdef')}5204000053039865802BR6304${reference.slice(0, 4)}`,
  }),
  COP: (_derived, reference) => ({ accountType: 'COP_ACCOUNT', paymentUrl: `https://pay.sandbox.invalid/cop/${reference}` }),
  INR: (_derived, reference) => ({ accountType: 'INR_ACCOUNT', paymentRails: ['UPI'], vpa: `${reference.toLowerCase()}@sandbox` }),
  PHP: bankTransfer('PHP_ACCOUNT', 12),
  NGN: bankTransfer('NGN_ACCOUNT', 10),
  ZAR: bankTransfer('ZAR_ACCOUNT', 11),
  HKD: bankTransfer('HKD_ACCOUNT', 12, 'HK'),
  MYR: bankTransfer('MYR_ACCOUNT', 12, 'MY'),
  THB: bankTransfer('THB_ACCOUNT', 10, 'TH'),
  VND: bankTransfer('VND_ACCOUNT', 12, 'VN'),
  IDR: (derived, reference) => ({ ...bankTransfer('IDR_ACCOUNT', 12, 'ID')(derived, reference), phoneNumber: `+62${derived.digits(10, 'phone')}` }),
  SGD: (derived, reference) => ({
    accountType: 'SGD_ACCOUNT',
    paymentRails: ['PAYNOW', 'FAST', 'BANK_TRANSFER'],
    reference,
    accountNumber: derived.digits(10, 'account'),
    swiftCode: 'SNDBSGSG',
  }),
  CAD: (derived, reference) => ({
    accountType: 'CAD_ACCOUNT',
    paymentRails: ['BANK_TRANSFER'],
    reference,
    bankCode: derived.digits(3, 'bank'),
    branchCode: derived.digits(5, 'branch'),
    accountNumber: derived.digits(10, 'account'),
  }),
  KES: mobileMoney('KES_ACCOUNT', '+254', 9, MOBILE_MONEY_PROVIDERS.KES_ACCOUNT[0]),
  TZS: mobileMoney('TZS_ACCOUNT', '+255', 9, MOBILE_MONEY_PROVIDERS.TZS_ACCOUNT[0]),
  ZMW: mobileMoney('ZMW_ACCOUNT', '+260', 9, MOBILE_MONEY_PROVIDERS.ZMW_ACCOUNT[0]),
  RWF: mobileMoney('RWF_ACCOUNT', '+250', 9, MOBILE_MONEY_PROVIDERS.RWF_ACCOUNT[0]),
  MWK: mobileMoney('MWK_ACCOUNT', '+265', 9, MOBILE_MONEY_PROVIDERS.MWK_ACCOUNT[0]),
  UGX: mobileMoney('UGX_ACCOUNT', '+256', 9, MOBILE_MONEY_PROVIDERS.UGX_ACCOUNT[0]),
  BWP: mobileMoney('BWP_ACCOUNT', '+267', 8, 'ORANGE'),
  XOF: mobileMoney('XOF_ACCOUNT', '+221', 9, MOBILE_MONEY_PROVIDERS.XOF_ACCOUNT[0], 'SN'),
  XAF: mobileMoney('XAF_ACCOUNT', '+237', 9, 'MTN', 'CM'),
  BTC: (derived) => ({ accountType: 'BITCOIN_L1', address: `bc1q${derived.chars(38, 'address', 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}`, network: 'BITCOIN' }),
  USDC: (derived) => ({ accountType: 'SOLANA_WALLET', address: solanaAddress(derived), assetType: 'USDC' }),
  USDT: (derived) => ({ accountType: 'SOLANA_WALLET', address: solanaAddress(derived), assetType: 'USDT' }),
};

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function solanaAddress(derived: Derived): string {
  return derived.chars(44, 'address', BASE58);
}

/** A stablecoin's deposit wallet on a named network (the quote's `source.cryptoNetwork`), in that network's address form. */
const STABLECOIN_WALLETS: Readonly<Record<string, (derived: Derived, assetType: string) => PaymentAccountInfo>> = {
  SOLANA: (derived, assetType) => ({ accountType: 'SOLANA_WALLET', address: solanaAddress(derived), assetType }),
  TRON: (derived, assetType) => ({ accountType: 'TRON_WALLET', address: `T${derived.chars(33, 'address', BASE58)}`, assetType }),
  ETHEREUM: (derived, assetType) => ({ accountType: 'ETHEREUM_WALLET', address: evmAddress(derived), assetType }),
  BASE: (derived, assetType) => ({ accountType: 'BASE_WALLET', address: evmAddress(derived), assetType }),
  POLYGON: (derived, assetType) => ({ accountType: 'POLYGON_WALLET', address: evmAddress(derived), assetType }),
  PLASMA: (derived, assetType) => ({ accountType: 'PLASMA_WALLET', address: evmAddress(derived), assetType }),
};

function evmAddress(derived: Derived): string {
  return `0x${derived.chars(40, 'address', '0123456789abcdef')}`;
}

/**
 * The bank or wallet details, in the shape the API gives `currencyCode`'s account type (every
 * property that type requires), derived from `seed` alone with its own reference unless
 * `reference` is given; a stablecoin on a named `cryptoNetwork` gets that network's wallet.
 * Undefined for a currency without a table entry.
 */
export function derivedPaymentAccountInfo(currencyCode: string, seed: string, options: { reference?: string; cryptoNetwork?: string } = {}): PaymentAccountInfo | undefined {
  const build = BUILDERS[currencyCode];
  if (!build) return undefined;
  const derived = new Derived(seed);
  const wallet = options.cryptoNetwork !== undefined && (currencyCode === 'USDC' || currencyCode === 'USDT') ? STABLECOIN_WALLETS[options.cryptoNetwork.toUpperCase()] : undefined;
  return wallet ? wallet(derived, currencyCode) : build(derived, options.reference ?? derived.reference());
}

/**
 * How to fund an internal account from outside: bank details for fiat (with the reference the
 * payer quotes), a deposit address for crypto. Derived from the account id alone, so they are the
 * same on every read and in every webhook; a currency without instructions gives an empty list.
 */
export function fundingPaymentInstructions(account: FundingTarget): PaymentInstructions[] {
  const info = derivedPaymentAccountInfo(account.currencyCode, account.id);
  if (!info) return [];
  return [
    {
      ...(info.reference ? { instructionsNotes: NOTES } : {}),
      isPlatformAccount: account.customerId === null,
      accountOrWalletInfo: info,
    },
  ];
}
