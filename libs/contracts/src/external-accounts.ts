import { PageQuery } from './common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type, TypeHelpOptions } from 'class-transformer';
import {
  Allow,
  buildMessage,
  isEmail,
  IsDefined,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { FieldConstraint, FieldError } from '@paykit/errors';
import { CrossFieldRules, IsCalendarDate, IsCountryCode, IsE164Phone, isE164, IsOneOf, MatchesPattern } from '@paykit/validation';
import { AddressInput, BusinessInfoInput } from './customers';
import { typedIdPattern } from './ids';

// ---- Subjects (wire values: frozen) ----
export const EXTERNAL_ACCOUNTS_SUBJECTS = {
  createAccount: 'external-accounts.account.create',
  listAccounts: 'external-accounts.account.list',
  /**
   * One account of the caller's platform, customer or platform owned, with the internal
   * `routing` block (other services: payments). The gateway strips `routing`.
   */
  getAccount: 'external-accounts.account.get',
  updateAccount: 'external-accounts.account.update',
  removeAccount: 'external-accounts.account.remove',
  listDiscoveries: 'external-accounts.discovery.list',
} as const;

export const EXTERNAL_ACCOUNTS_EVENTS = {
  accountCreated: 'external-accounts.events.external-account.created',
  accountUpdated: 'external-accounts.events.external-account.updated',
  statusChanged: 'external-accounts.events.external-account.status-changed',
} as const;

/** Webhook types announced to the platform (`data` = the ExternalAccount as GET returns it). */
export const EXTERNAL_ACCOUNT_WEBHOOK_TYPES = {
  /** Every status transition after creation: verification resolved, re-review, removal. */
  statusChange: 'EXTERNAL_ACCOUNT.STATUS_CHANGE',
} as const;

// ---- Enumerations of the spec ----
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

/** Corridors whose bankName must be one of the discovery list (GET /discoveries); checked by the service. */
export const DISCOVERY_BANK_NAME_ACCOUNT_TYPES: readonly AccountType[] = ['PHP_ACCOUNT', 'NGN_ACCOUNT', 'ZAR_ACCOUNT', 'COP_ACCOUNT', 'SLV_ACCOUNT'];

// ---- Format rules (one place; the decorators below and the tests use them) ----
export const ACCOUNT_FORMATS = {
  usdAccountNumber: /^\d{4,17}$/,
  routingNumber: /^\d{9}$/,
  clabe: /^\d{18}$/,
  cpf: /^\d{11}$/,
  cnpj: /^\d{14}$/,
  brlTaxId: /^(\d{11}|\d{14})$/,
  randomPixKey: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  genericAccountNumber: /^\d{4,20}$/,
  iban: /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/,
  swiftCode: /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
  phpAccountNumber: /^\d{8,16}$/,
  sortCode: /^\d{6}$/,
  gbpAccountNumber: /^\d{8}$/,
  vpa: /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9.-]{1,63}$/,
  ngnAccountNumber: /^\d{10}$/,
  zarAccountNumber: /^\d{9,13}$/,
  kesPhone: /^\+254\d{9}$/,
  tzsPhone: /^\+255\d{9}$/,
  zmwPhone: /^\+260\d{9}$/,
  rwfPhone: /^\+250\d{9}$/,
  mwkPhone: /^\+265\d{9}$/,
  ugxPhone: /^\+256\d{9}$/,
  xofPhone: /^\+(221\d{9}|225\d{10}|229\d{8,9})$/,
  cadBankCode: /^\d{3}$/,
  cadBranchCode: /^\d{5}$/,
  cadAccountNumber: /^\d{7,12}$/,
  swiftAccountNumber: /^[A-Z0-9]{4,34}$/,
  lightningAddress: /^[a-z0-9._+-]{1,64}@([a-z0-9-]+\.)+[a-z]{2,}$/,
  currencyCode: /^[A-Z]{3}$/,
} as const;

/** IBAN length per country (ISO 13616 registry), for the countries this product accepts in EUR_ACCOUNT (SEPA). */
export const SEPA_IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27, GB: 22, GI: 23,
  GR: 27, HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18, NO: 15, PL: 28,
  PT: 25, RO: 24, SE: 24, SI: 19, SK: 24, SM: 27, VA: 22,
};

/** ISO 7064 mod 97-10 over the rearranged IBAN (letters as 10..35): a valid IBAN leaves 1. */
export function isValidIbanChecksum(iban: string): boolean {
  if (!ACCOUNT_FORMATS.iban.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** ABA routing number check digit: 3-7-1 weights over the nine digits sum to a multiple of 10. */
export function isValidAbaRoutingNumber(routing: string): boolean {
  if (!ACCOUNT_FORMATS.routingNumber.test(routing)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  const sum = [...routing].reduce((total, digit, i) => total + Number(digit) * weights[i], 0);
  return sum % 10 === 0;
}

/** CLABE control digit: weights 3-7-1 over the first 17 digits, (10 - sum mod 10) mod 10. */
export function isValidClabe(clabe: string): boolean {
  if (!ACCOUNT_FORMATS.clabe.test(clabe)) return false;
  const weights = [3, 7, 1];
  const sum = [...clabe.slice(0, 17)].reduce((total, digit, i) => total + ((Number(digit) * weights[i % 3]) % 10), 0);
  return (10 - (sum % 10)) % 10 === Number(clabe[17]);
}

function withConstraint(options: ValidationOptions | undefined, constraint: FieldConstraint): ValidationOptions {
  return { ...options, context: { ...(options?.context as object), constraint } };
}

/**
 * A check-digit rule. `shape` is the format rule reported by its own decorator: a value of the
 * wrong shape is left to it, so one field gets one error naming the rule it broke.
 */
function checkDigitRule(name: string, format: string, test: (value: string) => boolean, description: string, shape?: RegExp): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value) => typeof value === 'string' && ((shape !== undefined && !shape.test(value)) || test(value)),
        defaultMessage: buildMessage((each) => `${each}$property must be ${description}`),
      },
    },
    withConstraint(undefined, { format }),
  );
}

