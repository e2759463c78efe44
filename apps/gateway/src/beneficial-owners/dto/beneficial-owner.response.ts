import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BENEFICIAL_OWNER_ROLES, BeneficialOwner, BeneficialOwnerRole, ID_TYPES, IdType, KYC_STATUSES, KycStatus, Page, PersonalInfo } from '@paykit/contracts';
import { AddressDto } from '../../customers/dto/customer.response';

export class PersonalInfoDto implements PersonalInfo {
  @ApiProperty({ example: 'Grace' }) firstName!: string;
  @ApiPropertyOptional({ example: 'Brewster' }) middleName?: string;
  @ApiProperty({ example: 'Hopper' }) lastName!: string;
  @ApiProperty({ example: '1976-12-09' }) birthDate!: string;
  @ApiProperty({ example: 'US' }) nationality!: string;
  @ApiPropertyOptional({ example: 'grace@acme.example' }) email?: string;
  @ApiPropertyOptional({ example: '+14155550188' }) phoneNumber?: string;
  @ApiPropertyOptional({ type: AddressDto }) address?: AddressDto;
  @ApiPropertyOptional({ example: 'Chief Executive Officer' }) title?: string;
  @ApiPropertyOptional({ enum: ID_TYPES, description: 'Kind of government identifier', example: 'SSN' }) idType?: IdType;
  @ApiPropertyOptional({ description: 'The government identifier, masked: only its last four characters are shown', example: '•••••6789' }) identifier?: string;
  @ApiPropertyOptional({ description: 'Country that issued the identifier', example: 'US' }) countryOfIssuance?: string;
}

export class BeneficialOwnerResponseDto implements BeneficialOwner {
  @ApiProperty({ example: 'BeneficialOwner:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) customerId!: string;
  @ApiProperty({ enum: BENEFICIAL_OWNER_ROLES, isArray: true, example: ['UBO'] }) roles!: BeneficialOwnerRole[];
  @ApiProperty({ description: 'Ownership share in percent (0 for people who own none)', example: 25, minimum: 0, maximum: 100 }) ownershipPercentage!: number;
  @ApiProperty({ type: PersonalInfoDto }) personalInfo!: PersonalInfoDto;
  @ApiProperty({ enum: KYC_STATUSES, description: 'Sandbox: by the last 3 characters of lastName — 001 PENDING, 002 REJECTED, other APPROVED', example: 'APPROVED' })
  kycStatus!: KycStatus;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

export class BeneficialOwnerPageDto implements Page<BeneficialOwner> {
  @ApiProperty({ type: [BeneficialOwnerResponseDto] }) data!: BeneficialOwnerResponseDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` to get the next page' }) nextCursor?: string;
  @ApiProperty({ description: 'Beneficial owners matching the filters, all pages', example: 1 }) totalCount!: number;
}
