import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsCalendarDate, IsCountryCode, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type, TypeHelpOptions } from 'class-transformer';
import { Allow, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ACCOUNT_TYPES, AccountType, COP_DOCUMENT_TYPES, Corridor, CorridorField, CORRIDORS } from './corridors';
import { BENEFICIARY_TYPES, BeneficiaryType } from './enums';

const optionalText = (target: object, property: string, description: string, example: string, maxLength = 255): void => {
  ApiPropertyOptional({ type: String, description, example })(target, property);
  IsOptional()(target, property);
  IsString()(target, property);
  MaxLength(maxLength)(target, property);
};

/** A beneficiary's address; only line1, postalCode and country are always required. */
export class BeneficiaryAddressInput {
  @ApiProperty({ description: 'Street address, first line', example: '1 Market St' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  line1!: string;

  line2?: string;
  /** Optional in general; SPEC.md's minimum tables require it for USD, GBP and EUR individuals. */
  city?: string;
  state?: string;

  @ApiProperty({ description: 'Postal code', example: '94105' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(20)
  postalCode!: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 country', example: 'US' })
  @IsCountryCode()
  country!: string;
}
optionalText(BeneficiaryAddressInput.prototype, 'line2', 'Street address, second line', 'Suite 400', 200);
optionalText(BeneficiaryAddressInput.prototype, 'city', 'City (required for USD, GBP and EUR individual beneficiaries)', 'San Francisco', 100);
optionalText(BeneficiaryAddressInput.prototype, 'state', 'State, province or region', 'CA', 100);

/** SPEC.md's nesting of a business beneficiary's identity (the flat legalName, registrationNumber and taxId are equivalent). */
export class BeneficiaryBusinessInfoInput {
  legalName?: string;
  registrationNumber?: string;
  taxId?: string;
}
optionalText(BeneficiaryBusinessInfoInput.prototype, 'legalName', 'Registered legal name', 'Acme Trading Ltd', 200);
optionalText(BeneficiaryBusinessInfoInput.prototype, 'registrationNumber', 'Company registration number', 'RC-123456', 64);
optionalText(BeneficiaryBusinessInfoInput.prototype, 'taxId', 'Tax identifier', '12-3456789', 64);

/**
 * The owner of a destination, individual or business. Which fields are required depends on the
 * beneficiaryType and the destination (the service's rules, listed with every other problem).
 */
export class BeneficiaryInput {
  @ApiProperty({ enum: BENEFICIARY_TYPES, description: 'Who owns the destination', example: 'INDIVIDUAL' })
  @IsOneOf(BENEFICIARY_TYPES)
  beneficiaryType!: BeneficiaryType;

  fullName?: string;

  @ApiPropertyOptional({ description: 'Date of birth, YYYY-MM-DD, in the past', example: '1988-07-21' })
  @IsOptional()
  @IsCalendarDate()
  birthDate?: string;

  @ApiPropertyOptional({ description: 'Nationality, ISO 3166-1 alpha-2', example: 'PH' })
  @IsOptional()
  @IsCountryCode()
  nationality?: string;

  @ApiPropertyOptional({ description: 'Country of residence, ISO 3166-1 alpha-2', example: 'PH' })
  @IsOptional()
  @IsCountryCode()
  countryOfResidence?: string;

  email?: string;
  phoneNumber?: string;

  @ApiPropertyOptional({ enum: COP_DOCUMENT_TYPES, description: 'Identity document type (COP: needed by most banks for matching)', example: 'CC' })
  @IsOptional()
  @IsOneOf(COP_DOCUMENT_TYPES)
  documentType?: string;

  @ApiPropertyOptional({ description: 'Identity document number (with documentType)', example: '1020304050' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  documentNumber?: string;

  legalName?: string;
  registrationNumber?: string;
  taxId?: string;

  @ApiPropertyOptional({ type: BeneficiaryBusinessInfoInput, description: 'Business beneficiaries: legalName, registrationNumber, taxId (or give them at this level)' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BeneficiaryBusinessInfoInput)
  businessInfo?: BeneficiaryBusinessInfoInput;

  @ApiPropertyOptional({ type: BeneficiaryAddressInput, description: 'Beneficiary address' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => BeneficiaryAddressInput)
  address?: BeneficiaryAddressInput;
}
optionalText(BeneficiaryInput.prototype, 'fullName', 'Full name (individuals; required for them)', 'Maria Santos', 200);
optionalText(BeneficiaryInput.prototype, 'email', 'Email address', 'maria@example.com', 254);
optionalText(BeneficiaryInput.prototype, 'phoneNumber', 'Phone number, international format', '+15555550100', 32);
optionalText(BeneficiaryInput.prototype, 'legalName', 'Business beneficiaries: registered legal name (required for them, here or in businessInfo)', 'Acme Trading Ltd', 200);
optionalText(BeneficiaryInput.prototype, 'registrationNumber', 'Company registration number', 'RC-123456', 64);
optionalText(BeneficiaryInput.prototype, 'taxId', 'Tax identifier', '12-3456789', 64);

// ---- accountInfo: one class per accountType, built from its corridor ----
abstract class AccountInfoBase {
  accountType!: AccountType;
}

function decorateField(target: object, name: string, field: CorridorField): void {
  const schema = {
    type: String,
    description: field.description,
    example: field.example,
    ...(field.pattern ? { pattern: field.pattern.source } : {}),
    ...(field.enum ? { enum: [...field.enum] } : {}),
    ...(field.minLength !== undefined && !field.enum ? { minLength: field.minLength } : {}),
    ...(field.maxLength !== undefined && !field.enum ? { maxLength: field.maxLength } : {}),
  };
  if (field.required) {
    ApiProperty(schema)(target, name);
  } else {
    ApiPropertyOptional(schema)(target, name);
    IsOptional()(target, name);
  }
  if (field.enum) {
    IsOneOf(field.enum)(target, name);
  } else if (field.country) {
    IsCountryCode()(target, name);
  } else if (field.pattern) {
    MatchesPattern(field.pattern, field.patternText ?? 'the documented format')(target, name);
  } else {
    IsString()(target, name);
    if (field.required || field.minLength) IsNotEmpty()(target, name);
    if (field.maxLength !== undefined) MaxLength(field.maxLength)(target, name);
  }
}

function decorateBeneficiary(target: object, corridor: Corridor): void {
  if (corridor.beneficiary === 'none') return;
  const required = corridor.beneficiary === 'bank';
  const description = required ? 'Owner of the destination; minimum fields depend on the destination' : 'Owner of a hosted wallet (optional; a self-custody wallet has none)';
  (required ? ApiProperty : ApiPropertyOptional)({ type: BeneficiaryInput, description })(target, 'beneficiary');
  if (required) IsDefined()(target, 'beneficiary');
  else IsOptional()(target, 'beneficiary');
  IsObject()(target, 'beneficiary');
  ValidateNested()(target, 'beneficiary');
  Type(() => BeneficiaryInput)(target, 'beneficiary');
}

/** The request class of one accountType: its name is the OpenAPI schema name of the corridor. */
function accountInfoClassFor(accountType: AccountType): new () => AccountInfoBase {
  const corridor = CORRIDORS[accountType];
  const created = { [corridor.schema]: class extends AccountInfoBase {} }[corridor.schema];
  const target = created.prototype as object;
  ApiProperty({ enum: [accountType], example: accountType })(target, 'accountType');
  IsOneOf([accountType])(target, 'accountType');
  for (const [name, field] of Object.entries(corridor.fields)) decorateField(target, name, field);
  decorateBeneficiary(target, corridor);
  // The reference's own example carries the account's platformAccountId inside accountInfo: accepted there too.
  ApiPropertyOptional({ type: String, description: "Accepted for compatibility: the platform's id for the account when the top-level one is absent", example: 'ext_acc_123456' })(
    target,
    'platformAccountId',
  );
  IsOptional()(target, 'platformAccountId');
  IsString()(target, 'platformAccountId');
  MaxLength(128)(target, 'platformAccountId');
  return created;
}

export const ACCOUNT_INFO_CLASSES = Object.fromEntries(ACCOUNT_TYPES.map((type) => [type, accountInfoClassFor(type)])) as Record<AccountType, new () => AccountInfoBase>;

/** A validated accountInfo: its accountType and the corridor's fields. */
export type AccountInfoInput = AccountInfoBase & Record<string, unknown>;

/**
 * What an accountInfo with a missing or unknown accountType becomes: only accountType is
 * reported, not every other field as "unrecognised".
 */
class UnknownAccountInfo {
  @IsOneOf(ACCOUNT_TYPES) accountType!: string;
}
const ALL_ACCOUNT_INFO_FIELDS = new Set(['beneficiary', 'platformAccountId', ...ACCOUNT_TYPES.flatMap((type) => Object.keys(CORRIDORS[type].fields))]);
for (const field of ALL_ACCOUNT_INFO_FIELDS) Allow()(UnknownAccountInfo.prototype, field);

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
  description: 'Destination details; `accountType` selects the shape and must agree with `currency` (SWIFT_ACCOUNT: any fiat currency)',
  oneOf: ACCOUNT_TYPES.map((type) => ({ $ref: getSchemaPath(ACCOUNT_INFO_CLASSES[type]) })),
  discriminator: {
    propertyName: 'accountType',
    mapping: Object.fromEntries(ACCOUNT_TYPES.map((type) => [type, getSchemaPath(ACCOUNT_INFO_CLASSES[type])])),
  },
};

// ---- the accountInfo of a response: the registered fields plus the rails they reach ----
function responseClassFor(accountType: AccountType): new () => object {
  const corridor = CORRIDORS[accountType];
  const name = corridor.schema.replace(/AccountInfo$/, 'AccountInfoResponse');
  const created = { [name]: class extends ACCOUNT_INFO_CLASSES[accountType] {} }[name];
  if (corridor.paymentRails.length > 0) {
    ApiProperty({
      type: [String],
      enum: [...corridor.paymentRails],
      description: 'Payment rails this destination can be paid by',
      example: [...corridor.paymentRails],
    })(created.prototype, 'paymentRails');
  }
  return created;
}

export const ACCOUNT_INFO_RESPONSE_CLASSES = Object.fromEntries(ACCOUNT_TYPES.map((type) => [type, responseClassFor(type)])) as Record<AccountType, new () => object>;

const ACCOUNT_INFO_RESPONSE_SCHEMA = {
  description: 'Destination details as registered, with the payment rails they reach',
  oneOf: ACCOUNT_TYPES.map((type) => ({ $ref: getSchemaPath(ACCOUNT_INFO_RESPONSE_CLASSES[type]) })),
  discriminator: {
    propertyName: 'accountType',
    mapping: Object.fromEntries(ACCOUNT_TYPES.map((type) => [type, getSchemaPath(ACCOUNT_INFO_RESPONSE_CLASSES[type])])),
  },
};

/** Put on controllers (and response DTOs) so every accountInfo shape lands in the OpenAPI document. */
export const ApiAccountInfoModels = () =>
  ApiExtraModels(...ACCOUNT_TYPES.map((type) => ACCOUNT_INFO_CLASSES[type]), ...ACCOUNT_TYPES.map((type) => ACCOUNT_INFO_RESPONSE_CLASSES[type]));
export { ACCOUNT_INFO_RESPONSE_SCHEMA, ACCOUNT_INFO_SCHEMA };
