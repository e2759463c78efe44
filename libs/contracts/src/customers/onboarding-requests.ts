import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsCalendarDate, IsCountryCode, IsE164Phone, IsOneOf, MatchesPattern, NormalisedFileName } from '@paykit/validation';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  buildMessage,
} from 'class-validator';
import { PageQuery, stacked } from '../common';
import {
  ANNUAL_INCOME_RANGES,
  AnnualIncomeRange,
  DOCUMENT_SIDES,
  DocumentSide,
  ID_TYPES,
  IdType,
  VERIFICATION_STATUSES,
  VerificationStatus,
  BENEFICIAL_OWNER_ROLES,
  BeneficialOwnerRole,
  CONTACT_CHANNELS,
  ContactChannel,
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_TYPES,
  DocumentContentType,
  DocumentType,
  PURPOSES_OF_ACCOUNT,
  PurposeOfAccount,
  SOURCE_OF_WEALTH_CATEGORIES,
  SourceOfWealthCategory,
} from './enums';
import { AddressInput } from './requests';

const HTTP_URL = { protocols: ['http', 'https'], require_protocol: true, require_tld: false, disallow_auth: true, allow_underscores: true };

export class CreateVerificationRequest {
  @ApiProperty({ description: 'The customer to verify', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  customerId!: string;
}

export class ContactCodeRequest {
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @IsOneOf(CONTACT_CHANNELS)
  channel!: ContactChannel;
}

/** Body of `verify-email/confirm` and `verify-phone/confirm`. */
export class ContactCodeBody {
  @ApiProperty({ description: 'The one-time code sent to the channel (sandbox: always `000000`)', example: '000000' })
  @IsString()
  @MatchesPattern(/^\d{6}$/, 'a 6-digit code')
  code!: string;
}

export class ConfirmContactCodeRequest extends ContactCodeRequest {
  @IsString()
  @MatchesPattern(/^\d{6}$/, 'a 6-digit code')
  code!: string;
}

/** Body of `POST /customers/{customerId}/kyc-link`. */
export class KycLinkBody {
  @ApiPropertyOptional({
    description: 'Where the hosted page sends the customer when verification is done; without it the page shows a completion message',
    example: 'https://platform.example/onboarding/done',
    format: 'uri',
  })
  @IsOptional()
  @IsUrl(HTTP_URL, { context: { constraint: { format: 'url' } } })
  @MaxLength(2000)
  redirectUri?: string;
}

export class CreateKycLinkRequest extends KycLinkBody {
  @IsString()
  @IsNotEmpty()
  customerId!: string;
}

export class KycLinkTokenRequest {
  @IsString()
  @MatchesPattern(/^[A-Za-z0-9_-]{20,100}$/, 'a KYC link token')
  token!: string;
}

/** What the hosted page submits: the token and, when the customer lacks them, the EDD answers. */
export class CompleteKycLinkRequest extends KycLinkTokenRequest {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsOneOf(SOURCE_OF_WEALTH_CATEGORIES, { each: true })
  sourceOfWealthCategories?: SourceOfWealthCategory[];

  @IsOptional()
  @IsOneOf(PURPOSES_OF_ACCOUNT)
  purposeOfAccount?: PurposeOfAccount;

  @IsOptional()
  @IsOneOf(ANNUAL_INCOME_RANGES)
  annualIncomeRange?: AnnualIncomeRange;
}

/** The optional details of a person, with the same rules whether a person is created or updated. */
const PersonDetail = {
  email: () =>
    stacked(
      ApiPropertyOptional({ description: 'Email address', example: 'grace@acme.example' }),
      IsOptional(),
      IsEmail({}, { context: { constraint: { format: 'email' } } }),
      MaxLength(254),
    ),
  phoneNumber: () => stacked(ApiPropertyOptional({ description: 'Phone number in E.164 format', example: '+14155550188' }), IsOptional(), IsE164Phone()),
  address: () =>
    stacked(
      ApiPropertyOptional({ type: AddressInput, description: 'Residential address' }),
      IsOptional(),
      ValidateNested(),
      Type(() => AddressInput),
    ),
  title: () => stacked(ApiPropertyOptional({ description: 'Job title (directors and officers)', example: 'Chief Executive Officer' }), IsOptional(), IsString(), MaxLength(100)),
  idType: () => stacked(ApiPropertyOptional({ enum: ID_TYPES, description: 'Kind of government identifier in `identifier`', example: 'SSN' }), IsOptional(), IsOneOf(ID_TYPES)),
  identifier: () =>
    stacked(
      ApiPropertyOptional({ description: 'Government identifier; answers show only its last four characters', example: '123-45-6789' }),
      IsOptional(),
      IsString(),
      IsNotEmpty(),
      MaxLength(64),
    ),
  countryOfIssuance: () => stacked(ApiPropertyOptional({ description: 'Country that issued the identifier, ISO 3166-1 alpha-2', example: 'US' }), IsOptional(), IsCountryCode()),
};

/** A person's details; every field optional here, the create rules in PersonalInfoInput. */
export class PersonalInfoUpdateInput {
  @ApiPropertyOptional({ description: 'Given name(s)', example: 'Grace' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName?: string;

  @ApiPropertyOptional({ description: 'Middle name(s)', example: 'Brewster' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  middleName?: string;

  @ApiPropertyOptional({ description: 'Family name; its last 3 characters drive sandbox KYC of the owner', example: 'Hopper' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName?: string;

  @ApiPropertyOptional({ description: 'Date of birth, YYYY-MM-DD', example: '1976-12-09' })
  @IsOptional()
  @IsCalendarDate()
  birthDate?: string;

  @ApiPropertyOptional({ description: 'Nationality, ISO 3166-1 alpha-2', example: 'US' })
  @IsOptional()
  @IsCountryCode()
  nationality?: string;

  @PersonDetail.email() email?: string;
  @PersonDetail.phoneNumber() phoneNumber?: string;
  @PersonDetail.address() address?: AddressInput;
  @PersonDetail.title() title?: string;
  @PersonDetail.idType() idType?: IdType;
  @PersonDetail.identifier() identifier?: string;
  @PersonDetail.countryOfIssuance() countryOfIssuance?: string;
}

export class PersonalInfoInput {
  @ApiProperty({ description: 'Given name(s)', example: 'Grace' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  firstName!: string;

  @ApiPropertyOptional({ description: 'Middle name(s)', example: 'Brewster' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  middleName?: string;

  @ApiProperty({ description: 'Family name; its last 3 characters drive sandbox KYC of the owner', example: 'Hopper' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  lastName!: string;

  @ApiProperty({ description: 'Date of birth, YYYY-MM-DD', example: '1976-12-09' })
  @IsCalendarDate()
  birthDate!: string;

  @ApiProperty({ description: 'Nationality, ISO 3166-1 alpha-2', example: 'US' })
  @IsCountryCode()
  nationality!: string;

  @PersonDetail.email() email?: string;
  @PersonDetail.phoneNumber() phoneNumber?: string;
  @PersonDetail.address() address?: AddressInput;
  @PersonDetail.title() title?: string;
  @PersonDetail.idType() idType?: IdType;
  @PersonDetail.identifier() identifier?: string;
  @PersonDetail.countryOfIssuance() countryOfIssuance?: string;
}

export class CreateBeneficialOwnerRequest {
  @ApiProperty({ description: 'The BUSINESS customer the person belongs to', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  customerId!: string;

  @ApiProperty({ enum: BENEFICIAL_OWNER_ROLES, isArray: true, description: "The person's roles in the business", example: ['UBO', 'DIRECTOR'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsOneOf(BENEFICIAL_OWNER_ROLES, { each: true })
  roles!: BeneficialOwnerRole[];

  @ApiPropertyOptional({ description: 'Ownership share in percent, 0 to 100 (beneficial owners)', example: 25 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  ownershipPercentage?: number;

  @ApiProperty({ type: PersonalInfoInput })
  @IsDefined()
  @ValidateNested()
  @Type(() => PersonalInfoInput)
  personalInfo!: PersonalInfoInput;
}

/** Body of `PATCH /beneficial-owners/{id}`: only the fields given change. */
export class UpdateBeneficialOwnerBody {
  @ApiPropertyOptional({ enum: BENEFICIAL_OWNER_ROLES, isArray: true, description: "Replaces the person's roles", example: ['UBO'] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsOneOf(BENEFICIAL_OWNER_ROLES, { each: true })
  roles?: BeneficialOwnerRole[];

  @ApiPropertyOptional({ description: 'Ownership share in percent, 0 to 100', example: 30, minimum: 0, maximum: 100 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100)
  ownershipPercentage?: number;

  @ApiPropertyOptional({ type: PersonalInfoUpdateInput, description: 'The personal details to change (address replaces the stored one)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => PersonalInfoUpdateInput)
  personalInfo?: PersonalInfoUpdateInput;
}

export class UpdateBeneficialOwnerRequest {
  @IsString()
  @IsNotEmpty()
  beneficialOwnerId!: string;

  @ValidateNested()
  @Type(() => UpdateBeneficialOwnerBody)
  changes!: UpdateBeneficialOwnerBody;
}

export class GetBeneficialOwnerRequest {
  @IsString()
  @IsNotEmpty()
  beneficialOwnerId!: string;
}

export class ListBeneficialOwnersRequest extends PageQuery {
  @ApiPropertyOptional({ description: 'Only the people of this business customer', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  customerId?: string;
}

/** The metadata of an upload or a replacement (multipart fields besides `file`). */
export class DocumentMetadataInput {
  @IsOneOf(DOCUMENT_TYPES)
  documentType!: DocumentType;

  /** Issuing country: the HTTP form requires it; only messages of the contract's version 1 lack it (stored as `ZZ`, unknown). */
  @IsOptional()
  @IsCountryCode()
  country?: string;

  @IsOptional()
  @IsOneOf(DOCUMENT_SIDES)
  side?: DocumentSide;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  documentNumber?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  issuingAuthority?: string;
}

export class StartDocumentUploadRequest extends DocumentMetadataInput {
  /** A customer id, or a beneficial owner id (the owner's business customer holds it). */
  @IsString()
  @IsNotEmpty()
  documentHolder!: string;

  /** Set when a stored document is being replaced (`PUT /documents/{id}`). */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  replacesDocumentId?: string;

  @NormalisedFileName()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  fileName!: string;

  @IsOneOf(DOCUMENT_CONTENT_TYPES)
  contentType!: DocumentContentType;
}

export class AppendDocumentChunkRequest {
  @IsString()
  @IsNotEmpty()
  documentId!: string;

  @IsInt()
  @Min(0)
  index!: number;

  /** Base64 of at most DOCUMENT_CHUNK_BYTES bytes. */
  @IsString()
  @IsNotEmpty()
  data!: string;
}

export class CompleteDocumentUploadRequest {
  @IsString()
  @IsNotEmpty()
  documentId!: string;

  @IsInt()
  @Min(0)
  chunks!: number;
}

export class GetDocumentRequest {
  @IsString()
  @IsNotEmpty()
  documentId!: string;
}

export class GetVerificationRequest {
  @IsString()
  @IsNotEmpty()
  verificationId!: string;
}

export class ListVerificationsRequest extends PageQuery {
  @ApiPropertyOptional({ description: 'Only verifications of this customer', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  customerId?: string;

  @ApiPropertyOptional({ enum: VERIFICATION_STATUSES, description: 'Only verifications with this status', example: 'IN_PROGRESS' })
  @IsOptional()
  @IsOneOf(VERIFICATION_STATUSES)
  verificationStatus?: VerificationStatus;
}

export class ListDocumentsRequest extends PageQuery {
  @ApiPropertyOptional({ description: "Only documents of this customer (its own and its beneficial owners')", example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  customerId?: string;

  @ApiPropertyOptional({ description: 'Only documents held by this customer or beneficial owner', example: 'BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  documentHolder?: string;
}

export class StartBulkImportRequest {
  @NormalisedFileName()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  fileName?: string;
}

/** Each element an array of strings: the cells of a CSV record. */
function IsCsvRecords(): PropertyDecorator {
  return ValidateBy({
    name: 'isCsvRecords',
    validator: {
      validate: (value) => Array.isArray(value) && value.every((cells) => Array.isArray(cells) && cells.every((cell) => typeof cell === 'string')),
      defaultMessage: buildMessage(() => '$property must be an array of records, each an array of strings'),
    },
  });
}

/**
 * A batch of consecutive records of the file: `rows[i]` holds the cells of row `firstRow + i`
 * (the header is row 1). Records are plain string arrays, not an object each: a message carries
 * hundreds of them, and validating as many nested objects cost more than importing the rows.
 */
export class AppendBulkImportRowsRequest {
  @IsString()
  @IsNotEmpty()
  jobId!: string;

  /** The file's header row, sent with every batch so each batch stands alone. */
  @IsArray()
  @IsString({ each: true })
  columns!: string[];

  @IsInt()
  @Min(2)
  firstRow!: number;

  @ArrayMaxSize(5000)
  @IsCsvRecords()
  rows!: string[][];
}

export class FinishBulkImportRequest {
  @IsString()
  @IsNotEmpty()
  jobId!: string;

  /** Set when the file could not be read to the end (malformed CSV, too large, not UTF-8). */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  failure?: string;
}

export class GetBulkImportRequest {
  @IsString()
  @IsNotEmpty()
  jobId!: string;
}
