import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FieldError } from '@paykit/errors';
import { CrossFieldRules, IsOneOf, MatchesPattern } from '@paykit/validation';
import { Type } from 'class-transformer';
import { IsDefined, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PageQuery } from '../common';

// Stablecoin issuance: provider account links, registered coins, mint and burn operations.
// Wire values (subjects, enums, events) are frozen.

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** An amount in the coin's smallest unit, as the reference sends it: a string of digits. */
const DIGITS = /^[0-9]+$/;

export const STABLECOIN_PROVIDERS = ['BRALE'] as const;
export type StablecoinProvider = (typeof STABLECOIN_PROVIDERS)[number];
export const STABLECOIN_PROVIDER_ENVIRONMENTS = ['SANDBOX', 'PRODUCTION'] as const;
export type StablecoinProviderEnvironment = (typeof STABLECOIN_PROVIDER_ENVIRONMENTS)[number];
export const STABLECOIN_PROVIDER_ACCOUNT_STATUSES = ['ACTIVE', 'INVALID', 'REVOKED'] as const;
export type StablecoinProviderAccountStatus = (typeof STABLECOIN_PROVIDER_ACCOUNT_STATUSES)[number];
export const STABLECOIN_NETWORKS = ['SPARK'] as const;
export type StablecoinNetwork = (typeof STABLECOIN_NETWORKS)[number];
export const STABLECOIN_ISSUANCE_STATUSES = ['PENDING_REVIEW', 'PROVISIONING', 'PROVISIONED', 'REJECTED', 'FAILED'] as const;
export type StablecoinIssuanceStatus = (typeof STABLECOIN_ISSUANCE_STATUSES)[number];
export const STABLECOIN_SERVICE_OPERATIONS_STATUSES = ['NOT_ENABLED', 'PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED'] as const;
export type StablecoinServiceOperationsStatus = (typeof STABLECOIN_SERVICE_OPERATIONS_STATUSES)[number];
export const STABLECOIN_OPERATION_TYPES = ['MINT', 'BURN'] as const;
export type StablecoinOperationType = (typeof STABLECOIN_OPERATION_TYPES)[number];
export const STABLECOIN_OPERATION_STATUSES = ['CREATED', 'PENDING_FUNDING', 'PENDING_PROVIDER', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type StablecoinOperationStatus = (typeof STABLECOIN_OPERATION_STATUSES)[number];
export const STABLECOIN_MINT_FUNDING_TYPES = ['WIRE', 'ACH_DEBIT', 'SAME_DAY_ACH_DEBIT', 'SERVICE_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export type StablecoinMintFundingType = (typeof STABLECOIN_MINT_FUNDING_TYPES)[number];
export const STABLECOIN_BURN_SOURCE_TYPES = ['EXTERNAL_ACCOUNT', 'SERVICE_INTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE'] as const;
export type StablecoinBurnSourceType = (typeof STABLECOIN_BURN_SOURCE_TYPES)[number];
export const STABLECOIN_PAYOUT_RAILS = ['WIRE', 'ACH_CREDIT', 'SAME_DAY_ACH_CREDIT', 'RTP_CREDIT'] as const;
export type StablecoinPayoutRail = (typeof STABLECOIN_PAYOUT_RAILS)[number];

// ---- Resources ----

export interface StablecoinProviderAccount {
  id: string;
  provider: StablecoinProvider;
  providerAccountId: string;
  providerEnvironment: StablecoinProviderEnvironment;
  status: StablecoinProviderAccountStatus;
  lastVerifiedAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface Stablecoin {
  id: string;
  name: string;
  symbol: string;
  baseCurrency: string;
  network: StablecoinNetwork;
  decimals: number;
  issuanceStatus: StablecoinIssuanceStatus;
  serviceOperationsStatus: StablecoinServiceOperationsStatus;
  networkTokenIdentifier: string;
  /** Present once the coin is ENABLED: the currency code internal accounts and quotes use. */
  currency?: string;
  provider: StablecoinProvider;
  stablecoinProviderAccountId: string;
  providerEnvironment: StablecoinProviderEnvironment;
  providerTokenIdentifier: string;
  createdAt: string;
  updatedAt: string;
}

export interface StablecoinOperationSource {
  type: StablecoinMintFundingType | 'EXTERNAL_ACCOUNT';
  externalAccountId?: string;
  accountId?: string;
  sourceTokenIdentifier?: string;
  cryptoNetwork?: string;
}

export interface StablecoinOperationDestination {
  accountId: string;
  rail?: StablecoinPayoutRail;
}

/** Open objects in the reference: the rail decides the rest of the fields. */
export type StablecoinFundingInstructions = Record<string, string>;
export type StablecoinEstimatedDelivery = Record<string, string>;

export interface StablecoinOperation {
  id: string;
  stablecoinId: string;
  operationType: StablecoinOperationType;
  status: StablecoinOperationStatus;
  amount: string;
  provider: StablecoinProvider;
  providerEnvironment: StablecoinProviderEnvironment;
  stablecoinProviderAccountId: string;
  source?: StablecoinOperationSource;
  fundingInstructions?: StablecoinFundingInstructions;
  destination?: StablecoinOperationDestination;
  estimatedDelivery?: StablecoinEstimatedDelivery;
  expiresAt?: string;
  providerStatus?: string;
  failureReason?: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export interface StablecoinPage<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

// ---- Requests (the HTTP bodies; the messages add the Idempotency-Key header) ----

export class StablecoinProviderAccountLinkRequest {
  @ApiProperty({ enum: STABLECOIN_PROVIDERS, description: 'The provider whose API credentials are linked', example: 'BRALE' })
  @IsOneOf(STABLECOIN_PROVIDERS)
  provider!: StablecoinProvider;

  @ApiProperty({ description: 'Provider API client id; it names the provider account', example: 'provider_client_123' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  apiClientId!: string;

  @ApiProperty({ description: 'Provider API client secret: stored sealed, never returned or logged', example: 'provider_secret_abc' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  apiClientSecret!: string;

  @ApiPropertyOptional({
    description: 'The provider account to link, when the credentials reach several (the sandbox credentials reach any)',
    example: '2VcUIonJeVQzFoBuC7LdFT0dRe4',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  providerAccountId?: string;
}

export class LinkStablecoinProviderAccountMessage extends StablecoinProviderAccountLinkRequest {
  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters (the Idempotency-Key header, required)')
  idempotencyKey!: string;
}

export class ListStablecoinProviderAccountsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: STABLECOIN_PROVIDERS })
  @IsOptional()
  @IsOneOf(STABLECOIN_PROVIDERS)
  provider?: StablecoinProvider;

  @ApiPropertyOptional({ enum: STABLECOIN_PROVIDER_ACCOUNT_STATUSES })
  @IsOptional()
  @IsOneOf(STABLECOIN_PROVIDER_ACCOUNT_STATUSES)
  status?: StablecoinProviderAccountStatus;
}

export class StablecoinProviderAccountRef {
  @IsString()
  @IsNotEmpty()
  stablecoinProviderAccountId!: string;
}

export class StablecoinRegisterRequest {
  @ApiProperty({ description: "The provider's identifier of the token (Brale's value_type); the coin's symbol and currency code", example: 'ACME' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  providerTokenIdentifier!: string;

  @ApiProperty({ description: 'Token identifier in the namespace of `network`', example: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  networkTokenIdentifier!: string;

  @ApiProperty({ enum: STABLECOIN_NETWORKS, description: 'Network family of the token identifier', example: 'SPARK' })
  @IsOneOf(STABLECOIN_NETWORKS)
  network!: StablecoinNetwork;

  @ApiPropertyOptional({
    description: 'The provider account link to register against; needed only when the platform has more than one ACTIVE link',
    example: 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  stablecoinProviderAccountId?: string;
}

export class RegisterStablecoinMessage extends StablecoinRegisterRequest {
  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters (the Idempotency-Key header, required)')
  idempotencyKey!: string;
}

export class ListStablecoinsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: STABLECOIN_ISSUANCE_STATUSES })
  @IsOptional()
  @IsOneOf(STABLECOIN_ISSUANCE_STATUSES)
  issuanceStatus?: StablecoinIssuanceStatus;

  @ApiPropertyOptional({ enum: STABLECOIN_SERVICE_OPERATIONS_STATUSES })
  @IsOptional()
  @IsOneOf(STABLECOIN_SERVICE_OPERATIONS_STATUSES)
  serviceOperationsStatus?: StablecoinServiceOperationsStatus;

  @ApiPropertyOptional({ enum: STABLECOIN_PROVIDERS })
  @IsOptional()
  @IsOneOf(STABLECOIN_PROVIDERS)
  provider?: StablecoinProvider;
}

export class StablecoinRef {
  @IsString()
  @IsNotEmpty()
  stablecoinId!: string;
}

/** One shape for every funding variant (the reference's oneOf on `type`); which fields each needs is the mint request's cross-field rule. */
export class StablecoinMintFundingSourceInput {
  @ApiProperty({ enum: STABLECOIN_MINT_FUNDING_TYPES, description: 'How the mint is paid for', example: 'WIRE' })
  @IsOneOf(STABLECOIN_MINT_FUNDING_TYPES)
  type!: StablecoinMintFundingType;

  @ApiPropertyOptional({ description: 'ACH_DEBIT and SAME_DAY_ACH_DEBIT: the USD bank external account debited', example: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000101' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  externalAccountId?: string;

  @ApiPropertyOptional({
    description: "SERVICE_INTERNAL_ACCOUNT: the internal account, in the coin's base currency, that pays",
    example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000102',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  accountId?: string;

  @ApiPropertyOptional({ description: 'PROVIDER_INTERNAL_BALANCE: the token spent from the provider balance', example: 'USDC' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  sourceTokenIdentifier?: string;

  @ApiPropertyOptional({ description: 'PROVIDER_INTERNAL_BALANCE: the network of those funds', example: 'SOLANA' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  cryptoNetwork?: string;
}

export class StablecoinMintDestinationInput {
  @ApiProperty({
    description: "The account receiving the minted coin: an `InternalAccount:` in the coin's currency or a Lightning `ExternalAccount:`",
    example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000201',
  })
  @IsString()
  @IsNotEmpty()
  accountId!: string;
}

export class StablecoinMintRequest implements CrossFieldRules {
  @ApiProperty({ description: "Amount in the coin's smallest unit; it must convert exactly to whole cents of the base currency", example: '1000000', pattern: DIGITS.source })
  @MatchesPattern(DIGITS, 'a string of digits (the smallest unit)')
  amount!: string;

  @ApiProperty({ type: StablecoinMintFundingSourceInput })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StablecoinMintFundingSourceInput)
  fundingSource!: StablecoinMintFundingSourceInput;

  @ApiProperty({ type: StablecoinMintDestinationInput })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StablecoinMintDestinationInput)
  destination!: StablecoinMintDestinationInput;

  @ApiPropertyOptional({ description: 'Your description of the operation', example: 'Initial program funding mint', maxLength: 1024 })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  description?: string;

  crossFieldErrors(): FieldError[] {
    const funding = this.fundingSource;
    if (!(funding instanceof StablecoinMintFundingSourceInput)) return [];
    const required: Partial<Record<StablecoinMintFundingType, Array<keyof StablecoinMintFundingSourceInput>>> = {
      ACH_DEBIT: ['externalAccountId'],
      SAME_DAY_ACH_DEBIT: ['externalAccountId'],
      SERVICE_INTERNAL_ACCOUNT: ['accountId'],
      PROVIDER_INTERNAL_BALANCE: ['sourceTokenIdentifier', 'cryptoNetwork'],
    };
    return (required[funding.type] ?? [])
      .filter((field) => funding[field] === undefined)
      .map((field) => ({ field: `fundingSource.${field}`, message: `fundingSource.${field} is required for a ${funding.type} funding source` }));
  }
}

export class CreateStablecoinMintMessage extends StablecoinMintRequest {
  @IsString()
  @IsNotEmpty()
  stablecoinId!: string;

  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters (the Idempotency-Key header, required)')
  idempotencyKey!: string;
}

export class StablecoinBurnSourceInput {
  @ApiProperty({ enum: STABLECOIN_BURN_SOURCE_TYPES, description: 'Where the burned coins come from', example: 'SERVICE_INTERNAL_ACCOUNT' })
  @IsOneOf(STABLECOIN_BURN_SOURCE_TYPES)
  type!: StablecoinBurnSourceType;

  @ApiPropertyOptional({
    description: "SERVICE_INTERNAL_ACCOUNT: the internal account, in the coin's currency, the coins leave",
    example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000204',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  accountId?: string;
}

export class StablecoinBurnDestinationInput {
  @ApiProperty({ enum: ['EXTERNAL_ACCOUNT'], description: 'A bank external account receives the redemption', example: 'EXTERNAL_ACCOUNT' })
  @IsOneOf(['EXTERNAL_ACCOUNT'])
  type!: 'EXTERNAL_ACCOUNT';

  @ApiProperty({ description: "The bank external account, in the coin's base currency, receiving the proceeds", example: 'ExternalAccount:019542f5-b3e7-1d02-0000-000000000205' })
  @IsString()
  @IsNotEmpty()
  externalAccountId!: string;

  @ApiProperty({ enum: STABLECOIN_PAYOUT_RAILS, description: 'The rail paying the proceeds out', example: 'ACH_CREDIT' })
  @IsOneOf(STABLECOIN_PAYOUT_RAILS)
  rail!: StablecoinPayoutRail;
}

export class StablecoinBurnRequest implements CrossFieldRules {
  @ApiProperty({ description: "Amount in the coin's smallest unit; it must convert exactly to whole cents of the base currency", example: '1000000', pattern: DIGITS.source })
  @MatchesPattern(DIGITS, 'a string of digits (the smallest unit)')
  amount!: string;

  @ApiProperty({ type: StablecoinBurnSourceInput })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StablecoinBurnSourceInput)
  source!: StablecoinBurnSourceInput;

  @ApiProperty({ type: StablecoinBurnDestinationInput })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => StablecoinBurnDestinationInput)
  destination!: StablecoinBurnDestinationInput;

  @ApiPropertyOptional({ description: 'Your description of the operation', example: 'Redeem ACME', maxLength: 1024 })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  description?: string;

  crossFieldErrors(): FieldError[] {
    if (this.source instanceof StablecoinBurnSourceInput && this.source.type === 'SERVICE_INTERNAL_ACCOUNT' && this.source.accountId === undefined) {
      return [{ field: 'source.accountId', message: 'source.accountId is required for a SERVICE_INTERNAL_ACCOUNT source' }];
    }
    return [];
  }
}

export class CreateStablecoinBurnMessage extends StablecoinBurnRequest {
  @IsString()
  @IsNotEmpty()
  stablecoinId!: string;

  @MatchesPattern(IDEMPOTENCY_KEY, '1-255 printable ASCII characters (the Idempotency-Key header, required)')
  idempotencyKey!: string;
}

export class ListStablecoinOperationsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: STABLECOIN_OPERATION_TYPES, description: 'Only mints or only burns' })
  @IsOptional()
  @IsOneOf(STABLECOIN_OPERATION_TYPES)
  operationType?: StablecoinOperationType;
}

export class ListStablecoinOperationsMessage extends ListStablecoinOperationsQuery {
  @IsString()
  @IsNotEmpty()
  stablecoinId!: string;
}

export class StablecoinOperationRef {
  @IsString()
  @IsNotEmpty()
  stablecoinOperationId!: string;
}

/** Sandbox simulator: the provider reports the funds of a PENDING_FUNDING operation received. */
export class FundStablecoinOperationMessage extends StablecoinOperationRef {}

export const STABLECOINS_SUBJECTS = {
  linkProviderAccount: 'payments.stablecoin-provider-account.link',
  listProviderAccounts: 'payments.stablecoin-provider-account.list',
  getProviderAccount: 'payments.stablecoin-provider-account.get',
  register: 'payments.stablecoin.register',
  list: 'payments.stablecoin.list',
  get: 'payments.stablecoin.get',
  mint: 'payments.stablecoin.mint',
  burn: 'payments.stablecoin.burn',
  listOperations: 'payments.stablecoin-operation.list',
  getOperation: 'payments.stablecoin-operation.get',
  /** Sandbox simulator (sandbox tokens only). */
  fundOperation: 'payments.stablecoin-operation.fund',
} as const;

/** A request as it travels: its fields (the contract class adds its rules on arrival). */
type Fields<T> = Omit<T, 'crossFieldErrors'>;

export interface StablecoinsContract {
  [STABLECOINS_SUBJECTS.linkProviderAccount]: { request: LinkStablecoinProviderAccountMessage; reply: StablecoinProviderAccount };
  [STABLECOINS_SUBJECTS.listProviderAccounts]: { request: ListStablecoinProviderAccountsQuery; reply: StablecoinPage<StablecoinProviderAccount> };
  [STABLECOINS_SUBJECTS.getProviderAccount]: { request: StablecoinProviderAccountRef; reply: StablecoinProviderAccount };
  [STABLECOINS_SUBJECTS.register]: { request: RegisterStablecoinMessage; reply: Stablecoin };
  [STABLECOINS_SUBJECTS.list]: { request: ListStablecoinsQuery; reply: StablecoinPage<Stablecoin> };
  [STABLECOINS_SUBJECTS.get]: { request: StablecoinRef; reply: Stablecoin };
  [STABLECOINS_SUBJECTS.mint]: { request: Fields<CreateStablecoinMintMessage>; reply: StablecoinOperation };
  [STABLECOINS_SUBJECTS.burn]: { request: Fields<CreateStablecoinBurnMessage>; reply: StablecoinOperation };
  [STABLECOINS_SUBJECTS.listOperations]: { request: ListStablecoinOperationsMessage; reply: StablecoinPage<StablecoinOperation> };
  [STABLECOINS_SUBJECTS.getOperation]: { request: StablecoinOperationRef; reply: StablecoinOperation };
  [STABLECOINS_SUBJECTS.fundOperation]: { request: FundStablecoinOperationMessage; reply: StablecoinOperation };
}
