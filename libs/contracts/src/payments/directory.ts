import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOneOf, IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsISO8601, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQuery } from '../common';
import { Currency, Money } from './replies';

// The sandbox directory (UMA providers, VASPs), crypto withdrawal fee estimates and UMA
// invitations. Wire values (subjects, statuses) are frozen.

const CURRENCY_CODE = /^[A-Z0-9]{3,8}$/;

/** Query of `GET /uma-providers`. */
export class ListUmaProvidersQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'Only providers serving this country (ISO 3166-1 alpha-2)', example: 'US' })
  @IsOptional()
  @MatchesPattern(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code')
  countryCode?: string;

  @ApiPropertyOptional({ description: 'Only providers supporting this currency', example: 'USD' })
  @IsOptional()
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USD)')
  currencyCode?: string;

  @ApiPropertyOptional({ description: 'true: only providers not on the allow list; false: only allowed ones', example: false })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  hasBlockedProviders?: boolean;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], description: 'By name (default desc)', example: 'asc' })
  @IsOptional()
  @IsOneOf(['asc', 'desc'])
  sortOrder?: 'asc' | 'desc';
}

/** Query of `GET /vasps`. */
export class ListVaspsQuery extends PageQuery {}

export interface UmaProvider {
  name: string;
  supportedRegions: string[];
  domain: string;
  logoUrl?: string;
  supportedCurrencies: Currency[];
  lei?: string;
  allowListStatus: boolean;
}

export interface UmaProviderPage {
  data: UmaProvider[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

export interface Vasp {
  vaspName: string;
  url?: string;
}

export interface VaspPage {
  data: Vasp[];
  hasMore: boolean;
  nextCursor?: string;
}

/** Body of `POST /crypto/estimate-withdrawal-fee`. */
export class EstimateWithdrawalFeeRequest {
  @ApiProperty({ description: 'The internal account the crypto leaves', example: 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  internalAccountId!: string;

  @ApiProperty({ description: 'The crypto currency withdrawn', example: 'USDC' })
  @MatchesPattern(CURRENCY_CODE, 'a currency code (e.g. USDC)')
  currency!: string;

  @ApiProperty({ description: 'The network it is sent on', example: 'SOLANA' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  cryptoNetwork!: string;

  @ApiProperty({ description: "The amount withdrawn, the currency's smallest unit", example: 10000000 })
  @IsPositiveMinorAmount()
  amount!: number;

  @ApiProperty({ description: 'The destination wallet address', example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  destinationAddress!: string;
}

export interface WithdrawalFeeEstimate {
  networkFee: number;
  networkFeeAsset: string;
  applicationFee: number;
  totalFee: number;
  netAmount: number;
}

// ---- Invitations ----

export const INVITATION_STATUSES = ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** Body of `POST /invitations`. */
export class CreateInvitationRequest {
  @ApiProperty({ description: "The inviting customer's UMA address", example: '$ada@platform.example' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  inviterUma!: string;

  @ApiPropertyOptional({ description: "The invitee's first name, for the invitation page", example: 'Grace' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  firstName?: string;

  @ApiPropertyOptional({ description: "An amount the inviter will send once claimed, in the inviter's currency's smallest unit", example: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amountToSend?: number;

  @ApiPropertyOptional({ description: 'When the invitation lapses (default: 30 days)', example: '2025-11-13T12:00:00Z', format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string;
}

/** Body of `POST /invitations/{code}/claim`. */
export class ClaimInvitationRequest {
  @ApiProperty({ description: "The invitee's UMA address", example: '$grace@other.example' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  inviteeUma!: string;
}

export class InvitationRef {
  @ApiProperty({ description: 'Invitation code', example: 'INV7K2M9Q4' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  code!: string;
}

export class ClaimInvitationMessage extends InvitationRef {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  inviteeUma!: string;
}

export interface Invitation {
  code: string;
  createdAt: string;
  claimedAt?: string;
  url: string;
  expiresAt?: string;
  inviterUma: string;
  inviteeUma?: string;
  status: InvitationStatus;
  firstName?: string;
  amountToSend?: Money;
}

export const DIRECTORY_SUBJECTS = {
  listUmaProviders: 'payments.uma-provider.list',
  listVasps: 'payments.vasp.list',
  estimateWithdrawalFee: 'payments.crypto.estimate-withdrawal-fee',
  createInvitation: 'payments.invitation.create',
  getInvitation: 'payments.invitation.get',
  claimInvitation: 'payments.invitation.claim',
  cancelInvitation: 'payments.invitation.cancel',
} as const;

export interface DirectoryContract {
  [DIRECTORY_SUBJECTS.listUmaProviders]: { request: ListUmaProvidersQuery; reply: UmaProviderPage };
  [DIRECTORY_SUBJECTS.listVasps]: { request: ListVaspsQuery; reply: VaspPage };
  [DIRECTORY_SUBJECTS.estimateWithdrawalFee]: { request: EstimateWithdrawalFeeRequest; reply: WithdrawalFeeEstimate };
  [DIRECTORY_SUBJECTS.createInvitation]: { request: CreateInvitationRequest; reply: Invitation };
  [DIRECTORY_SUBJECTS.getInvitation]: { request: InvitationRef; reply: Invitation };
  [DIRECTORY_SUBJECTS.claimInvitation]: { request: ClaimInvitationMessage; reply: Invitation };
  [DIRECTORY_SUBJECTS.cancelInvitation]: { request: InvitationRef; reply: Invitation };
}