const IsIban = () => checkDigitRule('isIban', 'iban', isValidIbanChecksum, 'an IBAN (electronic format, no spaces) with a valid check digit');
const IsAbaRoutingNumber = () =>
  checkDigitRule('isAbaRoutingNumber', 'aba-routing-number', isValidAbaRoutingNumber, 'a 9-digit ABA routing number with a valid check digit', ACCOUNT_FORMATS.routingNumber);
const IsClabe = () => checkDigitRule('isClabe', 'clabe', isValidClabe, 'an 18-digit CLABE with a valid control digit', ACCOUNT_FORMATS.clabe);

// ---- Beneficiary (inside accountInfo) ----
export class BeneficiaryInput {
  @ApiProperty({ enum: BENEFICIARY_TYPES, description: 'Who owns the destination', example: 'INDIVIDUAL' })
  @IsOneOf(BENEFICIARY_TYPES)
  beneficiaryType!: BeneficiaryType;

  @ApiPropertyOptional({ description: 'Full name (individuals; required for them)', example: 'Maria Santos' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  fullName?: string;

  @ApiPropertyOptional({ description: 'Date of birth, YYYY-MM-DD, in the past', example: '1988-07-21' })
  @IsOptional()
  @IsCalendarDate()
  birthDate?: string;

  @ApiPropertyOptional({ description: 'Nationality, ISO 3166-1 alpha-2', example: 'PH' })
  @IsOptional()
  @IsCountryCode()
  nationality?: string;

  @ApiPropertyOptional({ enum: COP_DOCUMENT_TYPES, description: 'Identity document type (COP: needed by most banks for matching)', example: 'CC' })
  @IsOptional()
  @IsOneOf(COP_DOCUMENT_TYPES)
  documentType?: string;

  @ApiPropertyOptional({ description: 'Identity document number (with documentType)', example: '1020304050' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  documentNumber?: string;

  @ApiPropertyOptional({ type: BusinessInfoInput, description: 'Business beneficiaries: legalName, registrationNumber, taxId' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BusinessInfoInput)
  businessInfo?: BusinessInfoInput;

  @ApiPropertyOptional({ type: AddressInput, description: 'Beneficiary address: line1, city, postalCode, country (state optional)' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AddressInput)
  address?: AddressInput;
}

// ---- accountInfo, one class per accountType ----
abstract class AccountInfoBase {
  abstract accountType: AccountType;
}

/** Every accountType except LN_WALLET names its beneficiary. */
abstract class BeneficiaryAccountInfo extends AccountInfoBase {
  @ApiProperty({ type: BeneficiaryInput, description: 'Owner of the destination; minimum fields depend on the destination (see README)' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => BeneficiaryInput)
  beneficiary!: BeneficiaryInput;
}

const BankName = (example: string, description = 'Bank name') =>
  function (target: object, property: string): void {
    ApiProperty({ type: String, description, example })(target, property);
    IsString()(target, property);
    IsNotEmpty()(target, property);
    MaxLength(140)(target, property);
  };

const OptionalBankName = (example: string, description: string) =>
  function (target: object, property: string): void {
    ApiPropertyOptional({ type: String, description, example })(target, property);
    IsOptional()(target, property);
    IsString()(target, property);
    IsNotEmpty()(target, property);
    MaxLength(140)(target, property);
  };

export class UsdAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['USD_ACCOUNT'], example: 'USD_ACCOUNT' }) @IsOneOf(['USD_ACCOUNT']) accountType!: 'USD_ACCOUNT';

  @ApiProperty({ description: 'Account number, 4-17 digits (sensitive: masked in lists)', example: '000123456789' })
  @MatchesPattern(ACCOUNT_FORMATS.usdAccountNumber, '4 to 17 digits')
  accountNumber!: string;

  @ApiProperty({ description: 'ABA routing number: 9 digits with a valid check digit', example: '021000021' })
  @MatchesPattern(ACCOUNT_FORMATS.routingNumber, '9 digits')
  @IsAbaRoutingNumber()
  routingNumber!: string;

  @ApiProperty({ enum: BANK_ACCOUNT_TYPES, example: 'CHECKING' }) @IsOneOf(BANK_ACCOUNT_TYPES) bankAccountType!: string;

  @BankName('JPMorgan Chase Bank') bankName!: string;

  @OptionalBankName('Citibank', 'Wire only: intermediary bank name (accepted and ignored on ACH, RTP, FedNow)') intermediaryBankName?: string;

  @ApiPropertyOptional({ description: 'Wire only: intermediary routing number, 9 digits (ignored on ACH, RTP, FedNow)', example: '021000089' })
  @IsOptional()
  @MatchesPattern(ACCOUNT_FORMATS.routingNumber, '9 digits')
  intermediaryRoutingNumber?: string;

  @ApiPropertyOptional({ description: 'Wire only: FI-to-FI information (ignored on ACH, RTP, FedNow)', example: 'Invoice 2231' })
  @IsOptional()
  @IsString()
  @MaxLength(210)
  fiToFiInformation?: string;
}

export class MxnAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['MXN_ACCOUNT'], example: 'MXN_ACCOUNT' }) @IsOneOf(['MXN_ACCOUNT']) accountType!: 'MXN_ACCOUNT';

  @ApiProperty({ description: 'CLABE: exactly 18 digits with a valid control digit (sensitive: masked in lists)', example: '002010077777777771' })
  @MatchesPattern(ACCOUNT_FORMATS.clabe, 'exactly 18 digits')
  @IsClabe()
  clabeNumber!: string;

  @BankName('BBVA México') bankName!: string;
}

export class BrlAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['BRL_ACCOUNT'], example: 'BRL_ACCOUNT' }) @IsOneOf(['BRL_ACCOUNT']) accountType!: 'BRL_ACCOUNT';

  @ApiProperty({
    description: 'PIX key, formatted per pixKeyType: CPF 11 digits, CNPJ 14 digits, EMAIL an email, PHONE E.164, RANDOM a UUID',
    example: '12345678901',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(77)
  pixKey!: string;

  @ApiProperty({ enum: PIX_KEY_TYPES, example: 'CPF' }) @IsOneOf(PIX_KEY_TYPES) pixKeyType!: PixKeyType;

  @BankName('Itaú Unibanco') bankName!: string;

  @ApiProperty({ description: "Beneficiary's CPF (11 digits) or CNPJ (14 digits)", example: '12345678901' })
  @MatchesPattern(ACCOUNT_FORMATS.brlTaxId, '11 digits (CPF) or 14 digits (CNPJ)')
  taxId!: string;
}

export class CopAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['COP_ACCOUNT'], example: 'COP_ACCOUNT' }) @IsOneOf(['COP_ACCOUNT']) accountType!: 'COP_ACCOUNT';

  @BankName('Bancolombia', 'Bank or mobile-money provider, one of GET /discoveries?currency=COP') bankName!: string;

  @ApiPropertyOptional({ description: 'Bank transfer: account number, 4-20 digits (with bankAccountType)', example: '12345678901' })
  @IsOptional()
  @MatchesPattern(ACCOUNT_FORMATS.genericAccountNumber, '4 to 20 digits')
  accountNumber?: string;

  @ApiPropertyOptional({ enum: BANK_ACCOUNT_TYPES, description: 'Bank transfer: account type', example: 'SAVINGS' })
  @IsOptional()
  @IsOneOf(BANK_ACCOUNT_TYPES)
  bankAccountType?: string;

  @ApiPropertyOptional({ description: 'Mobile money: phone number in international (E.164) format', example: '+573001234567' })
  @IsOptional()
  @IsE164Phone()
  phoneNumber?: string;
}

