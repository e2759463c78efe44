import {
  ACCOUNT_FORMATS,
  ACCOUNT_TYPES,
  AccountType,
  CORRIDORS,
  CreateCustomerExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  ExternalAccountOwnerType,
  ExternalAccountWarning,
  PixKeyType,
  UpdateExternalAccountRequest,
} from '@paykit/contracts';
import { FieldError } from '@paykit/errors';
import { isE164, validateContract } from '@paykit/validation';
import { isEmail } from 'class-validator';
import { checkDigitWarnings, isValidIbanChecksum, SEPA_IBAN_LENGTHS } from './check-digits';
import { Clock } from '@paykit/persistence';

/**
 * The bodies of account creation and update, validated here once: the wire shape of the contract
 * and this service's rules (currency agreement, corridor alternatives, beneficiary minimums)
 * together, so a client learns every problem of a request in one answer. The gateway passes
 * these bodies on as it received them, so the client's rules apply here (a null only where the
 * API document has one). Checks stricter than the reference API (check digits,
 * pix key formats, an IBAN's SEPA country) are warnings, never errors: see `accountWarnings`.
 */
export function validateCreateBody(ownerType: ExternalAccountOwnerType, body: unknown, extraErrors: FieldError[] = []): CreateCustomerExternalAccountRequest {
  const type = ownerType === 'CUSTOMER' ? CreateCustomerExternalAccountRequest : CreatePlatformExternalAccountRequest;
  return validateContract(type, body ?? {}, { nulls: 'refuse', ownerRules: (request) => [...accountRuleErrors(request.currency, request.accountInfo), ...extraErrors] });
}

/** An update keeps the stored currency: a new accountType must agree with it (reported on accountInfo.accountType). */
export function validateUpdateBody(body: unknown, storedCurrency: string, extraErrors: FieldError[] = []): UpdateExternalAccountRequest {
  return validateContract(UpdateExternalAccountRequest, body ?? {}, {
    nulls: 'refuse',
    ownerRules: (request) => [...currencyAgreementErrors(storedCurrency, request.accountInfo), ...extraErrors],
  });
}

function currencyAgreementErrors(currency: string, info: unknown): FieldError[] {
  return accountRuleErrors(currency, info).map((error) =>
    error.field === 'currency'
      ? {
          field: 'accountInfo.accountType',
          message: `accountInfo.accountType must agree with the account's currency ${currency}`,
          constraint: { enum: ACCOUNT_TYPES.filter((type) => accountRuleErrors(currency, { accountType: type }).every((e) => e.field !== 'currency')) },
        }
      : error,
  );
}

/**
 * SPEC.md's business beneficiary table: currencies whose business beneficiaries need an address,
 * and of those, which also need a registration number (EUR) or a registration number and a tax id.
 */
const BUSINESS_ADDRESS_REQUIRED = new Set([
  'USD',
  'MXN',
  'EUR',
  'GBP',
  'INR',
  'BRL',
  'DKK',
  'PHP',
  'HKD',
  'IDR',
  'MYR',
  'SGD',
  'THB',
  'VND',
  'AED',
  'NGN',
  'ZAR',
  'KES',
  'TZS',
  'RWF',
  'ZMW',
  'UGX',
  'BWP',
  'MWK',
  'XOF',
  'XAF',
]);
const BUSINESS_REGISTRATION_AND_TAX_ID = new Set(['NGN', 'ZAR', 'KES', 'TZS', 'RWF', 'ZMW', 'UGX', 'BWP', 'MWK', 'XOF', 'XAF']);
/** SPEC.md's individual table: destinations whose individual beneficiaries give an address with line1, city, postalCode and country. */
const INDIVIDUAL_FULL_ADDRESS_REQUIRED = new Set(['USD', 'GBP', 'EUR']);

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);
const present = (value: unknown) => value !== undefined && value !== null;
const required = (field: string, why: string): FieldError => ({ field, message: `${field} is required ${why}` });

export function isAccountType(value: unknown): value is AccountType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CORRIDORS, value);
}

/** The destination a beneficiary table row is chosen by: the corridor's currency, or the held currency for SWIFT. */
export function beneficiaryDestination(accountType: AccountType, currency: string): string {
  return accountType === 'SWIFT_ACCOUNT' ? currency : accountType.slice(0, 3);
}

/** The currencies `accountType` may be created with (SWIFT: any fiat currency, so any but the crypto ones). */
export function currenciesFor(accountType: AccountType): readonly string[] | null {
  return CORRIDORS[accountType].currencies;
}

const CRYPTO_CURRENCIES = new Set(['BTC', 'USDC', 'USDT']);

