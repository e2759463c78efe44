import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Stablecoin,
  STABLECOIN_BURN_SOURCE_TYPES,
  STABLECOIN_ISSUANCE_STATUSES,
  STABLECOIN_MINT_FUNDING_TYPES,
  STABLECOIN_NETWORKS,
  STABLECOIN_OPERATION_STATUSES,
  STABLECOIN_OPERATION_TYPES,
  STABLECOIN_PAYOUT_RAILS,
  STABLECOIN_PROVIDER_ACCOUNT_STATUSES,
  STABLECOIN_PROVIDER_ENVIRONMENTS,
  STABLECOIN_PROVIDERS,
  STABLECOIN_SERVICE_OPERATIONS_STATUSES,
  StablecoinIssuanceStatus,
  StablecoinNetwork,
  StablecoinOperation,
  StablecoinOperationDestination,
  StablecoinOperationSource,
  StablecoinOperationStatus,
  StablecoinOperationType,
  StablecoinPage,
  StablecoinPayoutRail,
  StablecoinProvider,
  StablecoinProviderAccount,
  StablecoinProviderAccountStatus,
  StablecoinProviderEnvironment,
  StablecoinServiceOperationsStatus,
} from '@paykit/contracts';

const ENVIRONMENT_DESCRIPTION = "The provider's environment, from the platform's mode (a sandbox token: SANDBOX)";