export class SlvAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['SLV_ACCOUNT'], example: 'SLV_ACCOUNT' }) @IsOneOf(['SLV_ACCOUNT']) accountType!: 'SLV_ACCOUNT';

  @OptionalBankName('Banco Agrícola', 'Bank transfer: bank, one of GET /discoveries?country=SV') bankName?: string;

  @ApiPropertyOptional({ description: 'Bank transfer: account number, 4-20 digits', example: '0012345678' })
  @IsOptional()
  @MatchesPattern(ACCOUNT_FORMATS.genericAccountNumber, '4 to 20 digits')
  accountNumber?: string;

  @ApiPropertyOptional({ enum: BANK_ACCOUNT_TYPES, description: 'Bank transfer: account type', example: 'SAVINGS' })
  @IsOptional()
  @IsOneOf(BANK_ACCOUNT_TYPES)
  bankAccountType?: string;

  @ApiPropertyOptional({ description: 'Mobile money: phone number in international (E.164) format', example: '+50370123456' })
  @IsOptional()
  @IsE164Phone()
  phoneNumber?: string;
}

export class EurAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['EUR_ACCOUNT'], example: 'EUR_ACCOUNT' }) @IsOneOf(['EUR_ACCOUNT']) accountType!: 'EUR_ACCOUNT';

  @ApiProperty({ description: 'IBAN of a SEPA country, electronic format, valid check digits and country length (sensitive: masked in lists)', example: 'DE89370400440532013000' })
  @IsIban()
  iban!: string;

  @ApiProperty({ description: 'SWIFT/BIC: 8 or 11 characters', example: 'COBADEFF' })
  @MatchesPattern(ACCOUNT_FORMATS.swiftCode, 'a SWIFT/BIC code (8 or 11 characters: bank, country, location, optional branch)')
  swiftCode!: string;

  @BankName('Commerzbank') bankName!: string;
}

export class PhpAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['PHP_ACCOUNT'], example: 'PHP_ACCOUNT' }) @IsOneOf(['PHP_ACCOUNT']) accountType!: 'PHP_ACCOUNT';
  @BankName('BDO Unibank', 'Bank, exactly a bankName of GET /discoveries?currency=PHP') bankName!: string;

  @ApiProperty({ description: 'Account number, 8-16 digits (sensitive: masked in lists)', example: '001234567890' })
  @MatchesPattern(ACCOUNT_FORMATS.phpAccountNumber, '8 to 16 digits')
  accountNumber!: string;
}

export class GbpAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['GBP_ACCOUNT'], example: 'GBP_ACCOUNT' }) @IsOneOf(['GBP_ACCOUNT']) accountType!: 'GBP_ACCOUNT';

  @ApiProperty({ description: 'Sort code, 6 digits', example: '200415' })
  @MatchesPattern(ACCOUNT_FORMATS.sortCode, '6 digits')
  sortCode!: string;

  @ApiProperty({ description: 'Account number, 8 digits (sensitive: masked in lists)', example: '38290008' })
  @MatchesPattern(ACCOUNT_FORMATS.gbpAccountNumber, '8 digits')
  accountNumber!: string;
}

