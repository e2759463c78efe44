import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Invitation, INVITATION_STATUSES, InvitationStatus, UmaProvider, UmaProviderPage, Vasp, VaspPage, WithdrawalFeeEstimate } from '@paykit/contracts';
import { CurrencyDto, MoneyDto } from '../../payments/dto/internal-account.response';

export class UmaProviderDto implements UmaProvider {
  @ApiProperty({ example: 'Sandbox UMA' }) name!: string;
  @ApiProperty({ type: [String], description: 'Countries served (ISO 3166-1 alpha-2)', example: ['US', 'MX'] }) supportedRegions!: string[];
  @ApiProperty({ description: 'The UMA domain of its users', example: 'sandbox.uma.money' }) domain!: string;
  @ApiPropertyOptional({ format: 'uri', example: 'https://provider.example/logo.png' }) logoUrl?: string;
  @ApiProperty({ type: [CurrencyDto] }) supportedCurrencies!: CurrencyDto[];
  @ApiPropertyOptional({ description: 'Legal entity identifier', example: '5493001KJTIIGC8Y1R12' }) lei?: string;
  @ApiProperty({ description: 'Whether payments to it are allowed', example: true }) allowListStatus!: boolean;
}

export class UmaProviderListResponseDto implements UmaProviderPage {
  @ApiProperty({ type: [UmaProviderDto] }) data!: UmaProviderDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Providers matching the filters', example: 5 }) totalCount!: number;
}

export class VaspDto implements Vasp {
  @ApiProperty({ example: 'Atlas Exchange' }) vaspName!: string;
  @ApiPropertyOptional({ format: 'uri', example: 'https://atlas-exchange.example' }) url?: string;
}

export class VaspListResponseDto implements VaspPage {
  @ApiProperty({ type: [VaspDto] }) data!: VaspDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page' }) nextCursor?: string;
}

export class WithdrawalFeeEstimateDto implements WithdrawalFeeEstimate {
  @ApiProperty({ description: "The network's fee, smallest unit of networkFeeAsset", example: 1000 }) networkFee!: number;
  @ApiProperty({ description: 'The asset the network fee is paid in', example: 'USDC' }) networkFeeAsset!: string;
  @ApiProperty({ description: "The service's fee (rounded up), smallest unit of the currency", example: 10000 }) applicationFee!: number;
  @ApiProperty({ description: 'Both fees', example: 11000 }) totalFee!: number;
  @ApiProperty({ description: 'What arrives at the destination', example: 9989000 }) netAmount!: number;
}

export class InvitationResponseDto implements Invitation {
  @ApiProperty({ description: 'The invitation code', example: 'K7M2Q9X4PA' }) code!: string;
  @ApiProperty({ format: 'date-time', example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2025-10-14T12:00:00.000Z' }) claimedAt?: string;
  @ApiProperty({ description: 'Where the invitee opens it', example: 'https://invite.sandbox.uma.money/K7M2Q9X4PA' }) url!: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2025-11-12T12:00:00.000Z' }) expiresAt?: string;
  @ApiProperty({ example: '$ada@platform.example' }) inviterUma!: string;
  @ApiPropertyOptional({ example: '$grace@other.example' }) inviteeUma?: string;
  @ApiProperty({ enum: INVITATION_STATUSES, description: 'PENDING -> CLAIMED or CANCELLED; EXPIRED once expiresAt passed unclaimed', example: 'PENDING' })
  status!: InvitationStatus;
  @ApiPropertyOptional({ example: 'Grace' }) firstName?: string;
  @ApiPropertyOptional({ type: MoneyDto, description: 'What the inviter sends once claimed' }) amountToSend?: MoneyDto;
}