/**
 * This service's rules on an accountInfo: every rule of the corridor and beneficiary tables that
 * spans more than one field. Runs on input that may be invalid in any other way (never throws);
 * `currency` may be unknown (updates).
 */
export function accountRuleErrors(currency: unknown, info: unknown, prefix = 'accountInfo', today = Clock.real()): FieldError[] {
  if (!isPlain(info) || !isAccountType(info.accountType)) return [];
  const accountType = info.accountType;
  const corridor = CORRIDORS[accountType];
  const errors: FieldError[] = [];
  const expected = corridor.currencies;
  if (typeof currency === 'string') {
    if (expected !== null && !expected.includes(currency)) {
      errors.push({ field: 'currency', message: `currency must be ${expected.join(' or ')} for accountType ${accountType}`, constraint: { enum: [...expected] } });
    } else if (expected === null && (CRYPTO_CURRENCIES.has(currency) || !/^[A-Z]{3}$/.test(currency))) {
      // SWIFT: the fiat currency the destination holds, an ISO 4217 code.
      errors.push({ field: 'currency', message: `currency must be the ISO 4217 code of the fiat currency ${accountType} holds`, constraint: { pattern: '^[A-Z]{3}$' } });
    }
  }
  errors.push(...alternativeFieldErrors(accountType, info, prefix));
  if (isPlain(info.beneficiary)) {
    const heldCurrency = typeof currency === 'string' ? currency : expected?.[0];
    if (heldCurrency) errors.push(...beneficiaryErrors(accountType, heldCurrency, info.beneficiary, `${prefix}.beneficiary`, today));
  }
  return errors;
}

function alternativeFieldErrors(accountType: AccountType, info: Plain, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const field = (name: string) => `${prefix}.${name}`;
  const corridor = CORRIDORS[accountType];
  if (corridor.oneOf && !corridor.oneOf.some((name) => present(info[name]))) {
    errors.push(required(field(corridor.oneOf[0]), `(or ${corridor.oneOf.slice(1).join(' or ')}): the destination needs an identifier`));
  }
  if (accountType === 'COP_ACCOUNT' || accountType === 'SLV_ACCOUNT') {
    // SPEC.md: a bank transfer or a mobile-money destination, one of the two (neither: the corridor's oneOf above).
    const bank = present(info.accountNumber);
    const mobile = present(info.phoneNumber);
    if (bank && mobile) {
      errors.push({ field: field('phoneNumber'), message: `${field('phoneNumber')} must not be given with accountNumber: choose bank transfer or mobile money` });
    } else if (mobile && present(info.bankAccountType)) {
      errors.push({ field: field('bankAccountType'), message: `${field('bankAccountType')} only applies to bank transfers` });
    }
  } else if (accountType === 'SWIFT_ACCOUNT') {
    // SPEC.md: accountNumber, or iban for IBAN-only corridors (neither: the corridor's oneOf above).
    if (present(info.accountNumber) && present(info.iban)) {
      errors.push({ field: field('iban'), message: `${field('iban')} must not be given with accountNumber: give exactly one` });
    }
  } else if (accountType === 'INR_ACCOUNT') {
    if (present(info.accountNumber) && !present(info.ifsc)) errors.push(required(field('ifsc'), 'with accountNumber (NEFT/RTGS)'));
  }
  return errors;
}

