import { Body, Controller, Get, Inject, Patch } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags, IntersectionType } from '@nestjs/swagger';
import { CallerContext, CUSTOMERS_SUBJECTS, CustomersPlatformConfig, SupportedCurrency, UpdateConfigRequest, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { WebhookConfigPartDto } from '../webhooks/dto/webhook-config.response';

class SupportedCurrencyDto implements SupportedCurrency {
  @ApiProperty({ example: 'USD' }) currencyCode!: string;
  @ApiProperty({ type: [String], description: 'Customer fields required to transact in this currency', example: ['fullName', 'birthDate'] })
  providerRequiredCustomerFields!: string[];
}

class PlatformConfigResponseDto implements CustomersPlatformConfig {
  @ApiProperty({ description: "The platform's UMA domain", example: 'p-0190f1c2.uma.sandbox.paykit.dev' }) umaDomain!: string;
  @ApiProperty({ description: 'Regulated platforms run their own KYC; their customers start APPROVED', example: false }) regulated!: boolean;
  @ApiProperty({ type: [SupportedCurrencyDto] }) supportedCurrencies!: SupportedCurrencyDto[];
  @ApiProperty({ description: 'Whether new customers with an email get an EMBEDDED_WALLET (USDC) internal account', example: true })
  embeddedWalletsEnabled!: boolean;
}

/** The whole `/config`: each service's part, merged. */
class ComposedPlatformConfigDto extends IntersectionType(PlatformConfigResponseDto, WebhookConfigPartDto) {}

/** `/config` is composed from the services that own each part of the platform's configuration. */
@ApiTags('Platform configuration')
@ApiBasicAuth('BasicAuth')
@Controller('config')
export class ConfigController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  @ApiOperation({ summary: 'Get the platform configuration' })
  @ApiOkResponse({ type: ComposedPlatformConfigDto })
  @ApiErrors(401)
  async get(@Caller() caller: CallerContext): Promise<ComposedPlatformConfigDto> {
    const [customers, webhooks] = await Promise.all([
      this.services.request(CUSTOMERS_SUBJECTS.getConfig, {}, caller),
      this.services.request(WEBHOOKS_SUBJECTS.getConfig, {}, caller),
    ]);
    return { ...customers, ...webhooks };
  }

  @Patch()
  @ApiOperation({
    summary: 'Update the platform configuration',
    description: 'Sets (or with `null` removes) the webhook endpoint, and turns embedded wallets on or off for new customers. Answers the whole configuration.',
  })
  @ApiOkResponse({ type: ComposedPlatformConfigDto })
  @ApiErrors(400, 401)
  async update(@Body() body: UpdateConfigRequest, @Caller() caller: CallerContext): Promise<ComposedPlatformConfigDto> {
    // The webhooks part first: its endpoint check is the one that can still refuse the request.
    const webhooks = await this.services.request(WEBHOOKS_SUBJECTS.updateConfig, { webhookEndpoint: body.webhookEndpoint }, caller);
    const customers =
      body.embeddedWalletsEnabled === undefined
        ? await this.services.request(CUSTOMERS_SUBJECTS.getConfig, {}, caller)
        : await this.services.request(CUSTOMERS_SUBJECTS.updateConfig, { embeddedWalletsEnabled: body.embeddedWalletsEnabled }, caller);
    return { ...customers, ...webhooks };
  }
}
