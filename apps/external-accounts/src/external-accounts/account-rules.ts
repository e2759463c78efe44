import {
  ACCOUNT_FORMATS,
  ACCOUNT_TYPE_CURRENCY,
  AccountType,
  CreateCustomerExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  ExternalAccountOwnerType,
  PixKeyType,
  UpdateExternalAccountRequest,
} from '@paykit/contracts';
import { FieldConstraint, FieldError } from '@paykit/errors';
import { isE164, validateContract } from '@paykit/validation';
import { isEmail } from 'class-validator';
import { checkDigitErrors, isValidIbanChecksum, SEPA_IBAN_LENGTHS } from './check-digits';

/**
 * The bodies of account creation and update, validated here once: the wire shape of the contract
 * and this service's rules (check digits, currency agreement, corridor alternatives, beneficiary
 * minimums) together, so a client learns every problem of a request in one answer. The gateway
 * passes these bodies on as it received them.
 */
export function validateCreateBody(ownerType: ExternalAccountOwnerType, body: unknown): CreateCustomerExternalAccountRequest {
  const type = ownerType === 'CUSTOMER' ? CreateCustomerExternalAccountRequest : CreatePlatformExternalAccountRequest;
  return validateContract(type, body ?? {}, { ownerRules: (request) => accountRuleErrors(request.currency, request.accountInfo) });
}

export function validateUpdateBody(body: unknown): UpdateExternalAccountRequest {
  // The currency is the stored one: the service checks agreement with it once it has the account.
  return validateContract(UpdateExternalAccountRequest, body ?? {}, { ownerRules: (request) => accountRuleErrors(undefined, request.accountInfo) });
}

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
 * This service's rules on an accountInfo: check digits, then every rule of the accountInfo and
 * beneficiary tables that spans more than one field. Runs on input that may be invalid in any
 * other way (never throws); `currency` may be unknown (updates).
 */
export function accountRuleErrors(currency: unknown, info: unknown, prefix = 'accountInfo', today = new Date()): FieldError[] {
  if (!isPlain(info) || typeof info.accountType !== 'string' || !(info.accountType in ACCOUNT_TYPE_CURRENCY)) return [];
  const accountType = info.accountType as AccountType;
  const digits = checkDigitErrors(accountType, info, prefix);
  const errors: FieldError[] = [...digits];
  const expected = ACCOUNT_TYPE_CURRENCY[accountType];
  if (typeof currency === 'string' && expected !== null && currency !== expected) {
    errors.push({ field: 'currency', message: `currency must be ${expected} for accountType ${accountType}`, constraint: { enum: [expected] } });
  }
  if (accountType === 'SWIFT_ACCOUNT' && currency === 'BTC') {
    errors.push({ field: 'currency', message: 'currency BTC is only held by LN_WALLET destinations', constraint: { pattern: ACCOUNT_FORMATS.currencyCode.source } });
  }
  // A field whose check digit is wrong gets that one error.
  errors.push(...alternativeFieldErrors(accountType, info, prefix).filter((error) => !digits.some((digit) => digit.field === error.field)));
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
