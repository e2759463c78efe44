import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CUSTOMER_TYPES, CustomerType, KYC_STATUSES, KycStatus } from '@paykit/contracts';

/** OpenAPI description of the Customer resource (the reply is passed through as the service shaped it). */
export class AddressDto {
  @ApiProperty({ example: '1 Market St' }) line1!: string;
  @ApiPropertyOptional({ example: 'Suite 400' }) line2?: string;
  @ApiProperty({ example: 'San Francisco' }) city!: string;
  @ApiPropertyOptional({ example: 'CA' }) state?: string;
  @ApiProperty({ example: '94105' }) postalCode!: string;
  @ApiProperty({ example: 'US', description: 'ISO 3166-1 alpha-2' }) country!: string;
}

export class BusinessInfoDto {
  @ApiProperty({ example: 'Acme Payments LLC' }) legalName!: string;
  @ApiPropertyOptional({ example: 'REG-000123' }) registrationNumber?: string;
  @ApiPropertyOptional({ example: '12-3456789' }) taxId?: string;
}

export class CustomerResponseDto {
  @ApiProperty({ description: 'Customer id', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) id!: string;
  @ApiProperty({ description: "Platform's own id for the customer", example: 'user-8812' }) platformCustomerId!: string;
  @ApiProperty({ enum: CUSTOMER_TYPES, example: 'INDIVIDUAL' }) customerType!: CustomerType;
  @ApiPropertyOptional({ example: 'Ada Lovelace' }) fullName?: string;
  @ApiPropertyOptional({ example: '1990-04-12' }) birthDate?: string;
  @ApiPropertyOptional({ example: 'GB' }) nationality?: string;
  @ApiPropertyOptional({ example: 'ada@example.com' }) email?: string;
  @ApiPropertyOptional({ example: '+14155550123' }) phoneNumber?: string;
  @ApiPropertyOptional({ type: AddressDto }) address?: AddressDto;
  @ApiPropertyOptional({ type: BusinessInfoDto }) businessInfo?: BusinessInfoDto;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Individuals: KYC status', example: 'PENDING' }) kycStatus?: KycStatus;
  @ApiPropertyOptional({ enum: KYC_STATUSES, description: 'Businesses: KYB status', example: 'PENDING' }) kybStatus?: KycStatus;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}