export class InrAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['INR_ACCOUNT'], example: 'INR_ACCOUNT' }) @IsOneOf(['INR_ACCOUNT']) accountType!: 'INR_ACCOUNT';

  @ApiProperty({ description: 'UPI virtual payment address: username@handle', example: 'priya.sharma@okaxis' })
  @MatchesPattern(ACCOUNT_FORMATS.vpa, 'a UPI VPA (username@handle)')
  vpa!: string;
}

export class NgnAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['NGN_ACCOUNT'], example: 'NGN_ACCOUNT' }) @IsOneOf(['NGN_ACCOUNT']) accountType!: 'NGN_ACCOUNT';

  @ApiProperty({ description: 'NUBAN account number, exactly 10 digits (sensitive: masked in lists)', example: '0123456789' })
  @MatchesPattern(ACCOUNT_FORMATS.ngnAccountNumber, 'exactly 10 digits')
  accountNumber!: string;

  @BankName('Access Bank', 'Bank, exactly a bankName of GET /discoveries?currency=NGN') bankName!: string;
}

export class ZarAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['ZAR_ACCOUNT'], example: 'ZAR_ACCOUNT' }) @IsOneOf(['ZAR_ACCOUNT']) accountType!: 'ZAR_ACCOUNT';

  @ApiProperty({ description: 'Account number, 9-13 digits (sensitive: masked in lists)', example: '62001234567' })
  @MatchesPattern(ACCOUNT_FORMATS.zarAccountNumber, '9 to 13 digits')
  accountNumber!: string;

  @BankName('First National Bank', 'Bank, exactly a bankName of GET /discoveries?currency=ZAR') bankName!: string;
}

function mobileMoneyFields(target: object, phone: RegExp, phoneRule: string, phoneExample: string, providers: readonly string[]): void {
  ApiProperty({ type: String, description: `Mobile-money phone number: ${phoneRule}`, example: phoneExample })(target, 'phoneNumber');
  MatchesPattern(phone, phoneRule)(target, 'phoneNumber');
  ApiProperty({ type: String, enum: providers, description: 'Mobile-money operator code', example: providers[0] })(target, 'provider');
  IsOneOf(providers)(target, 'provider');
}

export class KesAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['KES_ACCOUNT'], example: 'KES_ACCOUNT' }) @IsOneOf(['KES_ACCOUNT']) accountType!: 'KES_ACCOUNT';
  phoneNumber!: string;
  provider!: string;
}
mobileMoneyFields(KesAccountInfo.prototype, ACCOUNT_FORMATS.kesPhone, '+254 then 9 digits', '+254712345678', MOBILE_MONEY_PROVIDERS.KES_ACCOUNT);

export class TzsAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['TZS_ACCOUNT'], example: 'TZS_ACCOUNT' }) @IsOneOf(['TZS_ACCOUNT']) accountType!: 'TZS_ACCOUNT';
  phoneNumber!: string;
  provider!: string;
}
mobileMoneyFields(TzsAccountInfo.prototype, ACCOUNT_FORMATS.tzsPhone, '+255 then 9 digits', '+255712345678', MOBILE_MONEY_PROVIDERS.TZS_ACCOUNT);

export class ZmwAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['ZMW_ACCOUNT'], example: 'ZMW_ACCOUNT' }) @IsOneOf(['ZMW_ACCOUNT']) accountType!: 'ZMW_ACCOUNT';
  phoneNumber!: string;
  provider!: string;
}
mobileMoneyFields(ZmwAccountInfo.prototype, ACCOUNT_FORMATS.zmwPhone, '+260 then 9 digits', '+260971234567', MOBILE_MONEY_PROVIDERS.ZMW_ACCOUNT);

export class RwfAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['RWF_ACCOUNT'], example: 'RWF_ACCOUNT' }) @IsOneOf(['RWF_ACCOUNT']) accountType!: 'RWF_ACCOUNT';
  phoneNumber!: string;
  provider!: string;
}
mobileMoneyFields(RwfAccountInfo.prototype, ACCOUNT_FORMATS.rwfPhone, '+250 then 9 digits', '+250781234567', MOBILE_MONEY_PROVIDERS.RWF_ACCOUNT);

export class MwkAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['MWK_ACCOUNT'], example: 'MWK_ACCOUNT' }) @IsOneOf(['MWK_ACCOUNT']) accountType!: 'MWK_ACCOUNT';
  phoneNumber!: string;
  provider!: string;
}
mobileMoneyFields(MwkAccountInfo.prototype, ACCOUNT_FORMATS.mwkPhone, '+265 then 9 digits', '+265991234567', MOBILE_MONEY_PROVIDERS.MWK_ACCOUNT);

export class UgxAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['UGX_ACCOUNT'], example: 'UGX_ACCOUNT' }) @IsOneOf(['UGX_ACCOUNT']) accountType!: 'UGX_ACCOUNT';
  phoneNumber!: string;
  provider!: string;
}
mobileMoneyFields(UgxAccountInfo.prototype, ACCOUNT_FORMATS.ugxPhone, '+256 then 9 digits', '+256771234567', MOBILE_MONEY_PROVIDERS.UGX_ACCOUNT);

export class XofAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['XOF_ACCOUNT'], example: 'XOF_ACCOUNT' }) @IsOneOf(['XOF_ACCOUNT']) accountType!: 'XOF_ACCOUNT';
  phoneNumber!: string;
  provider!: string;
}
mobileMoneyFields(
  XofAccountInfo.prototype,
  ACCOUNT_FORMATS.xofPhone,
  'Senegal +221 then 9 digits, Ivory Coast +225 then 10 digits, Benin +229 then 8 or 9 digits',
  '+221771234567',
  MOBILE_MONEY_PROVIDERS.XOF_ACCOUNT,
);

