import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FieldConstraint, FieldError } from '@paykit/errors';
import type { ErrorEnvelope } from './http-error.filter';

export class FieldErrorDto implements FieldError {
  @ApiProperty({ description: 'Dot path of the invalid field', example: 'address.country' })
  field!: string;

  @ApiPropertyOptional({
    description: 'The rule the value broke: format, pattern (JavaScript regex), enum, minLength or maxLength',
    example: { format: 'iso3166-1-alpha-2' },
  })
  constraint?: FieldConstraint;

  @ApiProperty({ description: 'Human-readable explanation', example: 'address.country must be an ISO 3166-1 alpha-2 country code (e.g. US)' })
  message!: string;
}

export class ErrorResponseDto implements ErrorEnvelope {
  @ApiProperty({ description: 'HTTP status, repeated', example: 400 })
  status!: number;

  @ApiProperty({ description: 'Machine-readable error code', example: 'INVALID_INPUT' })
  code!: string;

  @ApiProperty({ description: 'Human-readable message', example: 'Request validation failed' })
  message!: string;

  @ApiPropertyOptional({
    description: 'Free-form details. For INVALID_INPUT: `errors`, every invalid field. For 401: `reason`, the failed check.',
    example: { errors: [{ field: 'birthDate', constraint: { format: 'date' }, message: 'birthDate must be an existing date in YYYY-MM-DD format' }] },
  })
  details?: Record<string, unknown>;
}
