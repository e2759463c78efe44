import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { IsCalendarDate, IsCountryCode, IsE164Phone, IsOneOf } from '@paykit/validation';

// ---- Subjects (wire values: frozen) ----
export const CUSTOMERS_SUBJECTS = {
  createCustomer: 'customers.customer.create',
  getCustomer: 'customers.customer.get',
  getConfig: 'customers.config.get',
} as const;

export const CUSTOMERS_EVENTS = {
  customerCreated: 'customers.events.customer.created',
  customerUpdated: 'customers.events.customer.updated',
  kycStatusChanged: 'customers.events.customer.kyc-status-changed',
} as const;

// ---- Enumerations of the spec ----
export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export const KYC_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

// ---- Request payloads (validated by the gateway and again by the service) ----
export class AddressInput {
  @ApiProperty({ description: 'Street address, first line', example: '1 Market St' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  line1!: string;

  @ApiPropertyOptional({ description: 'Street address, second line', example: 'Suite 400' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  line2?: string;

  @ApiProperty({ description: 'City', example: 'San Francisco' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  city!: string;

  @ApiPropertyOptional({ description: 'State, province or region', example: 'CA' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
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

export class BusinessInfoInput {
  @ApiProperty({ description: 'Registered legal name', example: 'Acme Payments LLC' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  legalName!: string;

  @ApiPropertyOptional({ description: 'Company registration number; its last 3 digits drive sandbox KYB', example: 'REG-000123' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  registrationNumber?: string;

  @ApiPropertyOptional({ description: 'Tax identifier', example: '12-3456789' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  taxId?: string;
}

export class CreateCustomerRequest {
  @ApiProperty({ enum: CUSTOMER_TYPES, description: 'Individual or business customer', example: 'INDIVIDUAL' })
  @IsOneOf(CUSTOMER_TYPES)
  customerType!: CustomerType;

  @ApiPropertyOptional({ description: "Platform's own id for the customer; generated when omitted; several customers may share one", example: 'user-8812' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  platformCustomerId?: string;

  @ApiPropertyOptional({ description: 'Full legal name (individuals); its last 3 characters drive sandbox KYC', example: 'Ada Lovelace' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  fullName?: string;

  @ApiPropertyOptional({ description: 'Date of birth, YYYY-MM-DD', example: '1990-04-12' })
  @IsOptional()
  @IsCalendarDate()
  birthDate?: string;

  @ApiPropertyOptional({ description: 'Nationality, ISO 3166-1 alpha-2', example: 'GB' })
  @IsOptional()
  @IsCountryCode()
  nationality?: string;

  @ApiPropertyOptional({ description: 'Email address', example: 'ada@example.com' })
  @IsOptional()
  @IsEmail({}, { context: { constraint: { format: 'email' } } })
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ description: 'Phone number in E.164 format', example: '+14155550123' })
  @IsOptional()
  @IsE164Phone()
  phoneNumber?: string;

  @ApiPropertyOptional({ type: AddressInput, description: 'Residential or registered address' })
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressInput)
  address?: AddressInput;

  @ApiPropertyOptional({ type: BusinessInfoInput, description: 'Business details (BUSINESS customers)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => BusinessInfoInput)
  businessInfo?: BusinessInfoInput;
}

export class GetCustomerRequest {
  @ApiProperty({ description: 'Customer id', example: 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' })
  @IsString()
  @IsNotEmpty()
  customerId!: string;
}

// ---- Replies: the resources exactly as the API returns them ----
export interface Address {
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface BusinessInfo {
  legalName: string;
  registrationNumber?: string;
  taxId?: string;
}

export interface Customer {
  id: string;
  platformCustomerId: string;
  customerType: CustomerType;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  email?: string;
  phoneNumber?: string;
  address?: Address;
  businessInfo?: BusinessInfo;
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  createdAt: string;
  updatedAt: string;
}

export interface SupportedCurrency {
  currencyCode: string;
  providerRequiredCustomerFields: string[];
}

/** The customers service's part of `GET /config`. */
export interface CustomersPlatformConfig {
  umaDomain: string;
  regulated: boolean;
  supportedCurrencies: SupportedCurrency[];
}

export interface CustomersContract {
  [CUSTOMERS_SUBJECTS.createCustomer]: { request: CreateCustomerRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.getCustomer]: { request: GetCustomerRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.getConfig]: { request: Record<string, never>; reply: CustomersPlatformConfig };
}