export class CadAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['CAD_ACCOUNT'], example: 'CAD_ACCOUNT' }) @IsOneOf(['CAD_ACCOUNT']) accountType!: 'CAD_ACCOUNT';

  @ApiProperty({ description: 'Institution number, 3 digits', example: '003' })
  @MatchesPattern(ACCOUNT_FORMATS.cadBankCode, '3 digits')
  bankCode!: string;

  @ApiProperty({ description: 'Transit (branch) number, 5 digits', example: '00012' })
  @MatchesPattern(ACCOUNT_FORMATS.cadBranchCode, '5 digits')
  branchCode!: string;

  @ApiProperty({ description: 'Account number, 7-12 digits (sensitive: masked in lists)', example: '1234567' })
  @MatchesPattern(ACCOUNT_FORMATS.cadAccountNumber, '7 to 12 digits')
  accountNumber!: string;
}

export class SwiftAccountInfo extends BeneficiaryAccountInfo {
  @ApiProperty({ enum: ['SWIFT_ACCOUNT'], example: 'SWIFT_ACCOUNT' }) @IsOneOf(['SWIFT_ACCOUNT']) accountType!: 'SWIFT_ACCOUNT';

  @ApiProperty({ description: 'Where the bank account is, ISO 3166-1 alpha-2 (may differ from the currency)', example: 'SG' })
  @IsCountryCode()
  country!: string;

  @ApiProperty({ description: 'SWIFT/BIC: 8 or 11 characters', example: 'DBSSSGSG' })
  @MatchesPattern(ACCOUNT_FORMATS.swiftCode, 'a SWIFT/BIC code (8 or 11 characters: bank, country, location, optional branch)')
  swiftCode!: string;

  @BankName('DBS Bank') bankName!: string;

  @ApiPropertyOptional({ description: 'Account number, 4-34 letters or digits; give this or iban (sensitive: masked in lists)', example: '0720123456' })
  @IsOptional()
  @MatchesPattern(ACCOUNT_FORMATS.swiftAccountNumber, '4 to 34 upper-case letters or digits')
  accountNumber?: string;

  @ApiPropertyOptional({ description: 'IBAN for IBAN-only corridors, instead of accountNumber; its country must be `country`', example: 'AE070331234567890123456' })
  @IsOptional()
  @IsIban()
  iban?: string;
}

export class LnWalletAccountInfo extends AccountInfoBase {
  @ApiProperty({ enum: ['LN_WALLET'], example: 'LN_WALLET' }) @IsOneOf(['LN_WALLET']) accountType!: 'LN_WALLET';

  @ApiProperty({ description: 'Lightning address of the self-custody wallet (user@domain, lower case)', example: 'satoshi@wallet.example.com' })
  @MatchesPattern(ACCOUNT_FORMATS.lightningAddress, 'a Lightning address (user@domain, lower case)')
  address!: string;

  @ApiPropertyOptional({ type: BeneficiaryInput, description: 'Not required (self-custody)' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BeneficiaryInput)
  beneficiary?: BeneficiaryInput;
}

export const ACCOUNT_INFO_CLASSES = {
  USD_ACCOUNT: UsdAccountInfo,
  MXN_ACCOUNT: MxnAccountInfo,
  BRL_ACCOUNT: BrlAccountInfo,
  COP_ACCOUNT: CopAccountInfo,
  SLV_ACCOUNT: SlvAccountInfo,
  EUR_ACCOUNT: EurAccountInfo,
  PHP_ACCOUNT: PhpAccountInfo,
  GBP_ACCOUNT: GbpAccountInfo,
  INR_ACCOUNT: InrAccountInfo,
  NGN_ACCOUNT: NgnAccountInfo,
  ZAR_ACCOUNT: ZarAccountInfo,
  KES_ACCOUNT: KesAccountInfo,
  TZS_ACCOUNT: TzsAccountInfo,
  ZMW_ACCOUNT: ZmwAccountInfo,
  RWF_ACCOUNT: RwfAccountInfo,
  MWK_ACCOUNT: MwkAccountInfo,
  UGX_ACCOUNT: UgxAccountInfo,
  XOF_ACCOUNT: XofAccountInfo,
  CAD_ACCOUNT: CadAccountInfo,
  SWIFT_ACCOUNT: SwiftAccountInfo,
  LN_WALLET: LnWalletAccountInfo,
} as const satisfies Record<AccountType, new () => AccountInfoBase>;

export type AccountInfoInput = InstanceType<(typeof ACCOUNT_INFO_CLASSES)[AccountType]>;

/**
 * What an accountInfo with a missing or unknown accountType becomes: only accountType is
 * reported, not every other field as "unrecognised".
 */
class UnknownAccountInfo {
  @IsOneOf(ACCOUNT_TYPES) accountType!: string;
}
const ALL_ACCOUNT_INFO_FIELDS = new Set(
  ACCOUNT_TYPES.flatMap((type) => Object.keys(new ACCOUNT_INFO_CLASSES[type]()).concat(knownProperties(ACCOUNT_INFO_CLASSES[type]))),
);
for (const field of ALL_ACCOUNT_INFO_FIELDS) if (field !== 'accountType') Allow()(UnknownAccountInfo.prototype, field);

function knownProperties(type: new () => object): string[] {
  // Properties declared for Swagger are the fields of the class (inherited ones included).
  const names = new Set<string>();
  for (let proto: object | null = type.prototype as object; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    const declared = Reflect.getMetadata('swagger/apiModelPropertiesArray', proto) as string[] | undefined;
    for (const name of declared ?? []) names.add(name.replace(/^:/, ''));
  }
  return [...names];
}

/**
 * The accountInfo class chosen by its accountType. Chosen here rather than with
 * class-transformer's `discriminator` option, which throws on arrays holding null.
 */
function accountInfoClass(options?: TypeHelpOptions): new () => object {
  const value = options?.object[options.property] as unknown;
  const accountType = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { accountType?: unknown }).accountType : undefined;
  return typeof accountType === 'string' && Object.prototype.hasOwnProperty.call(ACCOUNT_INFO_CLASSES, accountType)
    ? ACCOUNT_INFO_CLASSES[accountType as AccountType]
    : UnknownAccountInfo;
}

