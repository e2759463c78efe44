import { Body, Controller, Get, Inject, Patch } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags, IntersectionType } from '@nestjs/swagger';
import {
  CallerContext,
  CardTokenization2faConfig,
  CounterpartyField,
  CUSTOMER_INFO_FIELD_NAMES,
  CustomerInfoFieldName,
  CUSTOMERS_SUBJECTS,
  CustomersPlatformConfig,
  EmbeddedWalletConfig,
  FEE_TYPES,
  FeeConfig,
  FeeType,
  SupportedCurrency,
  SANDBOX_PROFILES,
  SandboxProfile,
  ENABLED_TRANSACTION_TYPES,
  EnabledTransactionType,
  UpdateConfigRequest,
  WEBHOOKS_SUBJECTS,
} from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { RequiresPermission } from '../auth/permissions';
import { Caller } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors.decorator';
import { WebhookConfigPartDto } from '../webhooks/dto/webhook-config.response';

class CounterpartyFieldDto implements CounterpartyField {
  @ApiProperty({ enum: CUSTOMER_INFO_FIELD_NAMES, example: 'FULL_NAME' }) name!: CustomerInfoFieldName;
  @ApiProperty({ description: 'Whether payments without it are refused', example: true }) mandatory!: boolean;
}

class SupportedCurrencyDto implements SupportedCurrency {
  @ApiProperty({ example: 'USD' }) currencyCode!: string;
  @ApiProperty({ description: 'Smallest payment amount, minor units', example: 100, format: 'int64', minimum: 0 }) minAmount!: number;
  @ApiProperty({ description: 'Largest payment amount, minor units', example: 10000000, format: 'int64', minimum: 0 }) maxAmount!: number;
  @ApiProperty({ type: [CounterpartyFieldDto], description: 'Fields wanted from counterparty institutions about their customers' })
  requiredCounterpartyFields!: CounterpartyFieldDto[];
  @ApiProperty({
    enum: CUSTOMER_INFO_FIELD_NAMES,
    isArray: true,
    description:
      'Customer information the provider needs before a customer may transact in this currency (FULL_NAME is the legal name for businesses; BIRTH_DATE and NATIONALITY apply to individuals)',
    example: ['FULL_NAME', 'BIRTH_DATE'],
  })
  providerRequiredCustomerFields!: CustomerInfoFieldName[];
  @ApiProperty({ enum: ENABLED_TRANSACTION_TYPES, isArray: true, example: ['OUTGOING', 'INCOMING'] }) enabledTransactionTypes!: EnabledTransactionType[];
}

class EmbeddedWalletConfigDto implements EmbeddedWalletConfig {
  @ApiPropertyOptional({ example: 'Acme Wallet' }) appName?: string;
  @ApiPropertyOptional({ example: 6 }) otpLength?: number;
  @ApiPropertyOptional({ example: false }) alphanumeric?: boolean;
  @ApiPropertyOptional({ example: 600 }) expirationSeconds?: number;
  @ApiPropertyOptional({ example: 'no-reply@acme.example' }) sendFromEmailAddress?: string;
  @ApiPropertyOptional({ example: 'Acme' }) sendFromEmailSenderName?: string;
  @ApiPropertyOptional({ example: 'support@acme.example' }) replyToEmailAddress?: string;
  @ApiPropertyOptional({ example: 'https://acme.example/logo.png' }) logoUrl?: string;
}

class CardTokenization2faEmailDto {
  @ApiPropertyOptional({ example: 'cards@acme.example' }) fromAddress?: string;
  @ApiPropertyOptional({ example: 'Acme Cards' }) fromName?: string;
  @ApiPropertyOptional({ example: 'support@acme.example' }) replyToAddress?: string;
  @ApiPropertyOptional({ example: 'Your card verification code' }) subject?: string;
  @ApiPropertyOptional({ example: 'Use this code to add your card to a wallet.' }) bodyText?: string;
}

class CardTokenization2faSmsDto {
  @ApiPropertyOptional({ example: 'HX0123456789abcdef' }) templateSid?: string;
  @ApiPropertyOptional({ example: 'Your card code is {code}' }) bodyText?: string;
}

class CardTokenization2faConfigDto implements CardTokenization2faConfig {
  @ApiPropertyOptional({ example: 'Acme' }) displayName?: string;
  @ApiPropertyOptional({ example: 'https://acme.example/logo.png' }) logoUrl?: string;
  @ApiPropertyOptional({ type: CardTokenization2faEmailDto }) email?: CardTokenization2faEmailDto;
  @ApiPropertyOptional({ type: CardTokenization2faSmsDto }) sms?: CardTokenization2faSmsDto;
}

