import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsCountryCode, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PageQuery } from '../common';
import { typedIdPattern } from '../ids';
import {
  EXTERNAL_ACCOUNT_OWNER_TYPES,
  EXTERNAL_ACCOUNT_STATUSES,
  ExternalAccountOwnerType,
  ExternalAccountStatus,
  OWNERSHIP_TYPES,
  OWNERSHIP_VERIFICATION_METHODS,
  OwnershipType,
  OwnershipVerificationMethod,
  SIGNATURE_SCHEMES,
} from './enums';
import { ACCOUNT_FORMATS } from './formats';
import { ACCOUNT_INFO_SCHEMA, accountInfoClass, AccountInfoInput } from './account-info';

abstract class ExternalAccountFields {
  @ApiProperty({
    description: 'Currency of the destination account (ISO 4217; BTC for LN_WALLET and LIGHTNING; USDC or USDT for on-chain wallets); must agree with accountType',
    example: 'USD',
  })
  @MatchesPattern(ACCOUNT_FORMATS.currencyCode, 'an upper-case currency code (3 to 5 letters)')
  currency!: string;

  @ApiPropertyOptional({ description: "Platform's own id for the account", example: 'acct-ada-checking' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformAccountId?: string;

  @ApiPropertyOptional({
    enum: OWNERSHIP_TYPES,
    description: "FIRST_PARTY: the owner's own account; THIRD_PARTY: someone else's. A FIRST_PARTY self-custody on-chain wallet must prove ownership (challenge, verify)",
    example: 'FIRST_PARTY',
  })
  @IsOptional()
  @IsOneOf(OWNERSHIP_TYPES)
  ownershipType?: OwnershipType;

  @ApiProperty(ACCOUNT_INFO_SCHEMA)
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(accountInfoClass)
  accountInfo!: AccountInfoInput;
}

export class CreatePlatformExternalAccountRequest extends ExternalAccountFields {}

export class CreateCustomerExternalAccountRequest extends ExternalAccountFields {
  @ApiPropertyOptional({ description: "Whether this account receives the customer's UMA payments by default", example: false })
  @IsOptional()
  @IsBoolean()
  defaultUmaDepositAccount?: boolean;

  @ApiPropertyOptional({
    description: 'Owner of the account, a customer of the platform (required except for agent callers, whose customer it is)',
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
  @IsOptional()
  @MatchesPattern(typedIdPattern('Customer'), 'a customer id (Customer:<uuid>)')
  customerId?: string;
}

/**
 * The create message: who will own the account, and the HTTP body as the client sent it. The
 * service validates the body (CreateCustomerExternalAccountRequest, or
 * CreatePlatformExternalAccountRequest for PLATFORM) together with its own rules, so every
 * problem of a request is answered at once.
 */
export class CreateExternalAccountMessage {
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
  @Allow() body?: unknown;
}

export class UpdateExternalAccountRequest {
  @ApiPropertyOptional({ description: "Platform's own id for the account; null removes it", example: 'acct-ada-checking', nullable: true })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformAccountId?: string | null;

  @ApiPropertyOptional({ ...ACCOUNT_INFO_SCHEMA, description: 'Replaces the destination details (same currency); re-runs review' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(accountInfoClass)
  accountInfo?: AccountInfoInput;
}

/** The update message: which account, and the HTTP body as the client sent it (UpdateExternalAccountRequest; validated like on create). */
export class UpdateExternalAccountMessage {
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
  @IsString() @IsNotEmpty() @MaxLength(64) externalAccountId!: string;
  @Allow() body?: unknown;
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

  @ApiPropertyOptional({ description: 'Only accounts in this currency', example: 'USD' })
  @IsOptional()
  @MatchesPattern(ACCOUNT_FORMATS.currencyCode, 'an upper-case currency code (3 to 5 letters)')
  currency?: string;
}

export class ListPlatformExternalAccountsQuery extends ExternalAccountsPageQuery {}

export class ListCustomerExternalAccountsQuery extends ExternalAccountsPageQuery {
  @ApiPropertyOptional({
    description: "Only this customer's accounts (404 USER_NOT_FOUND if not a customer of the platform)",
    example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69',
  })
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

export class OwnershipChallengeRequest {
  @ApiProperty({ enum: OWNERSHIP_VERIFICATION_METHODS, description: 'How ownership is proven', example: 'WALLET_SIGNATURE' })
  @IsOneOf(OWNERSHIP_VERIFICATION_METHODS)
  method!: OwnershipVerificationMethod;
}

export class OwnershipVerifyRequest {
  @ApiProperty({
    description: 'The wallet signature over messageToSign: EIP-191 hex for EVM networks, base58 Ed25519 for Solana, hex (TIP-191) for Tron',
    example: '0x52d75f01c9e7b8b2ce2fbcbd21bfeeee7bcd1a2f01ce6b8ad9a67a45e83a8f5d1c',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  signature!: string;

  @ApiPropertyOptional({ enum: SIGNATURE_SCHEMES, description: 'Bitcoin message-signing format (ignored on the networks served here)', example: 'bip137' })
  @IsOptional()
  @IsOneOf(SIGNATURE_SCHEMES)
  signatureScheme?: string;
}

/** Start (or restart) ownership verification of a wallet account. */
export class OwnershipChallengeMessage extends OwnershipChallengeRequest {
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
  @IsString() @IsNotEmpty() @MaxLength(64) externalAccountId!: string;
}

/** Complete a WALLET_SIGNATURE challenge. */
export class OwnershipVerifyMessage extends OwnershipVerifyRequest {
  @IsOneOf(EXTERNAL_ACCOUNT_OWNER_TYPES) ownerType!: ExternalAccountOwnerType;
  @IsString() @IsNotEmpty() @MaxLength(64) externalAccountId!: string;
}
