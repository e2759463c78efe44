import { ApiProperty } from '@nestjs/swagger';
import { ExchangeRate, ExchangeRateFees, ExchangeRateList, PAYMENT_RAILS, PaymentRail } from '@paykit/contracts';
import { CurrencyDto } from '../../payments/dto/internal-account.response';

export class ExchangeRateFeesDto implements ExchangeRateFees {
  @ApiProperty({ description: 'Fixed fee, smallest unit of the sending currency', example: 100, minimum: 0 }) fixed!: number;
  @ApiProperty({ description: 'Every fee for the priced sending amount, smallest unit of the sending currency', example: 150, minimum: 0 }) total!: number;
}

export class ExchangeRateResponseDto implements ExchangeRate {
  @ApiProperty({ type: CurrencyDto, description: 'Currency paid in' }) sourceCurrency!: CurrencyDto;
  @ApiProperty({ type: CurrencyDto, description: 'Currency paid out' }) destinationCurrency!: CurrencyDto;
  @ApiProperty({ enum: PAYMENT_RAILS, description: 'Rail the corridor pays out on', example: 'SPEI' }) destinationPaymentRail!: PaymentRail;
  @ApiProperty({ description: 'The priced amount, fees included, smallest unit of the source currency', example: 10000, minimum: 0 }) sendingAmount!: number;
  @ApiProperty({ description: 'Smallest sending amount the corridor takes', example: 100, minimum: 0 }) minSendingAmount!: number;
  @ApiProperty({ description: 'Largest sending amount the corridor takes', example: 10000000, minimum: 0 }) maxSendingAmount!: number;
  @ApiProperty({ description: 'What the sending amount delivers after fees, rounded down to the smallest unit of the destination currency', example: 168533, minimum: 0 })
  receivingAmount!: number;
  @ApiProperty({ description: 'Sending currency units per receiving currency unit', example: 0.057971014, minimum: 0 }) exchangeRate!: number;
  @ApiProperty({ type: ExchangeRateFeesDto }) fees!: ExchangeRateFeesDto;
  @ApiProperty({ description: 'Start of the 5-minute window the rate is valid for', example: '2025-10-13T12:00:00.000Z', format: 'date-time' }) updatedAt!: string;
}

export class ExchangeRateListResponseDto implements ExchangeRateList {
  @ApiProperty({ type: [ExchangeRateResponseDto] }) data!: ExchangeRateResponseDto[];
}