class FixedFeeDto {
  @ApiProperty({ example: 50, format: 'int64', minimum: 0 }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
}

class FeeConfigDto implements FeeConfig {
  @ApiProperty({ enum: FEE_TYPES, example: 'CROSS_CURRENCY_TRANSACTION' }) feeType!: FeeType;
  @ApiProperty({ example: 'USD' }) sourceCurrency!: string;
  @ApiProperty({ example: 50, minimum: 0, maximum: 10000 }) variableFeeBps!: number;
  @ApiProperty({ type: FixedFeeDto }) fixedFee!: FixedFeeDto;
}

class PlatformConfigResponseDto implements CustomersPlatformConfig {
  @ApiProperty({ description: "The platform's UMA domain (customers' UMA addresses end in it)", example: 'p-0190f1c2.uma.sandbox.paykit.dev' }) umaDomain!: string;
  @ApiProperty({ description: 'Regulated platforms run their own KYC; their customers start APPROVED', example: false }) regulated!: boolean;
  @ApiProperty({ description: 'Same as `regulated`', example: false }) isRegulatedFinancialInstitution!: boolean;
  @ApiProperty({ type: [SupportedCurrencyDto] }) supportedCurrencies!: SupportedCurrencyDto[];
  @ApiProperty({ description: 'Whether new customers with an email get an EMBEDDED_WALLET (USDC) internal account', example: true })
  embeddedWalletsEnabled!: boolean;
  @ApiProperty({
    enum: SANDBOX_PROFILES,
    description:
      "Paykit extension (not in the reference document): SPEC (default) runs SPEC.md's sandbox tables; HOSTED runs the hosted sandbox's current guides (KYC decided at creation by the fullName suffix, KYB on verification, FULL_NAME the only provider-required customer field). Set with PATCH /config",
    example: 'SPEC',
  })
  sandboxProfile!: SandboxProfile;
  @ApiPropertyOptional({ type: EmbeddedWalletConfigDto }) embeddedWalletConfig?: EmbeddedWalletConfigDto;
  @ApiPropertyOptional({ type: CardTokenization2faConfigDto }) cardTokenization2faConfig?: CardTokenization2faConfigDto;
  @ApiProperty({ type: [FeeConfigDto] }) feeConfigs!: FeeConfigDto[];
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) createdAt!: string;
  @ApiProperty({ example: '2025-10-13T12:00:00.000Z' }) updatedAt!: string;
}

/** The whole `/config`: each service's part, merged. */
class ComposedPlatformConfigDto extends IntersectionType(PlatformConfigResponseDto, WebhookConfigPartDto) {}

/** `/config` is composed from the services that own each part of the platform's configuration. */
@ApiTags('Platform Configuration')
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

  @RequiresPermission('MANAGE')
  @Patch()
  @ApiOperation({
    summary: 'Update the platform configuration',
    description:
      "Sets (or with `null` removes) the webhook endpoint; sets the UMA domain (every customer's UMA address moves to it), replaces the supported currencies " +
      '(limits, counterparty fields, transaction types; each a currency the deployment offers), merges the fees by (feeType, sourceCurrency) (0 fixed and 0 bps removes one), sets the embedded wallet and card tokenization ' +
      'message settings, turns embedded wallets on or off for new customers, and sets the sandbox profile (`sandboxProfile`, a Paykit extension: SPEC or HOSTED). Answers the whole configuration.',
  })
  @ApiOkResponse({ type: ComposedPlatformConfigDto })
  @ApiErrors(400, 401)
  async update(@Body() body: UpdateConfigRequest, @Caller() caller: CallerContext): Promise<ComposedPlatformConfigDto> {
    // The webhooks part first: its endpoint check is the one that can still refuse the request.
    const webhooks = await this.services.request(WEBHOOKS_SUBJECTS.updateConfig, { webhookEndpoint: body.webhookEndpoint }, caller);
    const customerPart = {
      umaDomain: body.umaDomain,
      supportedCurrencies: body.supportedCurrencies,
      embeddedWalletConfig: body.embeddedWalletConfig,
      cardTokenization2faConfig: body.cardTokenization2faConfig,
      feeConfigs: body.feeConfigs,
      embeddedWalletsEnabled: body.embeddedWalletsEnabled,
      sandboxProfile: body.sandboxProfile,
    };
    const customers = Object.values(customerPart).every((value) => value === undefined)
      ? await this.services.request(CUSTOMERS_SUBJECTS.getConfig, {}, caller)
      : await this.services.request(CUSTOMERS_SUBJECTS.updateConfig, customerPart, caller);
    return { ...customers, ...webhooks };
  }
}