const ACCOUNT_INFO_SCHEMA = {
  description: 'Destination details; `accountType` selects the shape and must agree with `currency` (SWIFT_ACCOUNT: any currency)',
  oneOf: ACCOUNT_TYPES.map((type) => ({ $ref: getSchemaPath(ACCOUNT_INFO_CLASSES[type]) })),
  discriminator: {
    propertyName: 'accountType',
    mapping: Object.fromEntries(ACCOUNT_TYPES.map((type) => [type, getSchemaPath(ACCOUNT_INFO_CLASSES[type])])),
  },
};

/** Put on controllers (and response DTOs) so every accountInfo shape lands in the OpenAPI document. */
export const ApiAccountInfoModels = () => ApiExtraModels(...ACCOUNT_TYPES.map((type) => ACCOUNT_INFO_CLASSES[type]));
export { ACCOUNT_INFO_SCHEMA };

// ---- Rules that span fields (beneficiary minimums, currency agreement, alternatives) ----

/** Business beneficiaries by destination currency: what besides legalName and address is required. */
const BUSINESS_REGISTRATION_AND_TAX_ID = new Set(['NGN', 'ZAR', 'KES', 'TZS', 'RWF', 'ZMW', 'UGX', 'BWP', 'MWK', 'XOF', 'XAF']);
/** Individual beneficiaries whose address is required, by destination. */
const INDIVIDUAL_ADDRESS_REQUIRED = new Set(['USD', 'GBP', 'EUR']);

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);
const present = (value: unknown) => value !== undefined && value !== null;
const required = (field: string, why: string): FieldError => ({ field, message: `${field} is required ${why}` });

/** The destination a beneficiary table row is chosen by: the corridor, or the held currency for SWIFT. */
export function beneficiaryDestination(accountType: AccountType, currency: string): string {
  return accountType === 'SWIFT_ACCOUNT' ? currency : accountType.slice(0, 3);
}

/**
 * Every rule of the accountInfo and beneficiary tables that spans more than one field. Runs on
 * input that may be invalid in any other way (never throws); `currency` may be unknown (updates).
 */
export function accountInfoCrossFieldErrors(currency: unknown, info: unknown, prefix = 'accountInfo', today = new Date()): FieldError[] {
  if (!isPlain(info) || typeof info.accountType !== 'string' || !(info.accountType in ACCOUNT_TYPE_CURRENCY)) return [];
  const accountType = info.accountType as AccountType;
  const errors: FieldError[] = [];
  const expected = ACCOUNT_TYPE_CURRENCY[accountType];
  if (typeof currency === 'string' && expected !== null && currency !== expected) {
    errors.push({ field: 'currency', message: `currency must be ${expected} for accountType ${accountType}`, constraint: { enum: [expected] } });
  }
  if (accountType === 'SWIFT_ACCOUNT' && currency === 'BTC') {
    errors.push({ field: 'currency', message: 'currency BTC is only held by LN_WALLET destinations', constraint: { pattern: ACCOUNT_FORMATS.currencyCode.source } });
  }
  errors.push(...alternativeFieldErrors(accountType, info, prefix));
  if (isPlain(info.beneficiary)) {
    const heldCurrency = typeof currency === 'string' ? currency : expected;
    if (heldCurrency) errors.push(...beneficiaryErrors(accountType, heldCurrency, info.beneficiary, `${prefix}.beneficiary`, today));
  }
  return errors;
}

