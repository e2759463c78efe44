import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CurrencyPreference, PAYER_DATA_FIELDS, PayerDataField, PayerDataFieldRequirement, ReceiverLookup } from '@paykit/contracts';
import { CurrencyDto } from '../../payments/dto/internal-account.response';

export class CurrencyPreferenceDto implements CurrencyPreference {
  @ApiProperty({ type: CurrencyDto }) currency!: CurrencyDto;
  @ApiProperty({ description: "Estimated units of this currency per unit of the sender's currency (quotes lock the rate)", example: 17.25 }) estimatedExchangeRate!: number;
  @ApiProperty({ description: 'Smallest amount receivable in this currency (smallest unit)', example: 1, minimum: 1 }) min!: number;
  @ApiProperty({ description: 'Largest amount receivable in this currency (smallest unit)', example: 170000000, minimum: 1 }) max!: number;
}

export class PayerDataFieldDto implements PayerDataFieldRequirement {
  @ApiProperty({ enum: PAYER_DATA_FIELDS, example: 'FULL_NAME' }) name!: PayerDataField;
  @ApiProperty({ example: true }) mandatory!: boolean;
}

export class ReceiverUmaLookupResponseDto implements ReceiverLookup {
  @ApiProperty({ type: [CurrencyPreferenceDto], description: 'What the receiver can receive, with estimates from the sender currency' })
  supportedCurrencies!: CurrencyPreferenceDto[];
  @ApiPropertyOptional({ type: [PayerDataFieldDto], description: 'Payer data to pass as `senderCustomerInfo` on the quote' }) requiredPayerDataFields?: PayerDataFieldDto[];
  @ApiProperty({ description: 'Pass as `lookupId` when quoting a payment to this receiver', example: 'LookupRequest:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) lookupId!: string;
  @ApiProperty({ description: 'The receiver, lowercase', example: '$success.mxn@sandbox.uma.money' }) receiverUmaAddress!: string;
}

export class ReceiverExternalAccountLookupResponseDto implements ReceiverLookup {
  @ApiProperty({ type: [CurrencyPreferenceDto], description: 'The account currency, with an estimate from the sender currency' }) supportedCurrencies!: CurrencyPreferenceDto[];
  @ApiPropertyOptional({ type: [PayerDataFieldDto], description: 'Payer data to pass as `senderCustomerInfo` on the quote' }) requiredPayerDataFields?: PayerDataFieldDto[];
  @ApiProperty({ description: 'Pass as `lookupId` when quoting a payment to this account', example: 'LookupRequest:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) lookupId!: string;
  @ApiProperty({ description: 'The external account looked up', example: 'ExternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69' }) accountId!: string;
}
