import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CallerContext, CUSTOMERS_SUBJECTS } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';

class SupportedCurrencyDto {
  @ApiProperty({ example: 'USD' }) currencyCode!: string;
  @ApiProperty({ type: [String], description: 'Customer fields required to transact in this currency', example: ['fullName', 'birthDate'] })
  providerRequiredCustomerFields!: string[];
}

class PlatformConfigResponseDto {
  @ApiProperty({ description: "The platform's UMA domain", example: 'p-0190f1c2.uma.sandbox.paykit.dev' }) umaDomain!: string;
  @ApiProperty({ description: 'Regulated platforms run their own KYC; their customers start APPROVED', example: false }) regulated!: boolean;
  @ApiProperty({ type: [SupportedCurrencyDto] }) supportedCurrencies!: SupportedCurrencyDto[];
}

/** `/config` is composed from the services that own each part of the platform's configuration. */
@ApiTags('Platform configuration')
@ApiBasicAuth('BasicAuth')
@Controller('config')
export class ConfigController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({ summary: 'Get the platform configuration' })
  @ApiOkResponse({ type: PlatformConfigResponseDto })
  @ApiErrors(401)
  async get(@Caller() caller: CallerContext): Promise<PlatformConfigResponseDto> {
    return this.services.request(CUSTOMERS_SUBJECTS.getConfig, {}, caller);
  }
}