function alternativeFieldErrors(accountType: AccountType, info: Plain, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const field = (name: string) => `${prefix}.${name}`;
  switch (accountType) {
    case 'BRL_ACCOUNT': {
      const rule = PIX_KEY_RULES[info.pixKeyType as PixKeyType];
      if (rule && typeof info.pixKey === 'string' && !rule.test(info.pixKey)) {
        errors.push({ field: field('pixKey'), message: `${field('pixKey')} must be ${rule.description} for pixKeyType ${String(info.pixKeyType)}`, constraint: rule.constraint });
      }
      break;
    }
    case 'COP_ACCOUNT':
    case 'SLV_ACCOUNT': {
      const bank = present(info.accountNumber);
      const mobile = present(info.phoneNumber);
      if (bank && mobile) {
        errors.push({ field: field('phoneNumber'), message: `${field('phoneNumber')} must not be given with accountNumber: choose bank transfer or mobile money` });
      } else if (!bank && !mobile) {
        errors.push(required(field('accountNumber'), 'for a bank transfer (or give phoneNumber for mobile money)'));
      } else if (bank) {
        if (!present(info.bankAccountType)) errors.push(required(field('bankAccountType'), 'for a bank transfer'));
        if (accountType === 'SLV_ACCOUNT' && !present(info.bankName)) errors.push(required(field('bankName'), 'for a bank transfer'));
      } else if (present(info.bankAccountType)) {
        errors.push({ field: field('bankAccountType'), message: `${field('bankAccountType')} only applies to bank transfers` });
      }
      break;
    }
    case 'SWIFT_ACCOUNT': {
      const hasAccount = present(info.accountNumber);
      const hasIban = present(info.iban);
      if (hasAccount === hasIban) {
        errors.push(
          hasAccount
            ? { field: field('iban'), message: `${field('iban')} must not be given with accountNumber: give exactly one` }
            : required(field('accountNumber'), '(or iban for IBAN-only corridors)'),
        );
      } else if (typeof info.iban === 'string' && typeof info.country === 'string' && info.iban.slice(0, 2) !== info.country) {
        errors.push({ field: field('iban'), message: `${field('iban')} must be an IBAN of ${info.country} (the account's country)`, constraint: { pattern: `^${info.country}` } });
      }
      break;
    }
    case 'EUR_ACCOUNT': {
      if (typeof info.iban === 'string' && isValidIbanChecksum(info.iban)) {
        const country = info.iban.slice(0, 2);
        const length = SEPA_IBAN_LENGTHS[country];
        if (length === undefined) {
          errors.push({ field: field('iban'), message: `${field('iban')} must be an IBAN of a SEPA country`, constraint: { enum: Object.keys(SEPA_IBAN_LENGTHS) } });
        } else if (info.iban.length !== length) {
          errors.push({ field: field('iban'), message: `${field('iban')} must have ${length} characters for ${country}`, constraint: { minLength: length, maxLength: length } });
        }
      }
      break;
    }
    case 'USD_ACCOUNT':
    case 'MXN_ACCOUNT':
    case 'PHP_ACCOUNT':
    case 'GBP_ACCOUNT':
    case 'INR_ACCOUNT':
    case 'NGN_ACCOUNT':
    case 'ZAR_ACCOUNT':
    case 'KES_ACCOUNT':
    case 'TZS_ACCOUNT':
    case 'ZMW_ACCOUNT':
    case 'RWF_ACCOUNT':
    case 'MWK_ACCOUNT':
    case 'UGX_ACCOUNT':
    case 'XOF_ACCOUNT':
    case 'CAD_ACCOUNT':
    case 'LN_WALLET':
      break;
  }
  return errors;
}

interface PixKeyRule {
  test: (value: string) => boolean;
  description: string;
  constraint: FieldConstraint;
}
const PIX_KEY_RULES: Record<PixKeyType, PixKeyRule> = {
  CPF: { test: (v) => ACCOUNT_FORMATS.cpf.test(v), description: '11 digits (CPF)', constraint: { pattern: ACCOUNT_FORMATS.cpf.source } },
  CNPJ: { test: (v) => ACCOUNT_FORMATS.cnpj.test(v), description: '14 digits (CNPJ)', constraint: { pattern: ACCOUNT_FORMATS.cnpj.source } },
  EMAIL: { test: (v) => isEmail(v), description: 'an email address', constraint: { format: 'email' } },
  PHONE: { test: (v) => isE164(v), description: 'a phone number in E.164 format', constraint: { format: 'e.164' } },
  RANDOM: { test: (v) => ACCOUNT_FORMATS.randomPixKey.test(v), description: 'a random key (UUID)', constraint: { format: 'uuid' } },
};

function beneficiaryErrors(accountType: AccountType, currency: string, beneficiary: Plain, prefix: string, today: Date): FieldError[] {
  const errors: FieldError[] = [];
  const field = (name: string) => `${prefix}.${name}`;
  const destination = beneficiaryDestination(accountType, currency);
  if (typeof beneficiary.birthDate === 'string' && beneficiary.birthDate > today.toISOString().slice(0, 10)) {
    errors.push({ field: field('birthDate'), message: `${field('birthDate')} must be a date in the past`, constraint: { format: 'date' } });
  }
  if (present(beneficiary.documentNumber) && !present(beneficiary.documentType)) errors.push(required(field('documentType'), 'with documentNumber'));
  if (present(beneficiary.documentType) && !present(beneficiary.documentNumber)) errors.push(required(field('documentNumber'), 'with documentType'));
  if (beneficiary.beneficiaryType === 'INDIVIDUAL') {
    if (!present(beneficiary.fullName)) errors.push(required(field('fullName'), 'for an INDIVIDUAL beneficiary'));
    if (present(beneficiary.businessInfo)) errors.push({ field: field('businessInfo'), message: `${field('businessInfo')} is only accepted for BUSINESS beneficiaries` });
    if (INDIVIDUAL_ADDRESS_REQUIRED.has(destination) && !present(beneficiary.address)) {
      errors.push(required(field('address'), `for an INDIVIDUAL beneficiary of a ${destination} destination`));
    }
  } else if (beneficiary.beneficiaryType === 'BUSINESS') {
    if (!present(beneficiary.address)) errors.push(required(field('address'), 'for a BUSINESS beneficiary'));
    const business = beneficiary.businessInfo;
    if (!present(business)) {
      errors.push(required(field('businessInfo'), 'for a BUSINESS beneficiary (legalName at least)'));
    } else if (isPlain(business)) {
      const needsRegistration = currency === 'EUR' || BUSINESS_REGISTRATION_AND_TAX_ID.has(currency);
      if (needsRegistration && !present(business.registrationNumber)) {
        errors.push(required(field('businessInfo.registrationNumber'), `for a BUSINESS beneficiary receiving ${currency}`));
      }
      if (BUSINESS_REGISTRATION_AND_TAX_ID.has(currency) && !present(business.taxId)) {
        errors.push(required(field('businessInfo.taxId'), `for a BUSINESS beneficiary receiving ${currency}`));
      }
    }
  }
  return errors;
}

// ---- Request payloads (validated by the gateway and again by the service) ----
abstract class ExternalAccountFields implements CrossFieldRules {
  @ApiProperty({ description: 'Currency of the destination account (ISO 4217; BTC for LN_WALLET); must agree with accountType', example: 'USD' })
  @MatchesPattern(ACCOUNT_FORMATS.currencyCode, 'a 3-letter upper-case currency code')
  currency!: string;