function beneficiaryErrors(accountType: AccountType, currency: string, beneficiary: Plain, prefix: string, today: Date): FieldError[] {
  const errors: FieldError[] = [];
  const field = (name: string) => `${prefix}.${name}`;
  const corridor = CORRIDORS[accountType];
  const destination = beneficiaryDestination(accountType, currency);
  if (typeof beneficiary.birthDate === 'string' && beneficiary.birthDate > today.toISOString().slice(0, 10)) {
    errors.push({ field: field('birthDate'), message: `${field('birthDate')} must be a date in the past`, constraint: { format: 'date' } });
  }
  if (present(beneficiary.documentNumber) && !present(beneficiary.documentType)) errors.push(required(field('documentType'), 'with documentNumber'));
  if (present(beneficiary.documentType) && !present(beneficiary.documentNumber)) errors.push(required(field('documentNumber'), 'with documentType'));
  const address = isPlain(beneficiary.address) ? beneficiary.address : undefined;
  if (beneficiary.beneficiaryType === 'INDIVIDUAL') {
    if (!present(beneficiary.fullName)) errors.push(required(field('fullName'), 'for an INDIVIDUAL beneficiary'));
    for (const name of ['businessInfo', 'legalName'] as const) {
      if (present(beneficiary[name])) errors.push({ field: field(name), message: `${field(name)} is only accepted for BUSINESS beneficiaries` });
    }
    for (const name of corridor.individualRequires ?? []) {
      if (!present(beneficiary[name])) errors.push(required(field(name), `for an INDIVIDUAL beneficiary of ${accountType}`));
    }
    if (corridor.beneficiary === 'bank' && INDIVIDUAL_FULL_ADDRESS_REQUIRED.has(destination)) {
      if (!present(beneficiary.address)) errors.push(required(field('address'), `for an INDIVIDUAL beneficiary of a ${destination} destination`));
      else if (address && !present(address.city)) errors.push(required(field('address.city'), `for an INDIVIDUAL beneficiary of a ${destination} destination`));
    }
  } else if (beneficiary.beneficiaryType === 'BUSINESS') {
    const business = isPlain(beneficiary.businessInfo) ? beneficiary.businessInfo : {};
    const given = (name: 'legalName' | 'registrationNumber' | 'taxId') => present(beneficiary[name]) || present(business[name]);
    if (!given('legalName')) errors.push(required(field('legalName'), 'for a BUSINESS beneficiary (or businessInfo.legalName)'));
    if (corridor.beneficiary === 'bank') {
      if (BUSINESS_ADDRESS_REQUIRED.has(destination) && !present(beneficiary.address))
        errors.push(required(field('address'), `for a BUSINESS beneficiary receiving ${destination}`));
      if ((destination === 'EUR' || BUSINESS_REGISTRATION_AND_TAX_ID.has(destination)) && !given('registrationNumber')) {
        errors.push(required(field('registrationNumber'), `for a BUSINESS beneficiary receiving ${destination} (or businessInfo.registrationNumber)`));
      }
      if (BUSINESS_REGISTRATION_AND_TAX_ID.has(destination) && !given('taxId')) {
        errors.push(required(field('taxId'), `for a BUSINESS beneficiary receiving ${destination} (or businessInfo.taxId)`));
      }
    }
  }
  return errors;
}

interface PixKeyRule {
  test: (value: string) => boolean;
  description: string;
}
const PIX_KEY_RULES: Record<PixKeyType, PixKeyRule> = {
  CPF: { test: (v) => ACCOUNT_FORMATS.cpf.test(v), description: '11 digits (CPF)' },
  CNPJ: { test: (v) => ACCOUNT_FORMATS.cnpj.test(v), description: '14 digits (CNPJ)' },
  EMAIL: { test: (v) => isEmail(v), description: 'an email address' },
  PHONE: { test: (v) => isE164(v), description: 'a phone number in E.164 format' },
  RANDOM: { test: (v) => ACCOUNT_FORMATS.randomPixKey.test(v), description: 'a random key (UUID)' },
};

/**
 * Checks stricter than the reference API, on valid account data: check digits (ABA routing,
 * CLABE, IBAN), the pix key's format for its type, a EUR IBAN's SEPA country and length, and a
 * SWIFT IBAN's country. The account is registered all the same; the warnings travel with it.
 */
export function accountWarnings(info: Plain, prefix = 'accountInfo'): ExternalAccountWarning[] {
  if (!isAccountType(info.accountType)) return [];
  const field = (name: string) => `${prefix}.${name}`;
  const warnings = checkDigitWarnings(info.accountType, info, prefix);
  if (info.accountType === 'BRL_ACCOUNT') {
    if (info.taxId === undefined) {
      warnings.push({
        field: field('taxId'),
        message: `${field('taxId')} (the beneficiary's CPF or CNPJ) is missing: the API asks for it on BRL accounts, though its earliest versions did not`,
      });
    }
    const rule = PIX_KEY_RULES[info.pixKeyType as PixKeyType];
    if (rule && typeof info.pixKey === 'string' && !rule.test(info.pixKey)) {
      warnings.push({ field: field('pixKey'), message: `${field('pixKey')} is not ${rule.description}, the usual form for pixKeyType ${String(info.pixKeyType)}` });
    }
  } else if (info.accountType === 'EUR_ACCOUNT' && typeof info.iban === 'string' && isValidIbanChecksum(info.iban)) {
    const country = info.iban.slice(0, 2);
    const length = SEPA_IBAN_LENGTHS[country];
    if (length === undefined) warnings.push({ field: field('iban'), message: `${field('iban')} is not an IBAN of a SEPA country` });
    else if (info.iban.length !== length)
      warnings.push({ field: field('iban'), message: `${field('iban')} has ${info.iban.length} characters; IBANs of ${country} have ${length}` });
  } else if (info.accountType === 'SWIFT_ACCOUNT' && typeof info.iban === 'string' && typeof info.country === 'string' && info.iban.slice(0, 2) !== info.country) {
    warnings.push({ field: field('iban'), message: `${field('iban')} is an IBAN of ${info.iban.slice(0, 2)}, not of ${info.country} (the account's country)` });
  }
  return warnings;
}