export class StablecoinProviderAccountResponseDto implements StablecoinProviderAccount {
  @ApiProperty({ example: 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001' }) id!: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDERS, example: 'BRALE' }) provider!: StablecoinProvider;
  @ApiProperty({ description: "The provider's account id", example: '2VcUIonJeVQzFoBuC7LdFT0dRe4' }) providerAccountId!: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDER_ENVIRONMENTS, description: ENVIRONMENT_DESCRIPTION, example: 'SANDBOX' }) providerEnvironment!: StablecoinProviderEnvironment;
  @ApiProperty({
    enum: STABLECOIN_PROVIDER_ACCOUNT_STATUSES,
    description: 'ACTIVE: verified; INVALID: the provider refused the credentials; REVOKED: superseded by a newer link',
    example: 'ACTIVE',
  })
  status!: StablecoinProviderAccountStatus;
  @ApiPropertyOptional({ format: 'date-time', description: 'When the provider last accepted the credentials' }) lastVerifiedAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class StablecoinProviderAccountListResponseDto implements StablecoinPage<StablecoinProviderAccount> {
  @ApiProperty({ type: [StablecoinProviderAccountResponseDto] }) data!: StablecoinProviderAccountResponseDto[];
  @ApiProperty({ description: 'More pages follow', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Links matching the filters, all pages', example: 1 }) totalCount!: number;
}

export class StablecoinResponseDto implements Stablecoin {
  @ApiProperty({ example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' }) id!: string;
  @ApiProperty({ example: 'ACME Dollar' }) name!: string;
  @ApiProperty({ example: 'ACME' }) symbol!: string;
  @ApiProperty({ description: 'The fiat currency the coin is worth one for one', example: 'USD' }) baseCurrency!: string;
  @ApiProperty({ enum: STABLECOIN_NETWORKS, example: 'SPARK' }) network!: StablecoinNetwork;
  @ApiProperty({ description: "Digits of the coin's smallest unit", example: 6 }) decimals!: number;
  @ApiProperty({ enum: STABLECOIN_ISSUANCE_STATUSES, description: "The provider's review and provisioning", example: 'PROVISIONED' }) issuanceStatus!: StablecoinIssuanceStatus;
  @ApiProperty({ enum: STABLECOIN_SERVICE_OPERATIONS_STATUSES, description: 'Whether the coin is enabled for mints, burns, accounts and quotes', example: 'ENABLED' })
  serviceOperationsStatus!: StablecoinServiceOperationsStatus;
  @ApiProperty({ example: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k' }) networkTokenIdentifier!: string;
  @ApiPropertyOptional({ description: 'Once ENABLED: the currency code accounts and quotes use', example: 'ACME' }) currency?: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDERS, example: 'BRALE' }) provider!: StablecoinProvider;
  @ApiProperty({ example: 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001' }) stablecoinProviderAccountId!: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDER_ENVIRONMENTS, description: ENVIRONMENT_DESCRIPTION, example: 'SANDBOX' }) providerEnvironment!: StablecoinProviderEnvironment;
  @ApiProperty({ example: 'ACME' }) providerTokenIdentifier!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class StablecoinListResponseDto implements StablecoinPage<Stablecoin> {
  @ApiProperty({ type: [StablecoinResponseDto] }) data!: StablecoinResponseDto[];
  @ApiProperty({ description: 'More pages follow', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Stablecoins matching the filters, all pages', example: 1 }) totalCount!: number;
}

export class StablecoinOperationSourceDto implements StablecoinOperationSource {
  @ApiProperty({ enum: [...new Set([...STABLECOIN_MINT_FUNDING_TYPES, ...STABLECOIN_BURN_SOURCE_TYPES])], example: 'WIRE' }) type!: StablecoinOperationSource['type'];
  @ApiPropertyOptional({ description: 'ACH debit mints: the external account debited' }) externalAccountId?: string;
  @ApiPropertyOptional({ description: 'Internal-account sources: the internal account' }) accountId?: string;
  @ApiPropertyOptional({ description: 'Provider-balance sources: the token spent' }) sourceTokenIdentifier?: string;
  @ApiPropertyOptional({ description: 'Provider-balance sources: its network' }) cryptoNetwork?: string;
}

export class StablecoinOperationDestinationDto implements StablecoinOperationDestination {
  @ApiProperty({ description: 'The receiving account: `InternalAccount:` or `ExternalAccount:`' }) accountId!: string;
  @ApiPropertyOptional({ enum: STABLECOIN_PAYOUT_RAILS, description: 'Burns: the fiat payout rail' }) rail?: StablecoinPayoutRail;
}

export class StablecoinOperationResponseDto implements StablecoinOperation {
  @ApiProperty({ example: 'StablecoinOperation:019542f5-b3e7-1d02-0000-000000000301' }) id!: string;
  @ApiProperty({ example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' }) stablecoinId!: string;
  @ApiProperty({ enum: STABLECOIN_OPERATION_TYPES, example: 'MINT' }) operationType!: StablecoinOperationType;
  @ApiProperty({ enum: STABLECOIN_OPERATION_STATUSES, example: 'PENDING_FUNDING' }) status!: StablecoinOperationStatus;
  @ApiProperty({ description: "Amount in the coin's smallest unit", example: '1000000000' }) amount!: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDERS, example: 'BRALE' }) provider!: StablecoinProvider;
  @ApiProperty({ enum: STABLECOIN_PROVIDER_ENVIRONMENTS, description: ENVIRONMENT_DESCRIPTION, example: 'SANDBOX' }) providerEnvironment!: StablecoinProviderEnvironment;
  @ApiProperty({ example: 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001' }) stablecoinProviderAccountId!: string;
  @ApiPropertyOptional({ type: StablecoinOperationSourceDto }) source?: StablecoinOperationSourceDto;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Where to send external funds (wire mints: bank details; external burns: the deposit address), fields by rail',
    example: { rail: 'SPARK', network: 'SPARK', address: 'spark1...', valueType: 'ACME' },
  })
  fundingInstructions?: Record<string, string>;
  @ApiPropertyOptional({ type: StablecoinOperationDestinationDto }) destination?: StablecoinOperationDestinationDto;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Burns: the fiat payout, its rail and timing (guidance)',
    example: { rail: 'ACH_CREDIT', amount: '100', currency: 'USD', timing: '1-3 business days' },
  })
  estimatedDelivery?: Record<string, string>;
  @ApiPropertyOptional({ format: 'date-time', description: 'Operations waiting for external funds expire then' }) expiresAt?: string;
  @ApiPropertyOptional({ description: "The provider's status", example: 'pending' }) providerStatus?: string;
  @ApiPropertyOptional({ description: 'FAILED operations: FUNDING_FAILED or PAYOUT_FAILED', example: 'PAYOUT_FAILED' }) failureReason?: string;
  @ApiPropertyOptional({ example: 'Initial program funding mint' }) description?: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class StablecoinOperationListResponseDto implements StablecoinPage<StablecoinOperation> {
  @ApiProperty({ type: [StablecoinOperationResponseDto] }) data!: StablecoinOperationResponseDto[];
  @ApiProperty({ description: 'More pages follow', example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Operations matching the filters, all pages', example: 1 }) totalCount!: number;
}