  @ApiProperty({ description: "Platform's own id for the account", example: 'acct-ada-checking' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformAccountId!: string;

  @ApiProperty(ACCOUNT_INFO_SCHEMA)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(accountInfoClass)
  accountInfo!: AccountInfoInput;

  crossFieldErrors(): FieldError[] {
    return accountInfoCrossFieldErrors(this.currency, this.accountInfo);
  }
}

export class CreatePlatformExternalAccountRequest extends ExternalAccountFields {}

export class CreateCustomerExternalAccountRequest extends ExternalAccountFields {
  @ApiPropertyOptional({
    description: 'Owner of the account, a customer of the platform (required except for agent callers, whose customer it is)',
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  @IsOptional()
  @MatchesPattern(typedIdPattern('Customer'), 'a customer id (Customer:<uuid>)')
  customerId?: string;
}

/** The create message: the HTTP body plus who will own the account. */
export class CreateExternalAccountMessage extends CreateCustomerExternalAccountRequest {
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
}

export class UpdateExternalAccountRequest implements CrossFieldRules {
  @ApiPropertyOptional({ description: "Platform's own id for the account", example: 'acct-ada-checking' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformAccountId?: string;

  @ApiPropertyOptional({ ...ACCOUNT_INFO_SCHEMA, description: 'Replaces the destination details (same currency); re-runs review' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(accountInfoClass)
  accountInfo?: AccountInfoInput;

  crossFieldErrors(): FieldError[] {
    // The currency is the stored one; the service checks agreement with it.
    return accountInfoCrossFieldErrors(undefined, this.accountInfo);
  }
}

export class UpdateExternalAccountMessage extends UpdateExternalAccountRequest {
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
  @IsString() @IsNotEmpty() @MaxLength(64) externalAccountId!: string;
}

export class GetExternalAccountRequest {
  @ApiProperty({ description: 'External account id', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  externalAccountId!: string;

  /** Restricts the lookup to customer or platform accounts; omitted = either (other services). */
  @IsOptional()
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES)
  ownerType?: ExternalAccountOwnerType;
}

export class RemoveExternalAccountRequest {
  @IsString() @IsNotEmpty() @MaxLength(64) externalAccountId!: string;
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
}

abstract class ExternalAccountsPageQuery extends PageQuery {
  @ApiPropertyOptional({ enum: EXTERNAL_ACCOUNT_STATUSES, description: 'Only accounts in this status' })
  @IsOptional()
  @IsOneOf(EXTERNAL_ACCOUNT_STATUSES)
  status?: ExternalAccountStatus;
}

export class ListPlatformExternalAccountsQuery extends ExternalAccountsPageQuery {}

export class ListCustomerExternalAccountsQuery extends ExternalAccountsPageQuery {
  @ApiPropertyOptional({ description: "Only this customer's accounts (404 USER_NOT_FOUND if not a customer of the platform)", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @MatchesPattern(typedIdPattern('Customer'), 'a customer id (Customer:<uuid>)')
  customerId?: string;
}

export class ListExternalAccountsMessage extends ListCustomerExternalAccountsQuery {
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
}

export class ListDiscoveriesQuery {
  @ApiPropertyOptional({ description: 'ISO 3166-1 alpha-2 country', example: 'PH' })
  @IsOptional()
  @IsCountryCode()
  country?: string;

  @ApiPropertyOptional({ description: 'Currency code', example: 'PHP' })
  @IsOptional()
  @MatchesPattern(ACCOUNT_FORMATS.currencyCode, 'a 3-letter upper-case currency code')
  currency?: string;
}

// ---- Replies: the resources exactly as the API returns them ----
export type AccountInfo = Record<string, unknown> & { accountType: AccountType };

export interface ExternalAccount {
  id: string;
  /** Absent for platform external accounts. */
  customerId?: string;
  status: ExternalAccountStatus;
  currency: string;
  platformAccountId: string;
  accountInfo: AccountInfo;
  /** Present where the rail supports name verification (every type with a beneficiary). */
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatus;
  createdAt: string;
  updatedAt: string;
}

/** Internal-only facts for other services (payments); never exposed over HTTP. */
export interface ExternalAccountRouting {
  /** Last 3 characters of the primary identifier (username part for user@domain ids): sandbox outcomes. */
  primaryIdentifierLast3: string;
  /** True only for ACTIVE accounts. */
  canReceivePayments: boolean;
  ownerType: ExternalAccountOwnerType;
}

export interface ExternalAccountWithRouting extends ExternalAccount {
  routing: ExternalAccountRouting;
}

export interface DiscoveryEntry {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}

export interface DiscoveryList {
  data: DiscoveryEntry[];
}

export interface ExternalAccountPage {
  data: ExternalAccount[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** A contract class as data on the wire (its cross-field rule method is not part of the payload). */
export type WirePayload<T> = Omit<T, 'crossFieldErrors'>;

export interface ExternalAccountsContract {
  [EXTERNAL_ACCOUNTS_SUBJECTS.createAccount]: { request: WirePayload<CreateExternalAccountMessage>; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.listAccounts]: { request: ListExternalAccountsMessage; reply: ExternalAccountPage };
  [EXTERNAL_ACCOUNTS_SUBJECTS.getAccount]: { request: GetExternalAccountRequest; reply: ExternalAccountWithRouting };
  [EXTERNAL_ACCOUNTS_SUBJECTS.updateAccount]: { request: WirePayload<UpdateExternalAccountMessage>; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.removeAccount]: { request: RemoveExternalAccountRequest; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.listDiscoveries]: { request: ListDiscoveriesQuery; reply: DiscoveryList };
}
