import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '@paykit/contracts';
import { IsOneOf } from '@paykit/validation';
import { ArrayMinSize, IsArray, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { Permission, PERMISSIONS } from '../auth/permissions';

export const TOKEN_ID_EXAMPLE = 'Token:019542f5-b3e7-1d02-0000-000000000001';

export class CreateApiTokenRequest {
  @ApiProperty({ description: 'A label to recognise the token by', example: 'Reporting (read only)', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: PERMISSIONS, isArray: true, description: 'What the token may do', example: ['VIEW'] })
  @IsArray()
  @ArrayMinSize(1)
  @IsOneOf(PERMISSIONS, { each: true })
  permissions!: Permission[];
}

export class ListApiTokensRequest extends PageQuery {
  @ApiPropertyOptional({ description: 'Only tokens with exactly this name', example: 'Reporting (read only)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ description: 'Created at or after this instant', format: 'date-time', example: '2025-10-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  createdAfter?: string;

  @ApiPropertyOptional({ description: 'Created at or before this instant', format: 'date-time', example: '2025-11-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  createdBefore?: string;

  @ApiPropertyOptional({ description: 'Updated at or after this instant', format: 'date-time', example: '2025-10-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  updatedAfter?: string;

  @ApiPropertyOptional({ description: 'Updated at or before this instant', format: 'date-time', example: '2025-11-01T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { context: { constraint: { format: 'date-time' } } })
  updatedBefore?: string;
}

export interface ApiToken {
  id: string;
  name: string;
  permissions: Permission[];
  clientId: string;
  clientSecret?: string;
  createdAt: string;
  updatedAt: string;
}

export class ApiTokenDto implements ApiToken {
  @ApiProperty({ description: 'The token id', example: TOKEN_ID_EXAMPLE }) id!: string;
  @ApiProperty({ description: 'The label given at creation', example: 'Reporting (read only)' }) name!: string;
  @ApiProperty({ enum: PERMISSIONS, isArray: true, description: 'What the token may do', example: ['VIEW'] }) permissions!: Permission[];
  @ApiProperty({ description: 'The user name for HTTP Basic authentication', example: '01947d2284054f890000e63bca4810df' }) clientId!: string;
  @ApiPropertyOptional({ description: 'The password for HTTP Basic authentication: answered by the create call only, never again', example: 'q3v9Zr0d2m8W' })
  clientSecret?: string;
  @ApiProperty({ format: 'date-time', example: '2025-10-13T17:32:28Z' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', example: '2025-10-13T17:32:28Z' }) updatedAt!: string;
}

export class ApiTokenPageDto {
  @ApiProperty({ type: [ApiTokenDto], description: 'Newest first' }) data!: ApiTokenDto[];
  @ApiProperty({ example: false }) hasMore!: boolean;
  @ApiPropertyOptional({ description: 'Pass as `cursor` for the next page', example: 'ZDQy' }) nextCursor?: string;
  @ApiProperty({ description: 'Live tokens matching the filters, all pages', example: 1 }) totalCount!: number;
}
