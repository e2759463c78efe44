import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsCalendarDate, IsCountryCode, IsE164Phone, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type, TypeHelpOptions } from 'class-transformer';
import { Allow, buildMessage, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateBy, ValidateNested } from 'class-validator';
import { AddressInput, BusinessInfoInput } from '../customers';
import { ACCOUNT_TYPES, AccountType, BANK_ACCOUNT_TYPES, BENEFICIARY_TYPES, BeneficiaryType, COP_DOCUMENT_TYPES, MOBILE_MONEY_PROVIDERS, PIX_KEY_TYPES, PixKeyType } from './enums';
import { ACCOUNT_FORMATS } from './formats';

/**
 * An IBAN in electronic format. Its check digits, and which countries and lengths a corridor
 * accepts, are the external-accounts service's rules; the message names the whole requirement.
 */
function IsIbanFormat(): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIban',
      validator: {
        validate: (value) => typeof value === 'string' && ACCOUNT_FORMATS.iban.test(value),
        defaultMessage: buildMessage((each) => `${each}$property must be an IBAN (electronic format, no spaces) with a valid check digit`),
      },
    },
    { context: { constraint: { format: 'iban' } } },
  );
}

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
  @IsIbanFormat()
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
  @IsIbanFormat()
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
const ALL_ACCOUNT_INFO_FIELDS = new Set(ACCOUNT_TYPES.flatMap((type) => Object.keys(new ACCOUNT_INFO_CLASSES[type]()).concat(knownProperties(ACCOUNT_INFO_CLASSES[type]))));
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
export function accountInfoClass(options?: TypeHelpOptions): new () => object {
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
